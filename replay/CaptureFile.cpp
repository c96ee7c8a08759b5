#include "CaptureFile.h"

#include "CaptureReader.h"

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
    ZSTD_DCtx_setParameter(ctx, ZSTD_d_windowLogMax, capture::CaptureReader::kMaxWindowLog);
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

CaptureFile::Entry CaptureFile::entryFrom(capture::CaptureLine &&line)
{
    Entry e;
    e.timeUs = line.timeUs;
    e.payload = std::move(line.payload);
    switch (line.kind) {
    case capture::CaptureLine::Kind::Text: e.kind = Kind::Text; break;
    case capture::CaptureLine::Kind::Binary:
        e.kind = Kind::Binary;
        e.base64 = true;
        break;
    case capture::CaptureLine::Kind::Event:
    case capture::CaptureLine::Kind::Unknown:
        e.kind = Kind::Event;
        e.event = QJsonDocument::fromJson(e.payload).object().value(QStringLiteral("event")).toString();
        break;
    }
    return e;
}

void CaptureFile::append(Entry &&e)
{
    if (e.event == QLatin1String("capture") && m_venue.isEmpty() && m_url.isEmpty()) {
        const QJsonObject o = QJsonDocument::fromJson(e.payload).object();
        m_venue = o.value(QStringLiteral("venue")).toString();
        m_url = o.value(QStringLiteral("url")).toString();
        m_stream = o.value(QStringLiteral("stream")).toString();
    }
    m_entries.append(std::move(e));
}

bool CaptureFile::load(const QString &path, qint64 maxBytes)
{
    capture::CaptureReader reader;
    if (!reader.open(path)) {
        m_error = reader.errorString();
        return false;
    }
    m_entries.clear();
    capture::CaptureLine line;
    while (reader.malformedLines() == 0 && reader.next(&line)) {
        if (reader.textBytesRead() > maxBytes) {
            m_error = QStringLiteral("%1: the capture is larger than %2 bytes").arg(path).arg(maxBytes);
            return false;
        }
        if (reader.malformedLines() == 0)
            append(entryFrom(std::move(line)));
    }
    if (reader.malformedLines() > 0) {
        m_error = QStringLiteral("%1: %2").arg(path, reader.firstMalformed());
        return false;
    }
    if (!reader.errorString().isEmpty()) {
        m_error = reader.errorString();
        return false;
    }
    m_truncated = reader.truncated();
    return true;
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
        const char *text = bytes.constData() + pos;
        const qsizetype len = end - pos;
        pos = end + 1;
        capture::CaptureLine line;
        const capture::LineError error = capture::parseLine(text, std::size_t(len), &line);
        if (error != capture::LineError::None) {
            m_error = QStringLiteral("line %1: %2").arg(lineNumber).arg(capture::lineErrorText(error));
            return false;
        }
        append(entryFrom(std::move(line)));
    }
    return true;
}

bool CaptureFile::isLineCapture(const QString &venue, const QString &url)
{
    const QString scheme = QUrl(url).scheme();
    return venue == QLatin1String("betfair") || scheme == QLatin1String("tcp") || scheme == QLatin1String("tls");
}

} // namespace streamscope::replay
