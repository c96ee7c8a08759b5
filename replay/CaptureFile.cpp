#include "CaptureFile.h"

#include "CaptureReader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <zstd.h>

#include <cstring>

namespace streamscope::replay {

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
        capture::CaptureLine line0;
        const capture::LineError error = capture::parseLine(line, std::size_t(len), &line0);
        if (error != capture::LineError::None) {
            m_error = QStringLiteral("line %1: %2").arg(lineNumber).arg(capture::lineErrorText(error));
            return false;
        }
        Entry e;
        e.timeUs = line0.timeUs;
        e.payload = std::move(line0.payload);
        switch (line0.kind) {
        case capture::CaptureLine::Kind::Text: e.kind = Kind::Text; break;
        case capture::CaptureLine::Kind::Binary:
            e.kind = Kind::Binary;
            e.base64 = true;
            break;
        case capture::CaptureLine::Kind::Event:
        case capture::CaptureLine::Kind::Unknown: {
            const QJsonObject o = QJsonDocument::fromJson(e.payload).object();
            e.kind = Kind::Event;
            e.event = o.value(QStringLiteral("event")).toString();
            if (e.event == QLatin1String("capture") && m_venue.isEmpty() && m_url.isEmpty()) {
                m_venue = o.value(QStringLiteral("venue")).toString();
                m_url = o.value(QStringLiteral("url")).toString();
                m_stream = o.value(QStringLiteral("stream")).toString();
            }
            break;
        }
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
