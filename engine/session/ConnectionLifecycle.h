#pragma once

// One stream's connections over time: connect (its subscriptions split over several
// connections when one may not carry them all), reconnect with backoff, replace a connection
// make-before-break, watch them (connect timeout, dead connection and ping, data stall), and
// stop, restart and fail — including the stop and restart commands the facade leaves in the
// stream's shared block (StreamCommands), which the hot path may find first. It decides; its
// parts each keep one concern:
//   ConnectionGroup     the stream's connections (Link): find, retire, who takes new streams
//   ConnectionWatchdog  per connection: connect timeout; dead connection, ping due (websockets)
//   StallWatchdog       the stream's data freshness
//   OutgoingPacer       per connection: the outgoing queue under the venue's limit (flushed here)
//   ConnectAdmission    whether the configuration may connect, and when each attempt may
//                       begin: the venue's per-IP slot (ConnectionPacer, shared by the
//                       engine's streams), then a place among the attempts under way
//   MakeBeforeBreak     a rollover's replacement connection and its overlap de-duplication
//   ShardPlan           subscriptions spread over connections
//   Backoff             reconnect delays, exponential with full jitter
//   RequestTracker      requests awaiting their response (forgotten with the connections)
// and every venue rule to the stream's VenueHandler, called at its hooks.
//
// Every duration, deadline and watchdog is on the clock's monotonic time; the housekeeping tick
// and the reconnect and outbox timers all check deadlines against it, so a test can step the
// clock and call tick().
//
// Thread contract: the session's worker only. Transports and timers are made on it.

#include "Backoff.h"
#include "ConnectAdmission.h"
#include "ConnectionGroup.h"
#include "MakeBeforeBreak.h"
#include "RequestTracker.h"
#include "SessionStatus.h"
#include "StallWatchdog.h"
#include "TransportFactory.h"
#include "stats/StreamShared.h"

#include <QtCore/QObject>
#include <QtCore/QTimer>

#include <cstdint>
#include <optional>

namespace streamscope {

class BookKeeper;

class Clock;
class MessageRouter;
class ReceiveBuffer;
class TickObservers;
class VenueHandler;

class ConnectionLifecycle final : public QObject {
    Q_OBJECT
public:
    // `router` gets every connection's messages; it may be constructed after this object.
    ConnectionLifecycle(const StreamConfig &config, StreamShared &shared, const Clock &clock, ReceiveBuffer &buffer,
                        TransportFactory transports, VenueHandler &venue, SessionStatus &status,
                        TickObservers &observers, MessageRouter &router);

    // Commands.
    void start();
    void stop();
    void restart();
    // Whether the facade left a stop or restart not carried out yet (hot path: one relaxed load).
    bool commandPending() const { return m_shared.commands.word() != m_commandsSeen; }
    // Carries it out; returns whether there was one.
    bool runCommands();
    void setCommandsSeen(std::uint64_t word) { m_commandsSeen = word; }

    // What the venue or the hot path asks for.
    void fail(const QString &reason);
    void scheduleReconnect(const QString &reason);
    // Every connection goes at once, without a reconnect (a stop, a failure, the session's end).
    // The stream's order books (null: none), which start over when the connections go.
    void setBooks(BookKeeper *books) { m_books = books; }
    // Where connection attempts are paced under the venue's limit (the engine's, shared by its
    // streams); null: not paced. Set before start().
    void setConnectionPacer(std::shared_ptr<ConnectionPacer> pacer) { m_admission.setPacer(std::move(pacer)); }
    void dropConnections();
    // No data, or the venue's own alarm: Stalled, or a reconnect when configured so.
    void stalled(const QString &reason);
    // A make-before-break replacement of connection `linkId`.
    void rollOver(int linkId, const QString &reason);
    void advanceRollover(MakeBeforeBreak::Step step, const QString &why);
    // A data message says the stream is Live (or Degraded, as the venue says).
    void becomeLive(StreamState state, const QString &reason)
    {
        if (m_status.state() != state)
            changeLiveState(state, reason);
    }

    // The parts the hot path and the outgoing side use.
    ConnectionGroup &links() { return m_links; }
    MakeBeforeBreak &rollover() { return m_rollover; }
    StallWatchdog &stall() { return m_stall; }
    RequestTracker &requests() { return m_requests; }
    QStringList &subscriptions() { return m_subscriptions; } // re-sent after a reconnect
    // A new connection; it opens now, or when the venue's connection limit gives it a slot
    // (said in an event unless `quiet`: connectNow() says it once for all its connections).
    Link *openLink(int shard, const QStringList &streams, bool rollover, bool quiet = false);
    void flushOutbox(Link &link);
    void publishConnections();

    // Housekeeping. observe() first: what the hot path saw since the last tick counts as of
    // `nowMs`; returns whether data came. Then tick(): watchdogs, due reconnects and paced
    // messages, rollover progress, backoff reset.
    bool observe(qint64 nowMs);
    void tick(qint64 nowMs);
    // The stream's unread bytes now: every connection's socket buffer and kernel queue (-1 unknown).
    qint64 unreadBytes() const;

private:
    void connectNow();
    void onReconnectDue();
    void onLinkConnected(Link &link);
    void onLinkDisconnected(Link &link, int closeCode, const QString &reason);
    void finishRollover(const QString &why);
    void abandonRollover(const QString &why);
    void linkLost(Link &link, const QString &why);
    void changeLiveState(StreamState state, const QString &reason);

    const StreamConfig &m_config;
    StreamShared &m_shared;
    const Clock &m_clock;
    ReceiveBuffer &m_buffer;
    TransportFactory m_transports;
    VenueHandler &m_venue;
    BookKeeper *m_books = nullptr;
    SessionStatus &m_status;
    TickObservers &m_observers;
    MessageRouter &m_router;
    ConnectAdmission m_admission;

    ConnectionGroup m_links;
    MakeBeforeBreak m_rollover;
    StallWatchdog m_stall;
    RequestTracker m_requests;
    Backoff m_backoff;
    QTimer m_reconnectTimer;
    std::optional<qint64> m_reconnectAtMs; // monotonic
    qint64 m_connectStartedMs = 0;
    std::optional<qint64> m_liveSinceMs; // monotonic
    QStringList m_subscriptions;         // Binance streams subscribed now
    std::uint64_t m_commandsSeen = 0;    // the StreamShared::commands word last carried out
};

} // namespace streamscope
