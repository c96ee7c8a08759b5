#include "TickObservers.h"

#include "Clock.h"
#include "DurationText.h"
#include "ServerTimeService.h"
#include "SessionStatus.h"
#include "WorkerLoad.h"
#include "platform/TlsConfiguration.h"
#include "stats/StreamShared.h"
#include "venues/VenueHandler.h"

namespace streamscope {

namespace {
// A change of wall − monotonic time between two ticks beyond this is a step of the wall clock
// (NTP, a user, a resumed VM), not a slew: figures taken across it start over.
constexpr qint64 kWallStepMs = 1000;
} // namespace

TickObservers::TickObservers(const StreamConfig &config, StreamShared &shared, const Clock &clock, VenueHandler &venue,
                             SessionStatus &status)
    : m_config(config)
    , m_shared(shared)
    , m_clock(clock)
    , m_venue(venue)
    , m_status(status)
    , m_clockTrack(shared.clock)
    , m_namesPeriodic(EventTypeTracker::allPeriodic(EventTypeTracker::streamNames(config.url, config.subscribe)))
    , m_eventTypes(shared.freshness)
{
    if (InstrumentWatch::wanted(config, venue.decodeSpec()))
        m_instruments = std::make_unique<InstrumentWatch>();
}

QUrl TickObservers::serverTimeUrl() const
{
    return m_config.serverTimeUrl.isEmpty() ? m_venue.serverTimeUrl() : m_config.serverTimeUrl;
}

void TickObservers::starting()
{
    if (m_serverTime && !serverTimeUrl().isEmpty())
        m_serverTime->init();
}

void TickObservers::connected(qint64 nowMs)
{
    m_silence.connected(nowMs);
    m_trend.reset();
    m_eventTypes.reconnected();
    m_backpressure.reset();
    if (m_instruments)
        m_instruments->connected(nowMs);
    // The server-time probe: the stream's own server_time_url, else its venue's endpoint; the
    // answers read in the venue's shape.
    if (!m_serverTime || m_clockTrack.hasProbe())
        return;
    const QUrl url = serverTimeUrl();
    if (url.isEmpty())
        return;
    QString tlsError;
    const QSslConfiguration tls = tlsConfiguration(m_config, &tlsError);
    m_clockTrack.setProbe(m_serverTime->probe(url, m_venue.serverTimeReader(), tls, m_config.caFile));
}

void TickObservers::stopped()
{
    m_clockTrack.setProbe(nullptr);
}

void TickObservers::tick(qint64 nowMs, bool dataSinceLastTick, qint64 unreadBytes)
{
    const qint64 wallMinusMono = m_clock.wallMs() - nowMs;
    if (m_wallMinusMonotonicMs && qAbs(wallMinusMono - *m_wallMinusMonotonicMs) > kWallStepMs) {
        m_trend.reset();
        m_clockTrack.wallStepped();
    }
    m_wallMinusMonotonicMs = wallMinusMono;
    checkFreshness(nowMs, dataSinceLastTick, unreadBytes);
    if (m_instruments)
        watchInstruments(nowMs);
    if (const QString note = m_clockTrack.tick(nowMs); !note.isEmpty())
        m_status.emitEvent(EventKind::Info, note);
}

// Each instrument's own silence (docs/freshness.md, "Instruments that go quiet"): published when
// it changed, an event when one goes quiet or speaks again (names are InstrumentIndex's: safe).
void TickObservers::watchInstruments(qint64 nowMs)
{
    const StreamState state = m_status.state();
    const bool live = state == StreamState::Live || state == StreamState::Degraded;
    if (!m_instruments->tick(nowMs, live))
        return;
    const QVector<InstrumentStatus> list = m_instruments->statuses();
    for (const InstrumentWatch::Change &c : m_instruments->changes()) {
        const QString &name = list.at(c.index).instrument;
        if (c.stale && m_status.allow(EventKind::Stalled))
            m_status.emitEvent(
                EventKind::Stalled,
                QStringLiteral("instrument %1 stale: silent for %2 while the others speak, well beyond "
                               "its usual gap of %3 (stale past %4)")
                    .arg(name, secondsText(c.silentMs), secondsText(c.usualGapMs), secondsText(c.thresholdMs)));
        else if (!c.stale && c.silentMs == 0 && m_status.allow(EventKind::Info))
            m_status.emitEvent(EventKind::Info, QStringLiteral("instrument %1 speaks again").arg(name));
    }
    m_shared.setInstruments(list, m_instruments->untracked());
}

// Freshness beyond "messages arrive" (docs/freshness.md): a silence well beyond the stream's
// learned usual gap, and latency that keeps growing while messages flow.
void TickObservers::checkFreshness(qint64 nowMs, bool dataSinceLastTick, qint64 unreadBytes)
{
    FreshnessShared &out = m_shared.freshness;
    if (dataSinceLastTick)
        m_silence.onData(nowMs);
    const StreamState state = m_status.state();
    if (state == StreamState::Live || state == StreamState::Degraded) {
        const SilenceLearner::Verdict v = m_silence.check(nowMs);
        if (v.alarm) {
            out.silenceAlarms.add();
            m_status.emitEvent(
                EventKind::Stalled,
                QStringLiteral("silent for %1, well beyond its usual gap of %2 (alarm past %3)")
                    .arg(secondsText(v.silentMs), secondsText(v.usualGapMs), secondsText(v.thresholdMs)));
        }
    }
    out.usualGapMs.store(m_silence.usualGapMs().value_or(-1));

    const double busy = m_workerLoad ? m_workerLoad->busyShare() : -1.0;
    out.setBusyShare(busy);
    const BackpressureMeter::Figures backlog = m_backpressure.tick(nowMs, unreadBytes);
    out.unreadBytes.store(backlog.unreadBytes);
    out.unreadBytesPeak.store(backlog.unreadBytesPeak);
    out.processingUs.store(backlog.processingUs);

    // Periodic streams stay out of the trend; a stream that mixes periodic and other event
    // types follows the others' raw latency (docs/freshness.md, "Periodic streams").
    m_eventTypes.setStreamPeriodic(m_namesPeriodic || m_shared.venue.conflateMs.load() > 0);
    m_eventTypes.tick(nowMs);
    const TrendSource source = m_eventTypes.streamPeriodic() ? TrendSource::None
        : m_eventTypes.mixed()                               ? TrendSource::NonPeriodicTypes
                                                             : TrendSource::Stream;
    // The trend follows the corrected latency once there is one (raw latencies below zero are
    // not in the raw histogram's sum), and starts over when that changes.
    const bool corrected = m_clockTrack.correcting() && source == TrendSource::Stream;
    if (corrected != m_trendCorrected || source != m_trendSource) {
        m_trendCorrected = corrected;
        m_trendSource = source;
        m_trend.reset();
    }
    const bool follows = source != TrendSource::None;
    const LatencyHistogram &h = corrected ? m_shared.latencyCorrected : m_shared.latency;
    std::uint64_t count = h.count();
    std::uint64_t sumUs = h.sumUs();
    if (source == TrendSource::NonPeriodicTypes)
        m_eventTypes.nonPeriodicTotals(count, sumUs);
    const LatencyTrend::Change change = follows ? m_trend.tick(nowMs, count, sumUs) : LatencyTrend::Change::None;
    out.trendMsPerS.store(follows ? m_trend.slopeMsPerS() : 0.0);
    out.fallingBehind.store(follows && m_trend.behind());
    if (!follows && m_trend.behind()) {
        // It became periodic (a conflation echoed) while behind: no longer a latency alarm.
        m_trend.reset();
        out.cause.store(int(BehindCause::None));
    }
    if (change == LatencyTrend::Change::Started) {
        // Bytes piling up unread in the socket say "we are slow" even when the busy share
        // (a lower bound under CPU contention) does not.
        const BehindCause cause = backlog.backedUp ? BehindCause::WeAreSlow
            : busy < 0                             ? BehindCause::Unknown
            : busy >= 0.9                          ? BehindCause::WeAreSlow
                                                   : BehindCause::VenueLate;
        out.cause.store(int(cause));
        out.fallingBehindAlarms.add();
        const QString why = cause == BehindCause::WeAreSlow && backlog.backedUp
            ? QStringLiteral("we are slow: %1 KiB wait unread in the socket (worker busy %2 %)")
                  .arg(backlog.unreadBytes / 1024)
                  .arg(busy < 0 ? QStringLiteral("?") : QString::number(qRound(busy * 100)))
            : cause == BehindCause::WeAreSlow
            ? QStringLiteral("we are slow: this worker was busy %1 % of the last second").arg(qRound(busy * 100))
            : cause == BehindCause::VenueLate
            ? QStringLiteral("the exchange or the network is late: this worker keeps up (busy %1 %)")
                  .arg(qRound(busy * 100))
            : QStringLiteral("cause unknown");
        m_status.emitEvent(EventKind::Stalled,
                           QStringLiteral("falling behind: latency up %1 ms in %2 s (%3 ms/s) while messages "
                                          "arrive; %4")
                               .arg(qRound(m_trend.growthMs()))
                               .arg(m_trend.windows())
                               .arg(m_trend.slopeMsPerS(), 0, 'f', 0)
                               .arg(why));
    } else if (change == LatencyTrend::Change::Ended) {
        out.cause.store(int(BehindCause::None));
        m_status.emitEvent(EventKind::Info, QStringLiteral("caught up: latency no longer growing"));
    } else if (!m_trend.behind() && out.cause.load() == int(BehindCause::Unknown) && m_trend.windows() > 0) {
        out.cause.store(int(BehindCause::None));
    }
}

} // namespace streamscope
