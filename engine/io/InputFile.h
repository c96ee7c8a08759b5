#pragma once

// The one way the project opens a file it did not write: a workspace, a capture, a TLS
// certificate, key or CA bundle, a rules or password file. Such a file is often someone
// else's, so it is hostile until read:
//   - only a regular file is accepted. The check is made on the opened descriptor (fstat), so
//     a path swapped for a FIFO or a device between a check and the open cannot fool it, and
//     the open itself never blocks (O_NONBLOCK: opening a FIFO without a writer would wait
//     forever). A directory, a device (/dev/zero never ends), a FIFO or a socket is refused
//     with what it is;
//   - at most `maxBytes`: a file larger at the open is refused, and one that grows while it is
//     read stops at maxBytes + 1 with the same error;
//   - every read can be cancelled (an atomic flag set from any thread) and has a time bound:
//     both are checked before each read, so one call returns after at most one chunk more.
// Errors name the file and what was wrong: "<path>: expected a regular file, found a FIFO".
//
// Thread contract: an InputFile is a plain object used by one thread at a time; the cancel
// flag may be set from any thread. readAll() is a pure function, any thread.

#include <QtCore/QByteArray>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QFile>
#include <QtCore/QString>

#include <atomic>
#include <chrono>
#include <optional>

namespace streamscope {

class InputFile {
public:
    // Bounds for the small files read whole (readAll()): a certificate bundle is a few
    // hundred KB, a key or a password file a few KB.
    static constexpr qint64 kMaxPemBytes = 4LL * 1024 * 1024;
    static constexpr std::chrono::milliseconds kSmallFileTimeout{10'000};

    struct Limits {
        qint64 maxBytes = 0;                       // the file's size at most (> 0)
        std::chrono::milliseconds timeout{0};      // reading past it from the open fails; 0: none
        const std::atomic<bool> *cancel = nullptr; // set from any thread: the next read fails
    };
    enum class Error { None = 0, Open, NotRegular, TooLarge, Read, Cancelled, TimedOut };

    InputFile();
    ~InputFile();
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;

    // False, with error() and errorString() set, when the file cannot be opened, is not a
    // regular file or is larger than limits.maxBytes.
    bool open(const QString &path, const Limits &limits);
    // Up to maxBytes (> 0) into data: the count read, 0 at the end, -1 on an error.
    qint64 read(char *data, qint64 maxBytes);
    // The same into a new array: empty at the end or on an error (error() tells them apart).
    QByteArray read(qint64 maxBytes);
    // Back to the first byte (a capture served again with --loop); the time bound goes on.
    bool rewind();
    void close();

    bool isOpen() const { return m_file.isOpen(); }
    bool atEnd() const { return m_atEnd; }
    QString path() const { return m_path; }
    qint64 size() const { return m_size; }         // at the open
    qint64 position() const { return m_position; } // bytes read since the open or rewind
    Error error() const { return m_error; }
    QString errorString() const { return m_errorString; } // "<path>: <what>", empty without an error

    // The whole file, or nothing with *error set ("<path>: ..."). For small files: a
    // workspace, a certificate, a key (with limits.timeout, kSmallFileTimeout usually).
    static std::optional<QByteArray> readAll(const QString &path, const Limits &limits, QString *error);

private:
    bool fail(Error error, const QString &what);
    bool checkBeforeRead();

    QFile m_file;
    QString m_path;
    QString m_errorString;
    Limits m_limits;
    QDeadlineTimer m_deadline;
    qint64 m_size = 0;
    qint64 m_position = 0;
    Error m_error = Error::None;
    bool m_atEnd = false;
};

} // namespace streamscope
