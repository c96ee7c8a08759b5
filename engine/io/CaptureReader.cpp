#include "CaptureReader.h"

#include <QtCore/QFileInfo>

#include <zstd.h>

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
    ~Zstd() { ZSTD_freeDCtx(ctx); }
};

CaptureReader::CaptureReader() = default;
CaptureReader::~CaptureReader() = default;

bool CaptureReader::open(const QString &path, qint64 maxLineBytes)
{
    m_file.setFileName(path);
    if (const QFileInfo info(path); info.exists() && !info.isFile()) {
        m_error = QStringLiteral("%1: not a regular file").arg(path);
        return false;
    }
    if (!m_file.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("%1: %2").arg(path, m_file.errorString());
        return false;
    }
    m_maxLine = std::max<qint64>(maxLineBytes, kTimeChars + 1);
    m_fileSize = m_file.size();
    m_in = m_file.read(kReadChunk);
    m_fileRead = m_in.size();
    m_zstd = isZstdMagic(m_in);
    if (m_zstd) {
        m_dctx = std::make_unique<Zstd>();
    } else {
        m_text = std::move(m_in);
        m_in.clear();
        m_textRead = m_text.size();
    }
    return true;
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
    if (!m_zstd) {
        if (m_eof)
            return false;
        const QByteArray chunk = m_file.read(kReadChunk);
        if (chunk.isEmpty()) {
            m_eof = true;
            if (m_file.error() != QFileDevice::NoError)
                m_error = QStringLiteral("%1: %2").arg(m_file.fileName(), m_file.errorString());
            return false;
        }
        m_fileRead += chunk.size();
        m_textRead += chunk.size();
        m_text += chunk;
        return true;
    }
    const qsizetype before = m_text.size();
    QByteArray out(qsizetype(ZSTD_DStreamOutSize()), Qt::Uninitialized);
    while (m_text.size() - before < kTextChunk) {
        if (m_inPos >= m_in.size() && !m_eof) {
            m_in = m_file.read(kReadChunk);
            m_inPos = 0;
            m_fileRead += m_in.size();
            if (m_in.isEmpty()) {
                m_eof = true; // what the decoder still holds is flushed below
                if (m_file.error() != QFileDevice::NoError)
                    m_error = QStringLiteral("%1: %2").arg(m_file.fileName(), m_file.errorString());
            }
        }
        ZSTD_inBuffer input{m_in.constData() + m_inPos, std::size_t(m_in.size() - m_inPos), 0};
        ZSTD_outBuffer output{out.data(), std::size_t(out.size()), 0};
        const std::size_t hint = ZSTD_decompressStream(m_dctx->ctx, &output, &input);
        m_inPos += qsizetype(input.pos);
        if (ZSTD_isError(hint)) {
            m_error = QStringLiteral("%1: not valid zstd data after %2 bytes of text (%3)")
                          .arg(m_file.fileName())
                          .arg(m_textRead + (m_text.size() - before))
                          .arg(QString::fromLatin1(ZSTD_getErrorName(hint)));
            break;
        }
        // A call without input after a finished frame hints at the next frame's header: not a cut.
        if (input.size > 0 || output.pos > 0)
            m_lastHint = hint;
        m_text.append(out.constData(), qsizetype(output.pos));
        if (m_eof && output.pos == 0)
            break; // nothing more held inside
    }
    m_textRead += m_text.size() - before;
    // A non-zero hint at the end: the last frame was cut short (what came before it is kept).
    if (m_eof && m_lastHint != 0)
        m_truncated = true;
    return m_text.size() > before;
}

void CaptureReader::malformed(const QString &what)
{
    if (m_malformed++ == 0)
        m_firstMalformed = QStringLiteral("line %1: %2").arg(m_lineNumber).arg(what);
}

bool CaptureReader::next(CaptureLine *out)
{
    if (!m_file.isOpen())
        return false;
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
                return true;
            malformed(lineErrorText(error));
            continue;
        }
        if (m_text.size() - m_textPos > m_maxLine) {
            m_skipping = true; // drop it as it comes, up to its end
            m_textPos = m_text.size();
        }
        if (m_cancel && m_cancel->load(std::memory_order_relaxed)) {
            m_error = QStringLiteral("%1: cancelled").arg(m_file.fileName());
            return false;
        }
        if (!fill()) {
            // A last line without its end: cut short by a crash, not kept.
            if (m_text.size() > m_textPos || m_skipping)
                m_truncated = true;
            m_text.clear();
            m_textPos = 0;
            return false;
        }
    }
}

} // namespace streamscope::capture
