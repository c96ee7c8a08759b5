#pragma once

// One stream's flight recorder (docs/capture.md, "Flight recorder"): the stream's worker
// hands each message and event over through the same kind of ring as a recording to disk
// (CaptureRing), and the capture writer thread formats the lines as a capture does, cuts them
// into chunks (a chunk ends at kChunkTextBytes of text or kChunkMs after it began), compresses
// each into one zstd frame and keeps them in memory (FlightChunkStore): the last `keepMs`,
// within the memory cap all streams share (FlightBudget). A save writes the capture's first
// line, then the chunks held, to a new `.ndjson.zst` file: a capture like any other.
//
// Thread contract: message() and event() on the stream's worker (the ring's one producer);
// requestSave(), status(), setKeepMs() and finish() on any thread; the CaptureSink methods
// on the writer thread only. Saves are written on the writer thread.

#include "CaptureRecorder.h"
#include "CaptureRing.h"
#include "CaptureSink.h"
#include "FlightChunkStore.h"
#include "model/FlightConfig.h"
#include "stats/RelaxedCounter.h"

#include <QtCore/QJsonObject>
#include <QtCore/QMutex>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <atomic>
#include <memory>
#include <string>

namespace streamscope {

class FlightBudget;

class FlightRecorder final : public CaptureSink {
public:
    static constexpr std::size_t kRingBytes = 4 * 1024 * 1024;
    static constexpr std::size_t kChunkTextBytes = 64 * 1024;
    static constexpr qint64 kChunkMs = 1000;

    FlightRecorder(CaptureRecorder::Identity identity, std::shared_ptr<FlightBudget> budget, qint64 keepMs);
    ~FlightRecorder() override;
    FlightRecorder(const FlightRecorder &) = delete;
    FlightRecorder &operator=(const FlightRecorder &) = delete;

    const CaptureRecorder::Identity &identity() const { return m_identity; }

    // Worker thread (hot path): one copy into the ring, or a counted drop.
    void message(qint64 receivedUs, const char *data, qsizetype len, bool binary) noexcept
    {
        if (!m_ring.push(binary ? CaptureRing::Kind::Binary : CaptureRing::Kind::Text, receivedUs, data,
                         std::size_t(len)))
            m_ringDrops.add();
    }
    // Worker thread: an event line ({"event": name, ...fields}).
    void event(qint64 timeUs, const QString &name, const QJsonObject &fields = {});
    // Worker thread: an event line already written as JSON, at most maxEventBytes().
    void eventJson(qint64 timeUs, const QByteArray &json);
    std::size_t maxEventBytes() const { return m_ring.maxPayload(); }

    // Any thread.
    void setKeepMs(qint64 keepMs) { m_keepMs.store(keepMs, std::memory_order_relaxed); }
    // Asks the writer thread to write what is held to a new file in `dir`, named after the
    // stream and `wallUs`: "<stream>-flight-<UTC yyyyMMddTHHmmss>Z[_N].ndjson.zst". Returns the
    // file's path, which exists once the save is done (savedFiles() grows) or failed
    // (saveErrors() grows, status().error says why).
    QString requestSave(const QString &dir, qint64 wallUs);
    FlightStatus status() const;
    quint64 savedFiles() const { return m_saved.load(); }
    quint64 saveErrors() const { return m_saveErrors.load(); }
    void finish() override { m_finishing.store(true, std::memory_order_release); }

    // Writer thread.
    bool service(qint64 wallUs, qint64 steadyMs) override;
    bool done() const override { return m_done; }
    void close(qint64 wallUs, qint64 steadyMs) override;

private:
    // One record from the ring, as a line of the current chunk.
    void take(const CaptureRing::Record &r, qint64 steadyMs);
    // Compresses the text gathered so far into one chunk.
    void seal();
    // Charges the text not yet compressed to the budget (making room first).
    void chargePending();
    void writeSave(const QString &path, qint64 wallUs);
    QByteArray headerJson(qint64 wallUs) const;

    const CaptureRecorder::Identity m_identity;
    const std::shared_ptr<FlightBudget> m_budget;
    std::atomic<qint64> m_keepMs;
    CaptureRing m_ring;
    FlightChunkStore m_store;

    RelaxedCounter m_ringDrops;  // messages
    RelaxedCounter m_eventDrops; // events
    RelaxedCounter m_saved;
    RelaxedCounter m_saveErrors;
    std::atomic<quint64> m_pendingBytes{0}; // m_text's size, for status()
    std::atomic<bool> m_finishing{false};

    mutable QMutex m_mutex; // guards the fields below
    QStringList m_saveRequests;
    QString m_lastFile;
    QString m_error;

    // Writer thread only.
    std::string m_text; // formatted lines not yet compressed
    qint64 m_textFirstUs = 0;
    qint64 m_textLastUs = 0;
    quint64 m_textMessages = 0;
    qint64 m_chunkStartedMs = 0;
    bool m_attached = false;
    bool m_done = false;
};

} // namespace streamscope
