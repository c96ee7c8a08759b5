#pragma once

// What one stream's session watches on the housekeeping tick beyond its connections: the
// venue's clock, freshness beyond "messages arrive", backpressure and the cadence of its event
// types (docs/clock.md, docs/freshness.md). Each concern is a class of its own:
//   ClockTracker        the offset to the venue's clock: the latency floor (LatencyFloor) and
//                       the server time (ServerTimeProbe, shared per worker and URL by
//                       ServerTimeService); the corrected latency's offset
//   SilenceLearner      a silence well beyond the stream's learned usual gap
//   LatencyTrend        latency that keeps growing while messages flow, and whether the worker
//                       (WorkerLoad) or the venue is the cause
//   EventTypeTracker    per event type: its latency, which types are periodic, their cadence
//   BackpressureMeter   unread bytes (each transport's unreadBytes()) and the time one message
//                       in 64 takes
//   InstrumentWatch     each instrument's own cadence in a stream whose messages name theirs,
//                       and which went quiet while the others speak
// The hot path feeds the clock tracker, the event types, the backpressure meter and the
// instruments (a compare, a table slot, a countdown, a hash lookup); everything else, the choices and the events they cause, happens
// here on the tick. A step of the wall clock (a change of wall − monotonic time between two ticks
// beyond a second) starts the figures that span it over.
//
// Thread contract: the session's worker only.

#include "Backpressure.h"
#include "ClockTracker.h"
#include "EventTypeTracker.h"
#include "InstrumentWatch.h"
#include "LatencyTrend.h"
#include "SilenceLearner.h"

#include <QtCore/QUrl>

#include <memory>
#include <optional>

namespace streamscope {

class Clock;
class ServerTimeService;
class SessionStatus;
class StreamShared;
class VenueHandler;
class WorkerLoad;
struct StreamConfig;

class TickObservers {
public:
    TickObservers(const StreamConfig &config, StreamShared &shared, const Clock &clock, VenueHandler &venue,
                  SessionStatus &status);

    // Where the venue's server time is asked (docs/clock.md); without it the offset comes from
    // the latency floor only.
    void setServerTimeService(ServerTimeService *service) { m_serverTime = service; }
    // The worker's busy share, which tells "we are slow" from "the venue is late".
    void setWorkerLoad(const WorkerLoad *load) { m_workerLoad = load; }

    // What the hot path feeds.
    ClockTracker &clock() { return m_clockTrack; }
    EventTypeTracker &eventTypes() { return m_eventTypes; }
    BackpressureMeter &backpressure() { return m_backpressure; }
    // Null when the stream's messages name no instrument (InstrumentWatch::wanted()).
    InstrumentWatch *instruments() { return m_instruments.get(); }

    // The stream is about to connect: a stream that will ask for the server time starts the
    // worker's network thread now (ServerTimeService says why).
    void starting();
    // The stream is up again after a connect or reconnect: the figures that belong to a
    // connection start over, and the server-time probe starts (kept across reconnects).
    void connected(qint64 nowMs);
    // Stopped or failed: the server-time probe goes.
    void stopped();

    // On the tick: `dataSinceLastTick` from the stall watchdog, `unreadBytes` the stream's
    // unread bytes now (-1 unknown).
    void tick(qint64 nowMs, bool dataSinceLastTick, qint64 unreadBytes);

private:
    // Which latency the trend follows: the stream's, the non-periodic event types' (a stream
    // that mixes them with periodic ones), or none (a periodic stream).
    enum class TrendSource : quint8 { Unknown = 0, Stream, NonPeriodicTypes, None };

    void checkFreshness(qint64 nowMs, bool dataSinceLastTick, qint64 unreadBytes);
    void watchInstruments(qint64 nowMs);
    QUrl serverTimeUrl() const; // the stream's own, else its venue's; empty: none

    const StreamConfig &m_config;
    StreamShared &m_shared;
    const Clock &m_clock;
    VenueHandler &m_venue;
    SessionStatus &m_status;
    ServerTimeService *m_serverTime = nullptr;
    const WorkerLoad *m_workerLoad = nullptr;
    ClockTracker m_clockTrack;
    SilenceLearner m_silence;
    LatencyTrend m_trend;
    TrendSource m_trendSource = TrendSource::Unknown;
    bool m_trendCorrected = false; // the trend follows the corrected latency
    bool m_namesPeriodic = false;  // every stream name the configuration asks for is periodic
    std::optional<qint64> m_wallMinusMonotonicMs;
    BackpressureMeter m_backpressure;
    std::unique_ptr<InstrumentWatch> m_instruments;
    // Last: large (the event table's spacings).
    EventTypeTracker m_eventTypes;
};

} // namespace streamscope
