#pragma once

// One stream's life on its worker thread: connect, subscribe, receive, route, decode,
// count; reconnect with backoff; stop and restart at once on command. The session runs the
// state machine and the hot path and delegates each other concern to a class of its own:
//   ConnectionGroup     the stream's connections (Link): find, retire, who takes new streams
//   ConnectionWatchdog  per connection: connect timeout; dead connection, ping due (websockets)
//   StallWatchdog       the stream's data freshness
//   OutgoingPacer       per connection: the outgoing queue under the venue's limit
//   MakeBeforeBreak     a rollover's replacement connection and its overlap de-duplication
//   ShardPlan           subscriptions spread over connections
//   RequestTracker      responses matched to their requests
//   EventThrottle       at most ten events of a kind a second
// and every venue rule (Binance, Betfair) to its VenueHandler (engine/venues/), called at
// the session's hooks.
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

#include "Backoff.h"
#include "Backpressure.h"
#include "Clock.h"
#include "ClockTracker.h"
#include "ConnectionGroup.h"
#include "EventThrottle.h"
#include "EventTypeTracker.h"
#include "LatencyTrend.h"
#include "MakeBeforeBreak.h"
#include "RequestTracker.h"
#include "SilenceLearner.h"
#include "StallWatchdog.h"
#include "TransportFactory.h"
#include "model/StreamConfig.h"
#include "model/StreamRecords.h"
#include "protocol/HeadScanner.h"
#include "venues/VenueHandler.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QTimer>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace streamscope {

class CaptureRecorder;
class FlightRecorder;
class MessageDecoder;
class ServerTimeService;
class SessionEvents;
class StreamShared;
class WorkerLoad;
class VenueHandler;
struct DecodedFields;

class StreamSession final : public QObject, private VenueHost {
    Q_OBJECT
public:
    StreamSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config, MessageDecoder &decoder,
                  SessionEvents &events, const Clock &clock = SystemClock::instance(),
                  TransportFactory transports = networkTransports(), QObject *parent = nullptr);
    ~StreamSession() override;

    StreamId id() const;
    StreamState state() const { return m_state; }

    // Commands (worker thread).
    void start();
    // `upTo`: the stops asked for through StreamShared::stopsRequested that this one carries
    // out (0: none; a stop the worker decides itself).
    void stop(std::uint64_t upTo = 0);
    void restart();
    void sendControl(const QString &method, const QStringList &params, qint64 requestId);
    void sendRaw(const QString &text);
    // Records the stream's messages and events from now on (null: stops). Its messages carry
    // the receive time the hot path reads anyway; events are recorded where they happen.
    void setRecorder(std::shared_ptr<CaptureRecorder> recorder);
    // Keeps the stream's last minutes in the flight recorder from now on (null: stops); it
    // is fed like a recorder, through its own ring (docs/capture.md, "Flight recorder").
    void setFlightRecorder(std::shared_ptr<FlightRecorder> flight);

    // Where the venue's server time is asked (docs/clock.md): the worker's shared probes. Set
    // before start(); without it the offset comes from the latency floor only.
    void setServerTimeService(ServerTimeService *service) { m_serverTime = service; }
    // The worker's busy share, which tells "we are slow" from "the venue is late" when the
    // stream falls behind (docs/freshness.md). Without it the cause is unknown.
    void setWorkerLoad(const WorkerLoad *load) { m_workerLoad = load; }

    // Housekeeping, a few times a second: watchdogs, due reconnects and paced messages,
    // rollover progress, backoff reset.
    void tick();

private:
    friend struct Link;

    // VenueHost.
    void sendOn(int link, const QString &text, const QString &method, const QString &requestId) override;
    void venueEvent(EventKind kind, const QString &text) override;
    void venueFailed(const QString &reason) override;
    void venueReconnect(const QString &reason) override;
    void venueStalled(const QString &reason) override;
    void rollOver(int link, const QString &reason) override;
    StreamShared &shared() override { return *m_shared; }
    qint64 monotonicMs() const override { return m_clock.monotonicMs(); }
    qint64 wallMs() const override { return m_clock.wallMs(); }

    void applyConfig(const StreamConfig &config);
    void startServerTime();
    QUrl serverTimeUrl() const; // the stream's own, else its venue's; empty: none
    void checkFreshness(qint64 nowMs, bool dataSinceLastTick);
    qint64 unreadBytes() const;

    // Hot path.
    void onLinkMessage(Link &link, const char *data, qsizetype len, bool inScratch, bool binary = false);
    qsizetype headBytes(qsizetype len) const;
    bool onLinkHead(Link &link, const char *head, qsizetype headLen, qsizetype len);
    void handleMessage(Link &link, const char *data, qsizetype len, qsizetype available, bool inScratch,
                       const HeadInfo &head, bool binary = false, const DecodedFields *decodedHead = nullptr);
    void handleData(Link &link, const char *data, qsizetype len, bool inScratch, const HeadInfo &head, qint64 nowUs,
                    double &latencyMs, const DecodedFields *decodedHead);
    void becomeLive(StreamState state, const QString &reason);
    void onHeartbeatMessage(const DecodedFields *fields);
    void routeResponse(Link &link, const HeadInfo &head, const char *data, qsizetype len);
    void onDataDecodeFailed(const char *data, qsizetype len);
    void advanceRollover(MakeBeforeBreak::Step step, const QString &why);

    // Connections.
    void connectNow();
    void onReconnectDue();
    Link *openLink(int shard, const QStringList &streams, bool rollover);
    void onLinkConnected(Link &link);
    void onLinkDisconnected(Link &link, int closeCode, const QString &reason);
    void finishRollover(const QString &why);
    void abandonRollover(const QString &why);
    void linkLost(Link &link, const QString &why);
    void publishConnections();
    void flushOutbox(Link &link);
    void scheduleReconnect(const QString &reason);
    void dropConnection();

    // State and events.
    void setState(StreamState state, const QString &reason, qint64 nextRetryAtWallMs = 0);
    void fail(const QString &reason);
    void emitEvent(EventKind kind, const QString &text, int closeCode = 0);
    // A capture event line, when recording (docs/capture.md).
    void record(const QString &name, const QJsonObject &fields);

    std::shared_ptr<StreamShared> m_shared;
    StreamConfig m_config;
    MessageDecoder &m_decoder;
    SessionEvents &m_events;
    const Clock &m_clock;
    TransportFactory m_transports;
    std::unique_ptr<VenueHandler> m_venue;
    std::shared_ptr<CaptureRecorder> m_recorder; // null unless the stream records
    quint64 m_recordErrorsSeen = 0;              // the recorder's errors already told as events
    std::shared_ptr<FlightRecorder> m_flight;    // null unless the flight recorder is on
    quint64 m_flightSavesSeen = 0;               // its saves and save errors already told as events
    quint64 m_flightErrorsSeen = 0;

    ConnectionGroup m_links;
    MakeBeforeBreak m_rollover;
    StallWatchdog m_stall;
    RequestTracker m_requests;
    EventThrottle m_throttle;
    ClockTracker m_clockTrack;
    ServerTimeService *m_serverTime = nullptr;
    SilenceLearner m_silence;
    LatencyTrend m_trend;
    bool m_trendCorrected = false; // which histogram the trend follows
    const WorkerLoad *m_workerLoad = nullptr;
    std::optional<qint64> m_wallMinusMonotonicMs; // a change of more than kWallStepMs is a step
    Backoff m_backoff;
    QTimer m_reconnectTimer;
    std::optional<qint64> m_reconnectAtMs; // monotonic

    StreamState m_state = StreamState::Idle;
    std::uint64_t m_stopsHandled = 0; // of m_shared->stopsRequested
    std::string m_latencyPointer;
    double m_usPerUnit = 1000.0;
    // Event times outside these (in the stream's unit: 2000-01-01 to 2100-01-01) are no
    // plausible time: counted as invalid, never a latency.
    std::int64_t m_minEventTime = 0;
    std::int64_t m_maxEventTime = 0;
    bool m_parsed = true;
    HeadScanner::Heartbeats m_heartbeats = HeadScanner::Heartbeats::Find;
    VenueHandler::RawNotice m_rawNotice;

    qint64 m_connectStartedMs = 0;
    std::optional<qint64> m_liveSinceMs; // monotonic

    QStringList m_subscriptions; // Binance streams subscribed now; re-sent after a reconnect

    // Last: large (the event table's spacings), kept away from the members above that every
    // message reads.
    int m_trendSource = 0;         // the stream's latency, its non-periodic types' (0, 1); periodic: none (2)
    EventTypeTracker m_eventTypes; // periodic streams, latency per event type
    bool m_namesPeriodic = false;  // every stream name the configuration asks for is periodic
    BackpressureMeter m_backpressure;
};

} // namespace streamscope
