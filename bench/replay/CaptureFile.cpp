#include "CaptureFile.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <zstd.h>

#include <cstring>

namespace streamscope::replay {

namespace {

constexpr int kTimeChars = 27; // "YYYY-MM-DDTHH:MM:SS.uuuuuuZ"

qint64 daysFromCivil(int y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const qint64 yoe = y - era * 400;
    const qint64 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const qint64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

bool number(const char *text, int width, int *value)
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

bool parseTime(const char *t, qint64 *us)
{
    int y, mo, d, h, mi, s, u;
    if (t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' || t[19] != '.' || t[26] != 'Z')
        return false;
    if (!number(t, 4, &y) || !number(t + 5, 2, &mo) || !number(t + 8, 2, &d) || !number(t + 11, 2, &h)
        || !number(t + 14, 2, &mi) || !number(t + 17, 2, &s) || !number(t + 20, 6, &u))
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        return false;
    *us = (daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) * 1000000LL + u;
    return true;
}

} // namespace

bool CaptureFile::isZstd(const QByteArray &bytes)
{
    return bytes.size() >= 4 && quint8(bytes[0]) == 0x28 && quint8(bytes[1]) == 0xB5 && quint8(bytes[2]) == 0x2F
        && quint8(bytes[3]) == 0xFD;
}

bool CaptureFile::decompress(const QByteArray &in, QByteArray *out, bool *truncated, QString *error, qint64 maxBytes)
{
    ZSTD_DCtx *ctx = ZSTD_createDCtx();
    ZSTD_inBuffer input{in.constData(), std::size_t(in.size()), 0};
    QByteArray chunk(int(ZSTD_DStreamOutSize()), Qt::Uninitialized);
    std::size_t last = 0;
    out->clear();
    bool ok = true;
    while (input.pos < input.size) {
        ZSTD_outBuffer output{chunk.data(), std::size_t(chunk.size()), 0};
        last = ZSTD_decompressStream(ctx, &output, &input);
        if (ZSTD_isError(last)) {
            *error = QStringLiteral("not a valid zstd capture: %1").arg(QString::fromLatin1(ZSTD_getErrorName(last)));
            ok = false;
            break;
        }
        out->append(chunk.constData(), qsizetype(output.pos));
        if (out->size() > maxBytes) {
            *error = QStringLiteral("the capture is larger than %1 bytes").arg(maxBytes);
            ok = false;
            break;
        }
        if (output.pos == 0 && input.pos == input.size)
            break;
    }
    // Data still buffered inside the decoder (its output was full at the last call).
    for (int guard = 0; ok && last != 0 && guard < 1 << 20; ++guard) {
        ZSTD_outBuffer output{chunk.data(), std::size_t(chunk.size()), 0};
        last = ZSTD_decompressStream(ctx, &output, &input);
        if (ZSTD_isError(last) || output.pos == 0)
            break;
        out->append(chunk.constData(), qsizetype(output.pos));
    }
    ZSTD_freeDCtx(ctx);
    // A non-zero hint at the end: the last frame was cut short (everything before it is kept).
    *truncated = ok && last != 0;
    return ok;
}

bool CaptureFile::load(const QString &path, qint64 maxBytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    const QByteArray bytes = f.readAll();
    if (isZstd(bytes)) {
        QByteArray text;
        if (!decompress(bytes, &text, &m_truncated, &m_error, maxBytes)) {
            m_error = path + QStringLiteral(": ") + m_error;
            return false;
        }
        return parse(text) || (m_error.prepend(path + QStringLiteral(": ")), false);
    }
    return parse(bytes) || (m_error.prepend(path + QStringLiteral(": ")), false);
}

bool CaptureFile::parse(const QByteArray &input)
{
    QByteArray bytes = input;
    if (isZstd(bytes)) {
        QByteArray text;
        if (!decompress(input, &text, &m_truncated, &m_error))
            return false;
        bytes = text;
    }
    m_entries.clear();
    qsizetype pos = 0;
    int lineNumber = 0;
    while (pos < bytes.size()) {
        const qsizetype end = bytes.indexOf('\n', pos);
        if (end < 0)
            break; // a last line without its end: cut short by a crash, not kept
        ++lineNumber;
        const char *line = bytes.constData() + pos;
        const qsizetype len = end - pos;
        pos = end + 1;
        Entry e;
        if (len < kTimeChars + 1 || !parseTime(line, &e.timeUs)) {
            m_error = QStringLiteral("line %1: expected a capture line starting with a UTC time").arg(lineNumber);
            return false;
        }
        const char separator = line[kTimeChars];
        const QByteArray rest(line + kTimeChars + 1, len - kTimeChars - 1);
        if (separator == ' ') {
            e.kind = Kind::Text;
            e.payload = rest;
        } else if (separator == '=') {
            const auto decoded = QByteArray::fromBase64Encoding(rest, QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded) {
                m_error = QStringLiteral("line %1: not valid base64").arg(lineNumber);
                return false;
            }
            e.kind = Kind::Binary;
            e.base64 = true;
            e.payload = decoded.decoded;
        } else if (separator == '#') {
            const QJsonObject o = QJsonDocument::fromJson(rest).object();
            e.kind = Kind::Event;
            e.payload = rest;
            e.event = o.value(QStringLiteral("event")).toString();
            if (e.event == QLatin1String("capture") && m_venue.isEmpty() && m_url.isEmpty()) {
                m_venue = o.value(QStringLiteral("venue")).toString();
                m_url = o.value(QStringLiteral("url")).toString();
                m_stream = o.value(QStringLiteral("stream")).toString();
            }
        } else {
            m_error = QStringLiteral("line %1: expected ' ', '=' or '#' after the time").arg(lineNumber);
            return false;
        }
        m_entries.append(e);
    }
    return true;
}

bool CaptureFile::isLineCapture() const
{
    const QString scheme = QUrl(m_url).scheme();
    return m_venue == QLatin1String("betfair") || scheme == QLatin1String("tcp") || scheme == QLatin1String("tls");
}

} // namespace streamscope::replay
