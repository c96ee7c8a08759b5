#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

namespace streamscope::capture {
struct CaptureLine;
}

namespace streamscope::replay {

// A capture file read back whole (docs/capture.md): `.ndjson.zst` (zstd, recognised by its
// magic number, whatever the name) or plain `.ndjson`. A file cut short (a recording process
// killed with -9) is read up to its last complete line: a truncated final zstd frame is
// accepted. Tests compare captures with it; the replay server never reads a capture whole but
// streams it (CaptureWindow), and both read lines with the same CaptureReader.
// Thread contract: a plain value; load on any thread.
class CaptureFile {
public:
    enum class Kind { Unknown = 0, Text, Binary, Event };
    struct Entry {
        Kind kind = Kind::Unknown;
        qint64 timeUs = 0;   // receive time, µs since the epoch (UTC)
        QByteArray payload;  // the message (decoded from base64 for Binary), or the event's JSON
        QString event;       // for Event: its "event" name
        bool base64 = false; // the line was written in base64 (a binary frame, or text with CR/LF)
    };

    // Reads `path` (opened by InputFile: a regular file). A capture larger than maxBytes once
    // decompressed is refused, and so is any line that is not a capture line.
    bool load(const QString &path, qint64 maxBytes = 4LL * 1024 * 1024 * 1024);
    // The same from bytes (compressed or not).
    bool parse(const QByteArray &bytes);
    QString errorString() const { return m_error; }

    const QVector<Entry> &entries() const { return m_entries; }
    // The first line's "capture" event fields.
    QString venue() const { return m_venue; }
    QString url() const { return m_url; }
    QString stream() const { return m_stream; }
    // Line captures (a Betfair-style stream: venue betfair, or a tcp:// or tls:// URL).
    bool isLineCapture() const { return isLineCapture(m_venue, m_url); }
    static bool isLineCapture(const QString &venue, const QString &url);
    // Whether the zstd data ended inside a frame (the recording was cut short).
    bool truncated() const { return m_truncated; }

    // An entry from a line read by CaptureReader (the event's name parsed for an Event).
    static Entry entryFrom(capture::CaptureLine &&line);

    // Decompresses zstd data, accepting a final frame cut short (truncated is set then).
    // Returns false, with error set, on corrupt data or when the output passes maxBytes.
    static bool decompress(const QByteArray &in, QByteArray *out, bool *truncated, QString *error,
                           qint64 maxBytes = 4LL * 1024 * 1024 * 1024);
    static bool isZstd(const QByteArray &bytes);

private:
    void append(Entry &&entry); // and the header's fields from the first "capture" event

    QVector<Entry> m_entries;
    QString m_error;
    QString m_venue;
    QString m_url;
    QString m_stream;
    bool m_truncated = false;
};

} // namespace streamscope::replay
