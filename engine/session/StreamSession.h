#pragma once

// One stream's life on its worker thread: connect, subscribe, receive, route, decode, count;
// reconnect with backoff; stop and restart at once on command. The session owns the parts
// that do this, each one concern, and is the VenueHost its venue handler calls:
//   MessageRouter        the hot path: every message in (count, route, decode, record)
//   ConnectionLifecycle  connect, backoff, rollover, watchdogs; stop, restart, fail and the
//                        facade's commands (it holds ConnectionGroup, ConnectionWatchdog,
//                        StallWatchdog, MakeBeforeBreak, ShardPlan, Backoff, RequestTracker)
//   OutgoingControl      what the stream sends: control requests over its connections, raw
//                        messages, the venue's requests (OutgoingPacer per connection)
//   TickObservers        on the tick: the venue's clock (ClockTracker), freshness
//                        (SilenceLearner, LatencyTrend), cadence (EventTypeTracker),
//                        backpressure (BackpressureMeter)
//   SessionStatus        the state and the events (EventThrottle), the capture event lines
//   SessionRecorders     the capture and flight recorders
//   BookKeeper           the order books, on a depth stream that keeps them
//   LastTradeKeeper      the last trade prices the cross-venue comparison asked for
// and every venue rule (Binance, Betfair) to its VenueHandler (engine/venues/).
//
// A stream may hold several connections ("links"): one per shard of its subscriptions
// when it has more than one connection may carry, plus, during a rollover, the replacement
// of one shard. All links count into the one stream; the snapshot lists them as the
// stream's connection group.
//
// State machine: Idle → Connecting → Subscribing → Live ⇄ Stalled → Reconnecting → … ;
// Live ⇄ Degraded (venue says stale); any → Stopped (user); any → Failed (configuration or
// authentication errors).
//
// Time: every duration, deadline and watchdog is on the injected clock's monotonic time;
// its wall time serves only latency (receive time − event time, read for every message so
// that a step of the wall clock is in the very next figure) and the times shown to people.
// The housekeeping tick (EngineWorker, 100 ms) and the session's own timers both check
// deadlines against the clock, so a test can step the clock and call tick().
//
// Thread contract: created, driven and destroyed on one worker thread. Publishes
// statistics through StreamShared (lock-free) and events through SessionEvents.

#include "Clock.h"
#include "ConnectionLifecycle.h"
#include "MessageRouter.h"
#include "OutgoingControl.h"
#include "SessionRecorders.h"
#include "SessionStatus.h"
#include "TickObservers.h"
#include "TransportFactory.h"
#include "model/InstrumentSymbol.h"
#include "model/StreamConfig.h"
#include "venues/VenueHost.h"

#include <QtCore/QObject>
#include <QtCore/QSet>

#include <memory>

namespace streamscope {

class BookKeeper;
struct BookDepth;
class LastTradeKeeper;
class CaptureRecorder;
class FlightRecorder;
class MessageDecoder;
class ReceiveBuffer;
class ServerTimeService;
class SessionEvents;
class StreamShared;
class VenueHandler;
class WorkerLoad;

class StreamSession final : public QObject, private VenueHost {
    Q_OBJECT
public:
    // `buffer` and `decoder`: the worker's, shared by its sessions (one message at a time).
    StreamSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config, ReceiveBuffer &buffer,
                  MessageDecoder &decoder, SessionEvents &events, const Clock &clock = SystemClock::instance(),
                  TransportFactory transports = networkTransports(), QObject *parent = nullptr);
    ~StreamSession() override;

    // The stream's order books (docs/books.md); null when it keeps none. For tests and the
    // worker's own readers.
    const BookKeeper *books() const { return m_books.get(); }
    StreamId id() const;
    StreamState state() const { return m_status.state(); }

    // Commands (worker thread).
    void start() { m_lifecycle.start(); }
    void stop() { m_lifecycle.stop(); }
    void restart() { m_lifecycle.restart(); }
    // Carries out the stop or restart the facade left in StreamShared::commands, if it is new
    // (StreamCommands.h); the hot path does so at the next message. Returns whether there was one.
    bool runCommands() { return m_lifecycle.runCommands(); }
    // The commands word already carried out (by default the word when the session was made).
    void setCommandsSeen(std::uint64_t word) { m_lifecycle.setCommandsSeen(word); }
    void sendControl(const QString &method, const QStringList &params, qint64 requestId)
    {
        m_outgoing.sendControl(method, params, requestId);
    }
    void sendRaw(const QString &text) { m_outgoing.sendRaw(text); }
    // The depth ladder's copy of one book's top levels (BookKeeper::copyDepth); false when the
    // stream keeps no book of that instrument.
    bool copyBookDepth(const QString &instrument, int levels, BookDepth &out) const;
    // The instruments (normalised names, resolved with `aliases`) whose last trade price the
    // comparison across venues wants from this stream (LastTradeKeeper); none: nothing is read.
    // A raw stream, or a venue whose trades the engine cannot read, ignores it.
    void setLastTradeInstruments(const QSet<QString> &names, const InstrumentAliases &aliases);
    // Records the stream's messages and events from now on (null: stops). Its messages carry
    // the receive time the hot path reads anyway; events are recorded where they happen.
    void setRecorder(std::shared_ptr<CaptureRecorder> recorder);
    // Keeps the stream's last minutes in the flight recorder from now on (null: stops); it
    // is fed like a recorder, through its own ring (docs/capture.md, "Flight recorder").
    void setFlightRecorder(std::shared_ptr<FlightRecorder> flight);

    // Where the venue's server time is asked (docs/clock.md): the worker's shared probes. Set
    // before start(); without it the offset comes from the latency floor only.
    // The same service's network access manager fetches the order books' snapshots and serves
    // the venue's own REST calls (VenueHost::networkManager).
    void setServerTimeService(ServerTimeService *service);
    // Where connection attempts wait under the venue's per-IP limit (the engine's, shared by
    // its streams; ConnectionPacer). Set before start(); without it attempts are not paced.
    void setConnectionPacer(std::shared_ptr<ConnectionPacer> pacer)
    {
        m_lifecycle.setConnectionPacer(std::move(pacer));
    }
    // The worker's busy share, which tells "we are slow" from "the venue is late" when the
    // stream falls behind (docs/freshness.md). Without it the cause is unknown.
    void setWorkerLoad(const WorkerLoad *load) { m_observers.setWorkerLoad(load); }

    // Housekeeping, a few times a second: the recorders' news, watchdogs, due reconnects and
    // paced messages, rollover progress, backoff reset, the observers.
    void tick();

private:
    // VenueHost.
    void sendOn(int link, const QString &text, const QString &method, const QString &requestId) override;
    void venueEvent(EventKind kind, const QString &text) override;
    void venueFailed(const QString &reason) override;
    void venueReconnect(const QString &reason) override;
    void venueStalled(const QString &reason) override;
    void rollOver(int link, const QString &reason) override;
    StreamShared &shared() override { return *m_shared; }
    void booksLost(const QStringList &instruments, const QString &reason) override;
    void bookDepth(const QString &instrument, int levels) override;
    qint64 monotonicMs() const override { return m_clock.monotonicMs(); }
    qint64 wallMs() const override { return m_clock.wallMs(); }
    QNetworkAccessManager *networkManager() override;

    // In the order they are made: each part refers to those before it (the lifecycle also to
    // the router, which only its connections call, once it exists).
    std::shared_ptr<StreamShared> m_shared;
    const StreamConfig m_config;
    const Clock &m_clock;
    SessionRecorders m_recorders;
    SessionStatus m_status;
    std::unique_ptr<VenueHandler> m_venue;
    TickObservers m_observers;
    ConnectionLifecycle m_lifecycle;
    OutgoingControl m_outgoing;
    MessageRouter m_router;
    // The stream's order books (docs/books.md); null when it keeps none.
    std::unique_ptr<BookKeeper> m_books;
    // The last trade prices compared across venues; null until some are wanted.
    std::unique_ptr<LastTradeKeeper> m_trades;
    ServerTimeService *m_serverTime = nullptr; // its network access manager serves the venue's REST calls
};

} // namespace streamscope
