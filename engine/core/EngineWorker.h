#pragma once

// One engine worker thread's object: owns the sessions of the streams assigned to it, the
// receive buffer their transports fill and the simdjson parser that reads it (one message at
// a time on this thread, so all its sessions share them), and one housekeeping timer that
// drives every session's watchdogs (stall, dead connection, ping, backoff reset).
//
// Thread contract: constructed on the Engine's thread, then moved to its QThread; every
// other method runs on that thread (the Engine calls them through queued invocations).
// publish() emits eventOccurred, which the Engine receives queued on its own thread.

#include "ThreadHandOff.h"
#include "model/BookDepth.h"
#include "model/InstrumentSymbol.h"
#include "model/StreamConfig.h"
#include "model/StreamRecords.h"
#include "protocol/MessageDecoder.h"
#include "session/ConnectionPacer.h"
#include "session/ServerTimeService.h"
#include "session/SessionEvents.h"
#include "session/WorkerLoad.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QSet>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

class QTimer;

namespace streamscope {

class CaptureRecorder;
class FlightRecorder;
class StreamSession;
class StreamShared;

class EngineWorker final : public QObject, public SessionEvents {
    Q_OBJECT
public:
    // `connectPacer`: the venues' connection limits, shared with the engine's other workers.
    explicit EngineWorker(std::shared_ptr<ConnectionPacer> connectPacer = std::make_shared<ConnectionPacer>());
    ~EngineWorker() override;

    // Any thread: runs fn on this worker's thread, in the order posted. Tasks travel through
    // a mutex-guarded queue and Qt's event queue only carries the wake-up, so that
    // ThreadSanitizer sees the hand-over (Qt's queue synchronises with futexes it cannot see).
    void post(std::function<void()> fn);

    void init();     // on the worker thread, once, right after the thread starts
    void shutdown(); // on the worker thread: every session closed and deleted

    // `recorder`: the stream records (null: it does not); `flight`: its flight recorder.
    // `commandsBefore`: the stream's StreamCommands word when the facade asked for this session
    // (a session that replaces another carries out only the commands asked for after that);
    // the session starts unless a later command says otherwise.
    void addSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config,
                    std::shared_ptr<CaptureRecorder> recorder = nullptr,
                    std::shared_ptr<FlightRecorder> flight = nullptr, std::uint64_t commandsBefore = 0);
    void removeSession(StreamId id);
    // The session's recorder from now on (null: it stops recording); its connection stays.
    void setRecorder(StreamId id, std::shared_ptr<CaptureRecorder> recorder);
    // The session's flight recorder from now on (null: none); its connection stays.
    void setFlightRecorder(StreamId id, std::shared_ptr<FlightRecorder> flight);
    // The facade's wake-up after it left a stop or restart in the stream's shared block
    // (StreamCommands.h): the session carries it out, unless its hot path already did.
    void runCommands(StreamId id);
    void sendControl(StreamId id, const QString &method, const QStringList &params, qint64 requestId);
    void sendRaw(StreamId id, const QString &text);
    // Copies the top `levels` of one of the stream's books and emits bookDepthReady (an answer
    // with found = false when the stream or its book is not there).
    void copyBookDepth(StreamId id, const QString &instrument, int levels, quint64 requestId);
    // The instruments whose last trade price the comparison across venues wants from the
    // stream (StreamSession::setLastTradeInstruments).
    void setLastTradeInstruments(StreamId id, const QSet<QString> &names, const InstrumentAliases &aliases);

    void publish(const StreamEvent &event) override
    {
        handOffRelease(&kEventHandOffToken);
        emit eventOccurred(event);
    }

    // Streams assigned to this worker; read by the Engine to balance the load.
    int load() const { return m_load.load(std::memory_order_relaxed); }
    void addLoad(int delta) { m_load.fetch_add(delta, std::memory_order_relaxed); }

signals:
    void eventOccurred(const streamscope::StreamEvent &event);
    void bookDepthReady(const streamscope::BookDepth &depth);

private:
    Q_INVOKABLE void runPosted();
    void onTick();

    ReceiveBuffer m_buffer;
    MessageDecoder m_decoder;
    ServerTimeService m_serverTime; // the server-time probes its sessions share
    std::shared_ptr<ConnectionPacer> m_connectPacer;
    WorkerLoad m_busy; // this thread's busy share, sampled on the tick
    QHash<StreamId, StreamSession *> m_sessions;
    QTimer *m_tick = nullptr;
    std::atomic<int> m_load{0};
    std::mutex m_postedMutex;
    std::vector<std::function<void()>> m_posted;
};

} // namespace streamscope
