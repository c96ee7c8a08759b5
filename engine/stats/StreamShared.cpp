#include "StreamShared.h"

#include "model/StreamSnapshot.h"
#include "platform/SecretStore.h"

#include <QtCore/QMutexLocker>

#include <bit>
#include <chrono>

namespace streamscope {

namespace {
constexpr qsizetype kMaxKeptBytes = 4096;
constexpr std::size_t kGapRingCapacity = 100;
} // namespace

void StreamShared::pushGap(GapRecord gap)
{
    {
        QMutexLocker lock(&m_mutex);
        if (m_gaps.size() >= kGapRingCapacity)
            m_gaps.pop_front();
        m_gaps.push_back(std::move(gap));
    }
    changed();
}

void StreamShared::setState(StreamState s, const QString &reason, qint64 nowMs, qint64 nextRetryAtMs)
{
    {
        QMutexLocker lock(&m_mutex);
        m_reason = reason;
        m_stateSinceMs = nowMs;
        m_nextRetryAtMs = nextRetryAtMs;
    }
    state.store(s, std::memory_order_release);
    changed();
}

void StreamShared::pushResponse(bool isError, ResponseRecord record)
{
    if (record.body.size() > kMaxKeptBytes)
        record.body.truncate(kMaxKeptBytes);
    {
        QMutexLocker lock(&m_mutex);
        auto &ring = isError ? m_errors : m_results;
        if (ring.size() >= std::size_t(kResponseRingCapacity))
            ring.pop_front();
        ring.push_back(std::move(record));
    }
    changed();
}

void StreamShared::setParseError(const QString &error, const char *data, qsizetype len)
{
    {
        QMutexLocker lock(&m_mutex);
        m_lastParseError = error;
        m_lastBadMessage = QByteArray(data, std::min(len, kMaxKeptBytes));
    }
    changed();
}

void StreamShared::setLastCloseCode(int code)
{
    {
        QMutexLocker lock(&m_mutex);
        m_lastCloseCode = code;
    }
    changed();
}

void StreamShared::inspect(qint64 receivedMs, double latencyMs, const char *data, qsizetype len)
{
    QMutexLocker lock(&m_mutex);
    if (m_inspected.size() >= std::size_t(m_inspectorCapacity)) {
        m_inspected.pop_front();
        counters.inspectorDrops.add();
    }
    m_inspected.push_back(InspectedMessage{receivedMs, latencyMs, QByteArray(data, len)});
}

void StreamShared::setConfig(const StreamConfig &config)
{
    RedactedUrl shown = RedactedUrl::of(config.url);
    {
        QMutexLocker lock(&m_mutex);
        m_name = config.name;
        m_shownUrl = std::move(shown);
        m_venueKind = config.venue;
        m_mode = config.mode;
        m_inspectorCapacity = std::max(1, config.inspectorCapacity);
    }
    changed();
}

namespace {
// FNV-1a over 64-bit words: a change of any one of them changes the digest.
struct Digest {
    std::uint64_t h = 1469598103934665603ull;
    void add(std::uint64_t v)
    {
        h ^= v;
        h *= 1099511628211ull;
    }
    void add(double v) { add(std::uint64_t(std::bit_cast<std::uint64_t>(v))); }
    void add(std::int64_t v) { add(std::uint64_t(v)); }
    void add(int v) { add(std::uint64_t(std::int64_t(v))); }
    void add(bool v) { add(std::uint64_t(v)); }
};
} // namespace

// Every figure the worker publishes without a setter: the counters (the hot path's, and a
// message's figures written after its count, which a poll racing it may have missed), the
// venue's, the clock's and the freshness figures. The worker's busy share counts in whole
// percent: it moves a little every second on an idle worker too.
std::uint64_t StreamShared::tickDigest() const
{
    Digest d;
    const StreamCounters &c = counters;
    for (const RelaxedCounter *x : {&c.messages, &c.dataMessages, &c.bytes, &c.results, &c.errors, &c.controlMessages,
                                    &c.heartbeats, &c.parseErrors, &c.gaps, &c.reconnects, &c.inspectorDrops})
        d.add(x->load());
    d.add(c.lastMessageMs.load());
    d.add(c.lastDataMs.load());
    const VenueCounters &v = venue;
    for (const RelaxedCounter *x :
         {&v.updates, &v.segments, &v.conflated, &v.images, &v.resubDeltas, &v.incompleteImages, &v.duplicateMarkets,
          &v.status503, &v.staleAlarms, &v.duplicates, &v.rollovers, &v.serverShutdowns, &v.sequenceResets,
          &v.venueErrors, &v.venueNotices, &v.outgoingMessages, &v.outgoingPings})
        d.add(x->load());
    d.add(v.outgoingQueued.load());
    d.add(v.outgoingLimitPerS.load());
    d.add(v.outgoingPeakPerS.load());
    d.add(v.conflatedUnrequested.load());
    d.add(v.rolloverInProgress.load());
    d.add(v.heartbeatMs.load());
    d.add(v.conflateMs.load());
    d.add(v.initialImageMs.load());
    d.add(v.imageMarkets.load());
    d.add(latency.recorded());
    d.add(latencyCorrected.recorded());
    d.add(clock.digest());
    d.add(freshness.digest());
    return d.h;
}

void StreamShared::publishTick()
{
    const std::uint64_t digest = tickDigest();
    if (digest == m_lastTickDigest)
        return;
    m_lastTickDigest = digest;
    m_changes.fetch_add(1, std::memory_order_release); // the figures: not a change of the details
}

void StreamShared::fillSnapshot(StreamSnapshot &out, bool withLatency) const
{
    {
        QMutexLocker lock(&m_mutex);
        out.name = m_name;
        out.url = m_shownUrl;
        out.venue = m_venueKind;
        out.mode = m_mode;
        out.stateReason = m_reason;
        out.stateSinceMs = m_stateSinceMs;
        out.nextRetryAtMs = m_nextRetryAtMs;
        out.lastCloseCode = m_lastCloseCode;
        out.lastParseError = m_lastParseError;
        out.lastBadMessage = m_lastBadMessage;
        out.recentGaps = QVector<GapRecord>(m_gaps.begin(), m_gaps.end());
        out.connectionId = m_venue.connectionId;
        out.connectionsAvailable = m_venue.connectionsAvailable;
        out.clk = m_venue.clk;
        out.initialClk = m_venue.initialClk;
        out.venueErrorCode = m_venue.errorCode;
        out.venueErrorMessage = m_venue.errorMessage;
        out.venueNotice = m_venue.notice;
        out.keepAlive = m_venue.keepAlive;
        out.subscriptionCount = m_venue.subscriptionCount;
        out.connections = m_venue.connections;
        out.rateLimits = m_venue.rateLimits;
        out.books = m_books;
        out.instruments = m_instruments;
        out.instrumentsUntracked = m_instrumentsUntracked;
        out.lastTrades = m_lastTrades;
    }
    fillFigures(out, withLatency);
}

void StreamShared::refreshFigures(StreamSnapshot &out, bool withLatency) const
{
    {
        // Set on the worker's tick without a change of the details (setInstruments, setLastTrades).
        QMutexLocker lock(&m_mutex);
        out.instruments = m_instruments;
        out.instrumentsUntracked = m_instrumentsUntracked;
        out.lastTrades = m_lastTrades;
    }
    fillFigures(out, withLatency);
}

void StreamShared::fillFigures(StreamSnapshot &out, bool withLatency) const
{
    out.id = id;
    out.takenAtNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    out.state = state.load(std::memory_order_acquire);
    const VenueCounters &v = venue;
    out.updates = v.updates.load();
    out.segments = v.segments.load();
    out.conflated = v.conflated.load();
    out.conflatedUnrequested = v.conflatedUnrequested.load();
    out.images = v.images.load();
    out.resubDeltas = v.resubDeltas.load();
    out.incompleteImages = v.incompleteImages.load();
    out.duplicateMarkets = v.duplicateMarkets.load();
    out.initialImageMs = v.initialImageMs.load();
    out.imageMarkets = v.imageMarkets.load();
    out.status503 = v.status503.load();
    out.staleAlarms = v.staleAlarms.load();
    out.duplicates = v.duplicates.load();
    out.rollovers = v.rollovers.load();
    out.rolloverInProgress = v.rolloverInProgress.load();
    out.serverShutdowns = v.serverShutdowns.load();
    out.sequenceResets = v.sequenceResets.load();
    out.venueErrors = v.venueErrors.load();
    out.venueNotices = v.venueNotices.load();
    out.outgoingMessages = v.outgoingMessages.load();
    out.outgoingPings = v.outgoingPings.load();
    out.outgoingQueued = v.outgoingQueued.load();
    out.outgoingLimitPerS = v.outgoingLimitPerS.load();
    out.outgoingPeakPerS = v.outgoingPeakPerS.load();
    out.heartbeatMs = v.heartbeatMs.load();
    out.conflateMs = v.conflateMs.load();
    const StreamCounters &c = counters;
    out.messages = c.messages.load();
    out.dataMessages = c.dataMessages.load();
    out.bytes = c.bytes.load();
    out.results = c.results.load();
    out.errors = c.errors.load();
    out.controlMessages = c.controlMessages.load();
    out.heartbeats = c.heartbeats.load();
    out.parseErrors = c.parseErrors.load();
    out.gaps = c.gaps.load();
    out.reconnects = c.reconnects.load();
    out.inspectorDrops = c.inspectorDrops.load();
    out.lastMessageMs = c.lastMessageMs.load();
    out.lastDataMs = c.lastDataMs.load();
    clock.fill(out.clock);
    if (!out.freshness.byEvent.isEmpty()) // fill() appends: a refreshed reading held the last ones
        out.freshness.byEvent = {};       // (released, not cleared: a shared list would copy)
    freshness.fill(out.freshness, withLatency);
    if (withLatency) {
        out.latency = latency.snapshot();
        out.latencyCorrected = latencyCorrected.snapshot();
    } else {
        // As a reading without them has none (a refreshed one may have had them).
        out.latency = LatencySnapshot();
        out.latencyCorrected = LatencySnapshot();
    }
}

QVector<ResponseRecord> StreamShared::responses(bool errors) const
{
    QMutexLocker lock(&m_mutex);
    const auto &ring = errors ? m_errors : m_results;
    return QVector<ResponseRecord>(ring.begin(), ring.end());
}

QVector<InspectedMessage> StreamShared::takeInspected()
{
    QMutexLocker lock(&m_mutex);
    QVector<InspectedMessage> out(std::make_move_iterator(m_inspected.begin()),
                                  std::make_move_iterator(m_inspected.end()));
    m_inspected.clear();
    return out;
}

void StreamShared::clearInspected()
{
    QMutexLocker lock(&m_mutex);
    m_inspected.clear();
}

} // namespace streamscope
