#pragma once

// The engine's public face. Lives on the thread that creates it (the GUI thread in the
// desktop app, the main thread headless); owns a pool of worker threads, each running the
// sessions of the streams assigned to it.
//
// Thread contract: every method is called on the Engine's own thread. Commands (add,
// remove, stop, restart, subscribe, send) are queued to the stream's worker and return at
// once; they take effect there immediately, whatever the stream is doing. snapshot() reads
// the lock-free statistics and may be called ten times a second at no cost to the workers.
// Signals are emitted on the Engine's thread, never once per message.

#include "BookDepth.h"
#include "InstrumentSymbol.h"
#include "StreamConfig.h"
#include "StreamRecords.h"
#include "StreamSnapshot.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QSet>
#include <QtCore/QVector>

#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace streamscope {

class CaptureRecorder;
class CaptureSink;
class CaptureWriter;
class FlightBudget;
class FlightRecorder;
class EngineWorker;
class StreamShared;

class Engine : public QObject {
    Q_OBJECT
public:
    struct Options {
        int workerCount = 0; // 0: one per core, at least 1, at most 8
        // Connection attempts under way at once over all streams (opened, not yet connected);
        // the others wait their turn (ConnectionPacer.h says why). 0: the default, 256.
        int maxConnectsInFlight = 0;
    };

    explicit Engine(QObject *parent = nullptr);
    explicit Engine(Options options, QObject *parent = nullptr);
    ~Engine() override; // stops every stream and joins the workers

    StreamId addStream(const StreamConfig &config);
    void removeStream(StreamId id);
    // Replaces a stream's configuration: the stream reconnects with it under the same id and
    // keeps its counters and latency histogram (the user guide promises so). A change only to
    // where its alerts are sent (`notify`, which the session does not read) is stored without
    // a reconnect; the same configuration again reconnects (Edit → OK restarts a stopped
    // stream, a secret changed behind the same reference is read again). Returns whether the
    // stream reconnects.
    bool updateStream(StreamId id, const StreamConfig &config);
    // Starts, changes or stops a stream's recording (docs/capture.md) without touching its
    // connection: the running session hands its messages to the new recorder from the next
    // one on, and the old recorder writes what it holds and closes.
    void setRecording(StreamId id, const RecordConfig &record);
    // The flight recorder (docs/capture.md, "Flight recorder"): on, every stream keeps its last
    // `minutes` compressed in memory within `memoryMb` over all streams; off, the history goes.
    // Turning it on or changing its settings keeps what is held.
    void setFlightRecorder(const FlightConfig &config);
    const FlightConfig &flightRecorder() const { return m_flight; }
    // Writes what the stream's flight recorder holds to a new capture file in the configured
    // folder (else `fallbackDir`, else the current folder), on the capture writer thread. Returns the file's
    // path at once (empty: the stream is unknown or the flight recorder is off); the stream's
    // snapshot (flight.savedFiles, flight.lastFile, flight.error) and an event tell when it is
    // written or why not.
    QString saveFlightRecording(StreamId id, const QString &fallbackDir = QString());
    // The flight recorder's memory over all streams.
    quint64 flightMemoryBytes() const;

    // Stop and restart act on the worker at once, even in the middle of a read of thousands of
    // messages: nothing is counted after stopStream() returns but the one message the worker may
    // be handling. Their result comes back as stateChanged() (docs/architecture.md, "A stream's
    // life").
    void stopStream(StreamId id);
    void restartStream(StreamId id);
    void stopAll();

    // Binance-style control messages; each returns the request id sent (0 if the stream is unknown).
    qint64 subscribe(StreamId id, const QStringList &streams);
    qint64 unsubscribe(StreamId id, const QStringList &streams);
    qint64 listSubscriptions(StreamId id);
    bool sendMessage(StreamId id, const QString &text);

    QList<StreamId> streamIds() const; // in the order they were added
    bool contains(StreamId id) const { return m_streams.contains(id); }
    StreamConfig config(StreamId id) const;
    int workerCount() const { return int(m_workers.size()); }

    // Versions of what the engine is built on, for an About box ("simdjson 3.0.1").
    static QString simdjsonVersion();

    QVector<StreamSnapshot> snapshot(bool withLatency = false) const;
    StreamSnapshot snapshot(StreamId id, bool withLatency = false) const;

    // What one poller has seen of the streams, for changedSnapshots(). One per poller.
    class SnapshotCursor {
    public:
        // When the last poll began: a stream it did not read was as its last reading then.
        qint64 takenAtNs() const { return m_takenAtNs; }
        int lastRead() const { return m_read; }                // readings the last poll made
        int lastUnchanged() const { return m_skipped; }        // streams it found unchanged
        int lastLatencyReads() const { return m_latencyRead; } // ... of them with latency
        // ... of them refreshed in place: their figures alone (changedSnapshots with `held`)
        int lastRefreshed() const { return m_refreshed; }
        void reset() { *this = SnapshotCursor(); }

    private:
        friend class Engine;
        struct Seen {
            quint64 messages = 0, changes = 0, details = 0; // the stream's stamp at its last reading
            bool withLatency = false;                       // that reading carried the latency histograms
            size_t side = 0;                                // its recording's and flight recorder's status
        };
        QHash<StreamId, Seen> m_seen;
        qint64 m_takenAtNs = 0;
        int m_read = 0;
        int m_skipped = 0;
        int m_latencyRead = 0;
        int m_refreshed = 0;
    };
    // The poll of many streams ten times a second: the readings of the streams that changed
    // since `cursor` last read them (new streams among them), in the order of streamIds(). A
    // stream left out reads as its last reading did, but for its time (cursor.takenAtNs()). A
    // stream that did not change is not copied: the poll compares two counters of its shared
    // block (a message count and a count of changes, which the worker's tick keeps: a figure
    // published on the tick shows to within a tick). `withLatency(id)`: whether the stream is
    // read with its latency histograms this time (then it is read if it changed since its last
    // reading with them), so that a poller can spread the histograms' cost over its polls.
    QVector<StreamSnapshot> changedSnapshots(SnapshotCursor &cursor,
                                             const std::function<bool(StreamId)> &withLatency) const;
    // The same with latency for every stream, or none.
    QVector<StreamSnapshot> changedSnapshots(SnapshotCursor &cursor, bool withLatency = false) const;
    // The same into `out`, cleared first: a poller that keeps `out` from one poll to the next
    // reuses its storage (a thousand readings are megabytes) instead of allocating it afresh.
    void changedSnapshots(SnapshotCursor &cursor, const std::function<bool(StreamId)> &withLatency,
                          QVector<StreamSnapshot> &out) const;
    // The same, refreshing in place the readings the poller keeps: `held(id)` is its last
    // reading of the stream from this cursor (nullptr: it has none). A stream whose details
    // (name, state and its reason, gaps, books, venue details, recording) did not change since
    // that reading gets its figures refreshed there (counters, clock, freshness, latency when
    // asked, instruments, last trades: StreamShared::refreshFigures), its strings and lists not
    // copied again, and its id appended to `refreshed`; any other changed stream is read whole
    // into `out`. At a thousand streams a tick this copies a few hundred bytes a stream instead
    // of whole readings, and allocates nothing.
    void changedSnapshots(SnapshotCursor &cursor, const std::function<bool(StreamId)> &withLatency,
                          const std::function<StreamSnapshot *(StreamId)> &held, QVector<StreamSnapshot> &out,
                          QList<StreamId> &refreshed) const;

    QVector<ResponseRecord> results(StreamId id) const;
    QVector<ResponseRecord> errors(StreamId id) const;

    // The inspector tap: while on, the stream keeps its last messages (config.inspectorCapacity)
    // and takeInspected() hands them over, oldest first.
    void setInspecting(StreamId id, bool on);
    QVector<InspectedMessage> takeInspected(StreamId id);

    // The depth ladder (docs/books.md): a copy of the top `levels` (at most BookDepth::kMaxLevels)
    // of a side of the stream's book of `instrument`, made on the stream's worker and handed back
    // as bookDepthReady() with the id returned here (0: no such stream, no answer comes). Only
    // what is asked for is copied: a few times a second while a ladder is shown.
    quint64 requestBookDepth(StreamId id, const QString &instrument, int levels);
    // One instrument across venues (docs/venues.md): the instruments, as normalised names
    // (InstrumentSymbol.h, resolved with `aliases`), whose last trade price the stream should
    // read from its trade messages, to be shown in its snapshot's lastTrades on the next ticks.
    // An empty set turns the reading off; an edit that replaces the stream's session keeps it.
    // A raw stream, one with its own latency_field, or a venue whose trades are not read
    // ignores it.
    void setLastTradeInstruments(StreamId id, const QSet<QString> &names, const InstrumentAliases &aliases);

signals:
    void bookDepthReady(const streamscope::BookDepth &depth);
    void streamAdded(streamscope::StreamId id);
    void streamRemoved(streamscope::StreamId id);
    void stateChanged(streamscope::StreamId id, streamscope::StreamState state, const QString &reason);
    void eventOccurred(const streamscope::StreamEvent &event);

private:
    struct Entry {
        std::shared_ptr<StreamShared> shared;
        EngineWorker *worker = nullptr;
        StreamConfig config;                       // as added or last edited; the session keeps its own copy
        std::shared_ptr<CaptureRecorder> recorder; // null unless the stream records
        std::shared_ptr<FlightRecorder> flight;    // null unless the flight recorder is on
        // The last trade prices wanted (setLastTradeInstruments), given again to a new session.
        QSet<QString> lastTradeNames;
        InstrumentAliases lastTradeAliases;
    };
    std::shared_ptr<CaptureRecorder> startRecorder(const StreamConfig &config);
    // After the worker dropped the session: the recorder writes what is left and closes.
    void finishRecorder(EngineWorker *worker, std::shared_ptr<CaptureSink> recorder);
    std::shared_ptr<FlightRecorder> startFlight(const StreamConfig &config);
    CaptureWriter &captureWriter();
    void onWorkerEvent(const streamscope::StreamEvent &event);
    void onBookDepth(const streamscope::BookDepth &depth);
    EngineWorker *leastLoadedWorker() const;
    qint64 sendControl(StreamId id, const QString &method, const QStringList &params);

    std::unique_ptr<CaptureWriter> m_captureWriter; // created with the first recording stream
    FlightConfig m_flight;
    std::shared_ptr<FlightBudget> m_flightBudget;
    std::vector<QThread *> m_threads;
    std::vector<EngineWorker *> m_workers;
    QHash<StreamId, Entry> m_streams;
    QList<StreamId> m_order;
    StreamId m_nextId = 1;
    quint64 m_nextDepthRequest = 1;
};

} // namespace streamscope
