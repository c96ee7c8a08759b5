#pragma once

// Reading a capture file (docs/capture.md), shared by everything that reads one: the replay
// server (replay/CaptureFile), the engine's capture analysis (api/CaptureAnalysis, which
// the desktop app's File → Open capture uses) and the tests. Built as its own small library
// (StreamScope::CaptureRead: Qt Core and zstd, no engine), so that the replay server, which
// does not link the engine, reads captures with the same code.
//
//   <time> <message>          a message exactly as received (UTF-8 text, no CR or LF)
//   <time>=<base64>           a binary frame, or a message holding a CR or LF
//   <time>#<json object>      an event (connected, closed, reconnect, ...)
//
// Thread contract: parseTime() and parseLine() are pure functions, any thread. A
// CaptureReader is a plain object used by one thread at a time.

#include <QtCore/QByteArray>
#include <QtCore/QFile>
#include <QtCore/QString>

#include <atomic>
#include <cstddef>
#include <memory>

namespace streamscope::capture {

constexpr int kTimeChars = 27; // "YYYY-MM-DDTHH:MM:SS.uuuuuuZ"
constexpr char kMessageSeparator = ' ';
constexpr char kBase64Separator = '=';
constexpr char kEventSeparator = '#';

// The time of a line (its first kTimeChars characters); false if it is not one.
bool parseTime(const char *text, std::size_t len, qint64 *epochUs);

// One line of a capture, without its '\n'.
struct CaptureLine {
    enum class Kind { Unknown = 0, Text, Binary, Event };
    Kind kind = Kind::Unknown;
    qint64 timeUs = 0;  // receive time, µs since the epoch (UTC)
    QByteArray payload; // the message (decoded from base64 for Binary), or the event's JSON object
};
enum class LineError { None = 0, Time, Separator, Base64 };
// Reads one line; on an error `out` is left unspecified.
LineError parseLine(const char *line, std::size_t len, CaptureLine *out);
QString lineErrorText(LineError error); // "expected a capture line starting with a UTC time", ...

// Reads a capture file line by line, zstd (recognised by its magic number, whatever the name)
// or plain, with bounded memory: a chunk of the file and one line at a time (a line longer
// than maxLineBytes is skipped and counted as malformed). A file cut short (a recording
// killed with -9) is read up to its last complete line; truncated() says so afterwards.
class CaptureReader {
public:
    static constexpr qint64 kDefaultMaxLineBytes = 256LL * 1024 * 1024;

    CaptureReader();
    ~CaptureReader();
    CaptureReader(const CaptureReader &) = delete;
    CaptureReader &operator=(const CaptureReader &) = delete;

    // False, with errorString() set, when the file cannot be opened or is not a regular file
    // (a device or a pipe would never end).
    bool open(const QString &path, qint64 maxLineBytes = kDefaultMaxLineBytes);
    // Set (from any thread) while next() reads: next() stops between two chunks of the file,
    // with errorString() "<file>: cancelled", however long the lines it is skipping.
    void setCancel(const std::atomic<bool> *cancel) { m_cancel = cancel; }
    // The next line that parses; false at the end or on an error that stops the reading
    // (errorString() then not empty: corrupt zstd data, a read error). Lines that do not parse
    // are skipped and counted (malformedLines(), firstMalformed()).
    bool next(CaptureLine *out);

    QString errorString() const { return m_error; }
    bool isCompressed() const { return m_zstd; }
    // The file ended inside a line or a zstd frame: it was cut short.
    bool truncated() const { return m_truncated; }
    quint64 malformedLines() const { return m_malformed; }
    QString firstMalformed() const { return m_firstMalformed; } // "line 12: not valid base64"
    quint64 lineNumber() const { return m_lineNumber; }
    qint64 fileSize() const { return m_fileSize; }
    qint64 fileBytesRead() const { return m_fileRead; } // for progress

private:
    bool fill(); // more text into m_text; false at the end or on an error
    void malformed(const QString &what);

    struct Zstd;
    QFile m_file;
    std::unique_ptr<Zstd> m_dctx;
    QByteArray m_in; // compressed input not yet consumed
    qsizetype m_inPos = 0;
    QByteArray m_text; // decompressed text not yet split
    qsizetype m_textPos = 0;
    const std::atomic<bool> *m_cancel = nullptr;
    QString m_error;
    QString m_firstMalformed;
    qint64 m_maxLine = kDefaultMaxLineBytes;
    qint64 m_fileSize = 0;
    qint64 m_fileRead = 0;
    qint64 m_textRead = 0; // decompressed, for the error message of a bad zstd frame
    quint64 m_malformed = 0;
    quint64 m_lineNumber = 0;
    std::size_t m_lastHint = 0; // zstd's hint after the last call: non-zero inside a frame
    bool m_zstd = false;
    bool m_eof = false;
    bool m_truncated = false;
    bool m_skipping = false; // inside a line too long to keep
};

} // namespace streamscope::capture
