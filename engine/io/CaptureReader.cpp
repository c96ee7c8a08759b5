#include "CaptureReader.h"

#include <QtCore/QJsonDocument>

#include <zstd.h>
#include <zstd_errors.h>

namespace streamscope::capture {

namespace {

constexpr qint64 kUsPerSecond = 1'000'000;
constexpr qint64 kSecondsPerDay = 86'400;
constexpr qint64 kReadChunk = 1 << 20;    // file bytes read at a time
constexpr qsizetype kTextChunk = 4 << 20; // decompressed at a time, at most (plus one zstd block)

qint64 daysFromCivil(int y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const qint64 yoe = y - era * 400;
    const qint64 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const qint64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

bool readDigits(const char *text, int width, int *value)
{
    int v = 0;
    for (int i = 0; i < width; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (text[i] - '0');
    }
    *value = v;
    return true;
}

bool isZstdMagic(const QByteArray &bytes)
{
    return bytes.size() >= 4 && quint8(bytes[0]) == 0x28 && quint8(bytes[1]) == 0xB5 && quint8(bytes[2]) == 0x2F
        && quint8(bytes[3]) == 0xFD;
}

} // namespace

QByteArray eventJson(const QString &name, const QJsonObject &fields)
{
    QByteArray out =
        "{\"event\":" + QJsonDocument(QJsonObject{{QStringLiteral("e"), name}}).toJson(QJsonDocument::Compact).mid(5);
    out.chop(1); // the closing brace of {"e":"name"}
    const QByteArray rest = QJsonDocument(fields).toJson(QJsonDocument::Compact);
    if (rest.size() > 2)
        out += ',' + rest.mid(1);
    else
        out += '}';
    return out;
}

bool parseTime(const char *text, std::size_t len, qint64 *epochUs)
{
    if (len < std::size_t(kTimeChars) || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':'
        || text[16] != ':' || text[19] != '.' || text[26] != 'Z')
        return false;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, micros = 0;
    if (!readDigits(text, 4, &year) || !readDigits(text + 5, 2, &month) || !readDigits(text + 8, 2, &day)
        || !readDigits(text + 11, 2, &hour) || !readDigits(text + 14, 2, &minute) || !readDigits(text + 17, 2, &second)
        || !readDigits(text + 20, 6, &micros))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return false;
    const qint64 seconds = daysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
    *epochUs = seconds * kUsPerSecond + micros;
    return true;
}

LineError parseLine(const char *line, std::size_t len, CaptureLine *out)
{
    if (len < std::size_t(kTimeChars) + 1 || !parseTime(line, len, &out->timeUs))
        return LineError::Time;
    const char separator = line[kTimeChars];
    const char *rest = line + kTimeChars + 1;
    const auto restLen = qsizetype(len - std::size_t(kTimeChars) - 1);
    if (separator == kMessageSeparator) {
        out->kind = CaptureLine::Kind::Text;
        out->payload = QByteArray(rest, restLen);
    } else if (separator == kBase64Separator) {
        auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromRawData(rest, restLen),
                                                      QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return LineError::Base64;
        out->kind = CaptureLine::Kind::Binary;
        out->payload = std::move(decoded.decoded);
    } else if (separator == kEventSeparator) {
        out->kind = CaptureLine::Kind::Event;
        out->payload = QByteArray(rest, restLen);
    } else {
        return LineError::Separator;
    }
    return LineError::None;
}

QString lineErrorText(LineError error)
{
    switch (error) {
    case LineError::Time: return QStringLiteral("expected a capture line starting with a UTC time");
    case LineError::Separator: return QStringLiteral("expected ' ', '=' or '#' after the time");
    case LineError::Base64: return QStringLiteral("not valid base64");
    case LineError::None: break;
    }
    return QString();
}

struct CaptureReader::Zstd {
    ZSTD_DCtx *ctx = ZSTD_createDCtx();
    Zstd() { ZSTD_DCtx_setParameter(ctx, ZSTD_d_windowLogMax, kMaxWindowLog); }
    ~Zstd() { ZSTD_freeDCtx(ctx); }
    Zstd(const Zstd &) = delete;
    Zstd &operator=(const Zstd &) = delete;
};

CaptureReader::CaptureReader() = default;
CaptureReader::~CaptureReader() = default;

bool CaptureReader::open(const QString &path, qint64 maxLineBytes, qint64 maxFileBytes)
{
    InputFile::Limits limits;
    limits.maxBytes = maxFileBytes;
    limits.cancel = m_cancel;
    if (!m_input.open(path, limits)) {
        m_error = m_input.errorString();
        return false;
    }
    m_maxLine = std::max<qint64>(maxLineBytes, kTimeChars + 1);
    m_fileSize = m_input.size();
    return start();
}

bool CaptureReader::start()
{
    m_error.clear();
    m_firstMalformed.clear();
    m_text.clear();
    m_textPos = 0;
    m_inPos = 0;
    m_fileRead = 0;
    m_textRead = 0;
    m_malformed = 0;
    m_lineNumber = 0;
    m_lastHint = 0;
    m_eof = false;
    m_truncated = false;
    m_frameCut = false;
    m_skipping = false;
    m_in = m_input.read(kReadChunk);
    if (m_input.error() != InputFile::Error::None) {
        m_error = m_input.errorString();
        return false;
    }
    m_fileRead = m_in.size();
    m_zstd = isZstdMagic(m_in);
    if (m_zstd) {
        if (m_dctx)
            ZSTD_DCtx_reset(m_dctx->ctx, ZSTD_reset_session_only);
        else
            m_dctx = std::make_unique<Zstd>();
    } else {
        m_text = std::move(m_in);
        m_in.clear();
        m_textRead = m_text.size();
    }
    return true;
}

bool CaptureReader::rewind()
{
    if (!m_input.isOpen())
        return false;
    if (!m_input.rewind()) {
        m_error = m_input.errorString();
        return false;
    }
    return start();
}

bool CaptureReader::fill()
{
    if (!m_error.isEmpty())
        return false;
    // What was split off already goes; the unfinished line moves to the front.
    if (m_textPos > 0) {
        m_text.remove(0, m_textPos);
        m_textPos = 0;
    }
    const auto readChunk = [this] {
        QByteArray chunk = m_input.read(kReadChunk);
        if (chunk.isEmpty()) {
            m_eof = true; // what a decoder still holds is flushed by the caller
            if (m_input.error() != InputFile::Error::None)
                m_error = m_input.errorString();
        }
        m_fileRead += chunk.size();
        return chunk;
    };
    if (!m_zstd) {
        if (m_eof)
            return false;
        const QByteArray chunk = readChunk();
        m_textRead += chunk.size();
        m_text += chunk;
        return !chunk.isEmpty();
    }
    const qsizetype before = m_text.size();
    const qint64 fileBefore = m_fileRead;
    if (m_out.isEmpty())
        m_out.resize(qsizetype(ZSTD_DStreamOutSize()));
    // Bounded both ways: the text a call adds (a zstd bomb) and the file it reads (frames
    // that hold nothing, such as skippable ones).
    while (m_error.isEmpty() && m_text.size() - before < kTextChunk && m_fileRead - fileBefore <= kReadChunk) {
        if (m_inPos >= m_in.size() && !m_eof) {
            m_in = readChunk();
            m_inPos = 0;
            if (!m_error.isEmpty())
                break;
        }
        ZSTD_inBuffer input{m_in.constData() + m_inPos, std::size_t(m_in.size() - m_inPos), 0};
        ZSTD_outBuffer output{m_out.data(), std::size_t(m_out.size()), 0};
        const std::size_t hint = ZSTD_decompressStream(m_dctx->ctx, &output, &input);
        m_inPos += qsizetype(input.pos);
        if (ZSTD_isError(hint)) {
            const QString why = ZSTD_getErrorCode(hint) == ZSTD_error_frameParameter_windowTooLarge
                ? QStringLiteral("a zstd frame needs a window larger than %1 MiB (compressed with --long or "
                                 "--ultra?)")
                      .arg((1LL << kMaxWindowLog) / (1024 * 1024))
                : QStringLiteral("not valid zstd data (%1)").arg(QString::fromLatin1(ZSTD_getErrorName(hint)));
            m_error = QStringLiteral("%1: %2 after %3 bytes of text")
                          .arg(m_input.path(), why)
                          .arg(m_textRead + (m_text.size() - before));
            break;
        }
        // A call without input after a finished frame hints at the next frame's header: not a cut.
        if (input.size > 0 || output.pos > 0)
            m_lastHint = hint;
        m_text.append(m_out.constData(), qsizetype(output.pos));
        if (m_eof && output.pos == 0)
            break; // nothing more held inside
    }
    const qsizetype added = m_text.size() - before;
    m_textRead += added;
    if (!m_error.isEmpty())
        return added > 0;
    if (!m_eof)
        return true;
    // A non-zero hint at the end: the last frame was cut short (what came before it is kept).
    if (m_lastHint != 0) {
        m_truncated = true;
        m_frameCut = true;
    }
    return added > 0;
}

void CaptureReader::malformed(const QString &what)
{
    if (m_malformed++ == 0)
        m_firstMalformed = QStringLiteral("line %1: %2").arg(m_lineNumber).arg(what);
}

CaptureReader::Status CaptureReader::read(CaptureLine *out, qint64 budgetBytes)
{
    if (!m_input.isOpen())
        return Status::End;
    const qint64 workBefore = m_fileRead + m_textRead;
    for (;;) {
        const qsizetype nl = m_text.indexOf('\n', m_textPos);
        if (nl >= 0) {
            ++m_lineNumber;
            const char *line = m_text.constData() + m_textPos;
            const auto len = std::size_t(nl - m_textPos);
            m_textPos = nl + 1;
            if (m_skipping || qint64(len) > m_maxLine) {
                m_skipping = false;
                malformed(QStringLiteral("a line longer than %1 bytes").arg(m_maxLine));
                continue;
            }
            const LineError error = parseLine(line, len, out);
            if (error == LineError::None)
                return Status::Line;
            malformed(lineErrorText(error));
            continue;
        }
        if (m_text.size() - m_textPos > m_maxLine) {
            m_skipping = true; // drop it as it comes, up to its end
            m_textPos = m_text.size();
        }
        if (m_cancel && m_cancel->load(std::memory_order_relaxed)) {
            if (m_error.isEmpty())
                m_error = QStringLiteral("%1: cancelled").arg(m_input.path());
            return Status::End;
        }
        if (budgetBytes >= 0 && m_fileRead + m_textRead - workBefore >= budgetBytes)
            return Status::More;
        if (!fill()) {
            // A last line without its end: cut short by a crash, not kept.
            if (m_text.size() > m_textPos || m_skipping)
                m_truncated = true;
            m_text.clear();
            m_textPos = 0;
            m_skipping = false;
            return Status::End;
        }
    }
}

} // namespace streamscope::capture
