#pragma once

// One stream's recording: the ring its worker writes into, and the file the capture writer
// thread makes of it (docs/capture.md). The worker hands over each message with its receive
// time (the one the hot path already read for latency) and the session's events; the writer
// formats the lines, compresses them with zstd, writes them, flushes a zstd block at least
// every half second (so a process killed with -9 loses at most that), rotates by size and
// age, and keeps going through errors: a folder that cannot be written, a full disk or a file
// deleted under it become an error text and a count, the messages meanwhile are counted as
// dropped, and a new file is tried a few seconds later. The stream itself never waits.
//
// Thread contract: message() and event() on the stream's worker (the ring's one producer);
// service() and close() on the writer thread only; status() and finish() on any thread.

#include "CaptureRing.h"
#include "CaptureSink.h"
#include "model/RecordConfig.h"
#include "model/RedactedUrl.h"
#include "stats/RelaxedCounter.h"

#include <QtCore/QByteArray>
#include <QtCore/QFile>
#include <QtCore/QJsonObject>
#include <QtCore/QMutex>
#include <QtCore/QString>

#include <atomic>
#include <memory>
#include <string>

struct ZSTD_CCtx_s;

namespace streamscope {

class CaptureRecorder final : public CaptureSink {
public:
    // What the first line of every file names.
    struct Identity {
        QString stream;
        QString venue;
        RedactedUrl url;
        QString mode;
        QString hostClock = QStringLiteral("unknown");
        QString latencyField; // the stream's own event-time JSON pointer; empty: the venue's
        QString latencyUnit;  // its unit ("ms"), with latencyField
        bool futures = false; // a Binance USD-M futures stream on a host that does not say so
        bool book = true;     // false: the stream keeps no order books ("book": false)
    };

    CaptureRecorder(const RecordConfig &config, Identity identity, qint64 startedMs);
    ~CaptureRecorder() override;
    CaptureRecorder(const CaptureRecorder &) = delete;
    CaptureRecorder &operator=(const CaptureRecorder &) = delete;

    const RecordConfig &config() const { return m_config; }
    const Identity &identity() const { return m_identity; }
    // The first line's object of a capture file from this stream (docs/capture.md), which the
    // flight recorder's files share.
    static QJsonObject headerObject(const Identity &identity, bool compressed, qint64 fileIndex);

    // Worker thread (hot path): one copy into the ring, or a counted drop.
    void message(qint64 receivedUs, const char *data, qsizetype len, bool binary) noexcept
    {
        if (!m_ring.push(binary ? CaptureRing::Kind::Binary : CaptureRing::Kind::Text, receivedUs, data,
                         std::size_t(len)))
            m_ringDrops.add();
    }
    // Worker thread: an event line ({"event": name, ...fields}).
    void event(qint64 timeUs, const QString &name, QJsonObject fields = {});
    // Worker thread: an event line already written as JSON (eventJson()), at most
    // maxEventBytes(); a longer one is dropped and counted.
    void eventJson(qint64 timeUs, const QByteArray &json);
    std::size_t maxEventBytes() const { return m_ring.maxPayload(); }

    // Any thread.
    RecordStatus status() const;
    quint64 errorCount() const { return m_errors.load(); }
    // No more input will come (the session is gone): the writer writes what is left and
    // closes the file.
    void finish() override { m_finishing.store(true, std::memory_order_release); }

    // Writer thread: writes what the ring holds; flushes, rotates and retries when due.
    // Returns true if there was anything to do. `wallUs` and `steadyMs` are the writer's clocks.
    bool service(qint64 wallUs, qint64 steadyMs) override;
    // Writer thread: whether finish() was called and everything has been written and closed.
    bool done() const override { return m_done; }
    // Writer thread: writes what is left and closes the file (the process is ending).
    void close(qint64 wallUs, qint64 steadyMs) override;

private:
    bool openFile(qint64 wallUs, qint64 steadyMs, const QString &previous);
    void closeFile(qint64 wallUs, const QString &next);
    // Compresses (when compressing) and writes m_text; `flush` ends a zstd block (`end` the
    // frame) so that everything so far is on disk. False after a write error (handled).
    bool writeOut(bool flush, bool end);
    bool writeRaw(const char *data, std::size_t len);
    // A write error: the error shown and counted, the file closed, a new one tried later.
    void failed(const QString &error);
    void setError(const QString &error);
    void setFile(const QString &path);
    QByteArray headerJson(const QString &previous) const;

    const RecordConfig m_config;
    const Identity m_identity;
    const qint64 m_startedMs;
    CaptureRing m_ring;

    // Written by the worker (ring drops) or by the writer, read by anyone.
    RelaxedCounter m_ringDrops;
    RelaxedCounter m_lostDrops;
    RelaxedCounter m_recorded;
    RelaxedCounter m_bytesWritten;
    RelaxedCounter m_errors;
    RelaxedCounter m_files;
    std::atomic<bool> m_finishing{false};

    mutable QMutex m_mutex; // guards m_file and m_error
    QString m_fileShown;
    QString m_error;

    // Writer thread only.
    QFile m_file;
    ZSTD_CCtx_s *m_zstd = nullptr;
    std::string m_text;     // formatted lines not yet compressed
    std::string m_out;      // compressed bytes
    quint64 m_pending = 0;  // messages formatted since the last flush that reached the disk
    qint64 m_fileBytes = 0; // bytes written to the current file
    qint64 m_fileOpenedMs = 0;
    qint64 m_lastFlushMs = 0;
    qint64 m_retryAtMs = 0; // after an error: when to try a new file
    qint64 m_nowMs = 0;     // the writer's steady clock at the current service()
    bool m_unflushed = false;
    bool m_done = false;
    int m_serial = 0;
};

} // namespace streamscope
