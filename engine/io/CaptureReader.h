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

#include "InputFile.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>

#include <atomic>
#include <cstddef>
#include <memory>

namespace streamscope::capture {

constexpr int kTimeChars = 27; // "YYYY-MM-DDTHH:MM:SS.uuuuuuZ"
constexpr char kMessageSeparator = ' ';
constexpr char kBase64Separator = '=';
constexpr char kEventSeparator = '#';

// An event's JSON object: {"event": name, ...fields}, "event" first so that a reader sees what
// the line is at once (QJsonObject sorts keys). Shared with the writers (capture/CaptureFormat).
QByteArray eventJson(const QString &name, const QJsonObject &fields);

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
// or plain, with bounded memory whatever the file holds: a chunk of the file (1 MiB), at most
// 4 MiB of decompressed text plus one line, and a zstd window of at most 2^kMaxWindowLog
// bytes (a frame asking for more is an error, so a small file cannot make the decoder
// allocate much). A line longer than maxLineBytes is skipped and counted as malformed. The file
// is opened through InputFile: a regular file of at most maxFileBytes. A file cut short (a
// recording killed with -9) is read up to its last complete line; truncated() says so
// afterwards.
class CaptureReader {
public:
    static constexpr qint64 kDefaultMaxLineBytes = 256LL * 1024 * 1024;
    static constexpr qint64 kDefaultMaxFileBytes = 64LL * 1024 * 1024 * 1024;
    // 16 MiB: what `zstd -19` and our recorder's levels use at most (23); `--long` or
    // `--ultra` frames ask for more and are refused.
    static constexpr int kMaxWindowLog = 24;
    static constexpr qint64 kNoBudget = -1;

    enum class Status {
        Unknown = 0,
        Line, // a line was read
        More, // the budget ran out before a line: call again (the reading goes on from there)
        End,  // the end, or an error that stops the reading (errorString() not empty then)
    };

    CaptureReader();
    ~CaptureReader();
    CaptureReader(const CaptureReader &) = delete;
    CaptureReader &operator=(const CaptureReader &) = delete;

    // False, with errorString() set, when InputFile refuses the file: it cannot be opened, is
    // not a regular file (a device or a pipe would never end) or is larger than maxFileBytes.
    bool open(const QString &path, qint64 maxLineBytes = kDefaultMaxLineBytes,
              qint64 maxFileBytes = kDefaultMaxFileBytes);
    // Set before open(); set the flag (from any thread) while the reader reads: it stops
    // between two chunks, with errorString() "<file>: cancelled", however long the lines it
    // is skipping.
    void setCancel(const std::atomic<bool> *cancel) { m_cancel = cancel; }
    // The next line that parses, examining at most about budgetBytes of the file and of its
    // text in this call (kNoBudget: no bound), so that a caller on an event loop reads a
    // hostile file (a line that never ends, a zstd bomb) in slices. Lines that do not parse
    // are skipped and counted (malformedLines(), firstMalformed()).
    Status read(CaptureLine *out, qint64 budgetBytes);
    // The same without a budget: false at the end or on an error that stops the reading
    // (errorString() then not empty: corrupt zstd data, a read error).
    bool next(CaptureLine *out) { return read(out, kNoBudget) == Status::Line; }
    // From the first line again (the same open file); the counts start over.
    bool rewind();

    QString errorString() const { return m_error; }
    bool isCompressed() const { return m_zstd; }
    // The file ended inside a line or a zstd frame: it was cut short.
    bool truncated() const { return m_truncated; }
    // It ended inside a zstd frame (truncated() too).
    bool frameCutShort() const { return m_frameCut; }
    quint64 malformedLines() const { return m_malformed; }
    QString firstMalformed() const { return m_firstMalformed; } // "line 12: not valid base64"
    quint64 lineNumber() const { return m_lineNumber; }
    QString path() const { return m_input.path(); }
    qint64 fileSize() const { return m_fileSize; }
    qint64 fileBytesRead() const { return m_fileRead; } // for progress
    qint64 textBytesRead() const { return m_textRead; } // decompressed: the bound of a capture read whole

private:
    bool start(); // reads the first chunk: zstd or plain
    bool fill();  // more text into m_text, or input consumed; false at the end or on an error
    void malformed(const QString &what);

    struct Zstd;
    InputFile m_input;
    std::unique_ptr<Zstd> m_dctx;
    QByteArray m_in; // compressed input not yet consumed
    qsizetype m_inPos = 0;
    QByteArray m_out;  // zstd's output, reused
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
    bool m_frameCut = false;
    bool m_skipping = false; // inside a line too long to keep
};

} // namespace streamscope::capture
