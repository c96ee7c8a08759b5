#include "StreamSession.h"

#include "ServerTimeService.h"
#include "SessionEvents.h"
#include "ShardPlan.h"
#include "WorkerLoad.h"
#include "capture/CaptureRecorder.h"
#include "capture/FlightRecorder.h"
#include "model/PeerText.h"
#include "platform/SecretStore.h"
#include "platform/TlsConfiguration.h"
#include "protocol/MessageDecoder.h"
#include "protocol/RequestIds.h"
#include "stats/StreamShared.h"
#include "transport/Transport.h"
#include "venues/VenueHandler.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace streamscope {

namespace {

// The wall clock's plausible range for an event time, in µs since the epoch.
constexpr double kMinPlausibleUs = 946'684'800'000'000.0;   // 2000-01-01
constexpr double kMaxPlausibleUs = 4'102'444'800'000'000.0; // 2100-01-01
// A change of wall − monotonic time between two ticks beyond this is a step of the wall clock
// (NTP, a user, a resumed VM), not a slew: figures taken across it start over.
constexpr qint64 kWallStepMs = 1000;
// What of a peer's message an event quotes.
constexpr qsizetype kQuotedChars = 200;

// `us` in units of `usPerUnit` µs, within int64.
std::int64_t inUnits(double us, double usPerUnit)
{
    const double units = us / usPerUnit;
    constexpr double kLimit = 9.2e18;
    return std::int64_t(std::clamp(units, -kLimit, kLimit));
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', ms < 10000 ? 1 : 0) + QStringLiteral(" s");
}

} // namespace

// ---- Link: the transport's direct calls land in the session --------------------------

Link::Link(StreamSession &owner, int linkId, int shardIndex, bool isRollover)
    : session(owner)
    , id(linkId)
    , shard(shardIndex)
    , rollover(isRollover)
{
}

Link::~Link()
{
    delete outboxTimer;
}

void Link::onMessage(const char *data, qsizetype len, bool inScratch)
{
    session.onLinkMessage(*this, data, len, inScratch);
}

void Link::onBinaryMessage(const char *data, qsizetype len)
{
    session.onLinkMessage(*this, data, len, false, true);
}

qsizetype Link::headBytes(qsizetype messageBytes) const
{
    return session.headBytes(messageBytes);
}

bool Link::onMessageHead(const char *head, qsizetype headLen, qsizetype messageBytes)
{
    return session.onLinkHead(*this, head, headLen, messageBytes);
}

StreamSession::StreamSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config, MessageDecoder &decoder,
                             SessionEvents &events, const Clock &clock, TransportFactory transports, QObject *parent)
    : QObject(parent)
    , m_shared(std::move(shared))
    , m_decoder(decoder)
    , m_events(events)
    , m_clock(clock)
    , m_transports(std::move(transports))
    , m_clockTrack(m_shared->clock)
    , m_backoff(config.reconnectBaseMs, config.reconnectMaxMs)
    , m_reconnectTimer(this)
    , m_eventTypes(m_shared->freshness)
{
    // Stops asked for before this session existed (an edit replaces the session) are not its own.
    m_stopsHandled = m_shared->stopsRequested.load(std::memory_order_relaxed);
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &StreamSession::onReconnectDue);
    applyConfig(config);
}

StreamSession::~StreamSession()
{
    dropConnection();
}

StreamId StreamSession::id() const
{
    return m_shared->id;
}

void StreamSession::applyConfig(const StreamConfig &config)
{
    m_config = config;
    m_subscriptions = config.subscribe;
    m_parsed = config.mode != DecodeMode::Raw;
    m_latencyPointer = config.latencyField.toStdString();
    m_venue = VenueHandler::create(m_config, *this);
    m_usPerUnit =
        microsecondsPerUnit(config.latencyField.isEmpty() ? m_venue->decodeSpec().timeUnit : config.latencyUnit);
    m_minEventTime = inUnits(kMinPlausibleUs, m_usPerUnit);
    m_maxEventTime = inUnits(kMaxPlausibleUs, m_usPerUnit);
    m_eventTypes.setUnit(m_usPerUnit);
    m_namesPeriodic = EventTypeTracker::allPeriodic(EventTypeTracker::streamNames(config.url, config.subscribe));
    m_backoff = Backoff(config.reconnectBaseMs, config.reconnectMaxMs);
    m_heartbeats = m_venue->headScanHeartbeats(m_parsed);
    m_rawNotice = m_venue->rawNotice();
    m_shared->venue.outgoingLimitPerS.store(m_venue->controlMessagesPerSecond());
}

// ---- commands ------------------------------------------------------------------------

void StreamSession::start()
{
    // A stream that will ask for the server time starts the worker's network thread now,
    // before it connects (ServerTimeService says why).
    if (m_serverTime && !serverTimeUrl().isEmpty())
        m_serverTime->init();
    m_backoff.reset();
    connectNow();
}

void StreamSession::stop(std::uint64_t upTo)
{
    m_stopsHandled = std::max(m_stopsHandled, upTo);
    m_clockTrack.setProbe(nullptr);
    record(QStringLiteral("stopped"), {});
    dropConnection();
    m_reconnectTimer.stop();
    m_reconnectAtMs.reset();
    setState(StreamState::Stopped, QStringLiteral("stopped by user"));
}

void StreamSession::restart()
{
    m_backoff.reset();
    connectNow();
}

void StreamSession::sendControl(const QString &method, const QStringList &params, qint64 requestId)
{
    const int perLink = m_venue->maxStreamsPerConnection();
    const int namedInUrl = m_venue->streamsNamedInUrl(m_config.url);
    if (method == QLatin1String("SUBSCRIBE")) {
        QStringList fresh;
        for (const QString &p : params)
            if (!m_subscriptions.contains(p) && !fresh.contains(p))
                fresh << p;
        m_subscriptions << fresh;
        if (fresh.isEmpty()) {
            if (Link *l = m_links.serving(0); l && l->active)
                m_venue->sendControl(l->id, method, params, requestId);
            return;
        }
        bool first = true;
        while (!fresh.isEmpty()) {
            // The first shard with room takes what fits; the rest opens a new connection.
            int room = 0;
            Link *target = m_links.withRoom(perLink, namedInUrl, int(fresh.size()), &room);
            const QStringList part = fresh.mid(0, room);
            fresh = fresh.mid(room);
            if (!target) {
                const int shard = m_links.nextShard();
                if (m_state == StreamState::Stopped || m_state == StreamState::Failed || m_links.empty())
                    continue; // kept in m_subscriptions, distributed on the next connect
                openLink(shard, part, false);
                emitEvent(EventKind::Info,
                          QStringLiteral("%1 more streams: opening connection %2 of the group")
                              .arg(part.size())
                              .arg(shard + 1));
                continue;
            }
            target->streams << part;
            if (target->active)
                m_venue->sendControl(target->id, method, part, first ? requestId : nextRequestId());
            first = false;
            // A replacement being opened for this connection must carry the new streams too.
            if (Link *to = m_links.byId(m_rollover.toId()); to && m_rollover.fromId() == target->id) {
                to->streams << part;
                if (to->active)
                    m_venue->sendControl(to->id, method, part, nextRequestId());
            }
        }
        publishConnections();
        return;
    }
    if (method == QLatin1String("UNSUBSCRIBE")) {
        for (const QString &p : params)
            m_subscriptions.removeAll(p);
        bool first = true;
        for (const auto &[l, mine] : m_links.takeStreams(params)) {
            if (!l->active)
                continue;
            m_venue->sendControl(l->id, method, mine, first ? requestId : nextRequestId());
            first = false;
        }
        publishConnections();
        return;
    }
    // LIST_SUBSCRIPTIONS and anything else: every connection of the group answers for itself.
    bool first = true;
    for (const auto &l : m_links.links()) {
        if (!l->active || l->rollover)
            continue;
        m_venue->sendControl(l->id, method, params, first ? requestId : nextRequestId());
        first = false;
    }
}

void StreamSession::sendRaw(const QString &text)
{
    Link *l = m_links.serving(0);
    if (!l || !l->active)
        return;
    // A request with an id gets its response matched like our own control messages.
    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
    const QJsonValue requestId = o.value(QStringLiteral("id"));
    QString key;
    QString method;
    if (requestId.isString() || requestId.isDouble()) {
        key = requestId.isString() ? requestId.toString() : QString::number(requestId.toInteger());
        method = o.value(QStringLiteral("method")).toString();
        if (method.isEmpty())
            method = o.value(QStringLiteral("op")).toString();
    }
    sendOn(l->id, text, method, key);
}

// ---- VenueHost -------------------------------------------------------------------------

void StreamSession::sendOn(int linkId, const QString &text, const QString &method, const QString &requestId)
{
    Link *l = m_links.byId(linkId);
    if (!l)
        return;
    if (!requestId.isEmpty())
        m_requests.track(requestId, method, m_clock.monotonicMs());
    if (m_recorder || m_flight) {
        // Only requests known to carry no secret are quoted (Betfair's authentication does).
        static const QStringList kQuoted{QStringLiteral("SUBSCRIBE"),          QStringLiteral("UNSUBSCRIBE"),
                                         QStringLiteral("LIST_SUBSCRIPTIONS"), QStringLiteral("marketSubscription"),
                                         QStringLiteral("orderSubscription"),  QStringLiteral("heartbeat")};
        QJsonObject o{{QStringLiteral("shard"), l->shard}};
        if (!method.isEmpty())
            o.insert(QStringLiteral("method"), method);
        if (!requestId.isEmpty())
            o.insert(QStringLiteral("id"), requestId);
        if (kQuoted.contains(method))
            o.insert(QStringLiteral("message"), text);
        const bool control = method == QLatin1String("SUBSCRIBE") || method == QLatin1String("UNSUBSCRIBE");
        record(control ? method.toLower() : QStringLiteral("sent"), o);
    }
    l->outbox.enqueue(text);
    flushOutbox(*l);
}

void StreamSession::venueEvent(EventKind kind, const QString &text)
{
    // Every gap is recorded; the event log gets at most ten a second.
    if (kind == EventKind::Gap)
        record(QStringLiteral("gap"), QJsonObject{{QStringLiteral("text"), peerText(text)}});
    if (m_throttle.allow(kind, m_clock.monotonicMs()))
        emitEvent(kind, text);
}

void StreamSession::venueFailed(const QString &reason)
{
    fail(reason);
}

void StreamSession::venueReconnect(const QString &reason)
{
    scheduleReconnect(reason);
}

void StreamSession::venueStalled(const QString &reason)
{
    emitEvent(EventKind::Stalled, reason);
    if (m_config.reconnectOnStall) {
        scheduleReconnect(reason);
        return;
    }
    setState(StreamState::Stalled, reason);
}

void StreamSession::rollOver(int linkId, const QString &reason)
{
    if (m_rollover.inProgress())
        return; // one at a time; the age check starts the next one
    Link *from = m_links.byId(linkId);
    if (!from || !from->active || from->rollover)
        return;
    const int fromId = from->id;
    const int shard = from->shard;
    const QStringList streams = from->streams;
    m_rollover.prepare();
    const Link *to = openLink(shard, streams, true);
    m_rollover.begin(fromId, to->id);
    m_shared->venue.rolloverInProgress.store(true);
    record(QStringLiteral("rollover"),
           QJsonObject{{QStringLiteral("step"), QStringLiteral("started")},
                       {QStringLiteral("shard"), shard},
                       {QStringLiteral("reason"), reason}});
    emitEvent(
        EventKind::Info,
        QStringLiteral("rollover of connection %1 started (%2): opening its replacement").arg(shard + 1).arg(reason));
}

// ---- connections ----------------------------------------------------------------------

void StreamSession::connectNow()
{
    dropConnection();
    m_reconnectTimer.stop();
    m_reconnectAtMs.reset();
    const QString scheme = m_config.url.scheme();
    if (!m_config.url.isValid() || m_config.url.host().isEmpty()) {
        fail(QStringLiteral("invalid URL '%1'").arg(SecretStore::redacted(m_config.url).toDisplayString()));
        return;
    }
    if (scheme != QLatin1String("ws") && scheme != QLatin1String("wss") && scheme != QLatin1String("tcp")
        && scheme != QLatin1String("tls")) {
        fail(QStringLiteral("unsupported URL scheme '%1' (expected ws, wss, tcp or tls)").arg(scheme));
        return;
    }
    for (const auto &header : std::as_const(m_config.headers)) {
        bool ok = true;
        SecretStore::resolve(header.second, &ok);
        if (!ok) {
            fail(QStringLiteral("header %1: secret %2 is not set").arg(header.first, header.second));
            return;
        }
    }
    QString unresolved;
    SecretStore::resolveQuery(m_config.url, &unresolved);
    if (!unresolved.isEmpty()) {
        fail(QStringLiteral("URL query parameter %1: the secret is not set").arg(unresolved));
        return;
    }
    m_connectStartedMs = m_clock.monotonicMs();
    setState(StreamState::Connecting,
             QStringLiteral("connecting to %1").arg(SecretStore::redacted(m_config.url).toDisplayString()));
    const QList<QStringList> shards =
        ShardPlan::split(m_subscriptions, m_venue->maxStreamsPerConnection(), m_venue->streamsNamedInUrl(m_config.url));
    for (int i = 0; i < int(shards.size()); ++i)
        openLink(i, shards[i], false);
    if (shards.size() > 1)
        emitEvent(
            EventKind::Info,
            QStringLiteral("%1 streams split over %2 connections").arg(m_subscriptions.size()).arg(shards.size()));
}

void StreamSession::onReconnectDue()
{
    if (m_state != StreamState::Reconnecting || !m_reconnectAtMs)
        return;
    const qint64 left = *m_reconnectAtMs - m_clock.monotonicMs();
    if (left > 0) {
        m_reconnectTimer.start(int(left)); // a timer may fire early against this clock
        return;
    }
    m_shared->counters.reconnects.add();
    connectNow();
}

Link *StreamSession::openLink(int shard, const QStringList &streams, bool rollover)
{
    Link *l = &m_links.add(std::make_unique<Link>(*this, m_links.nextId(), shard, rollover));
    l->streams = streams;
    l->config = m_config;
    l->config.url = m_venue->shardUrl(m_config.url, shard);
    l->outbox.setLimit(m_venue->controlMessagesPerSecond());
    l->transport = m_transports(l->config, m_decoder, *l);
    l->outboxTimer = new QTimer;
    l->outboxTimer->setSingleShot(true);
    connect(l->outboxTimer, &QTimer::timeout, this, [this, l] { flushOutbox(*l); });
    connect(l->transport, &Transport::connected, this, [this, l] { onLinkConnected(*l); });
    connect(l->transport, &Transport::disconnected, this,
            [this, l](int closeCode, const QString &reason) { onLinkDisconnected(*l, closeCode, reason); });
    connect(l->transport, &Transport::pongReceived, this, [this, l] { l->watchdog.frame(m_clock.monotonicMs()); });
    l->watchdog.connecting(m_clock.monotonicMs());
    publishConnections();
    l->transport->open();
    return l;
}

void StreamSession::dropConnection()
{
    m_links.retireAll();
    if (m_rollover.inProgress() || m_rollover.overlapping()) {
        m_rollover.reset();
        m_shared->venue.rolloverInProgress.store(false);
    }
    m_requests.clear();
    m_shared->venue.outgoingQueued.store(0);
    if (m_venue)
        m_venue->onDisconnected();
    publishConnections();
}

void StreamSession::publishConnections()
{
    const QVector<ConnectionInfo> list = m_links.describe();
    const int count = int(m_subscriptions.size());
    m_shared->editVenue([&](VenueDetails &d) {
        d.connections = list;
        d.subscriptionCount = count;
    });
}

void StreamSession::onLinkConnected(Link &link)
{
    const qint64 now = m_clock.monotonicMs();
    link.active = true;
    link.connectedWallMs = m_clock.wallMs();
    link.watchdog.connected(now);
    publishConnections();
    const bool firstUp = m_state == StreamState::Connecting || m_state == StreamState::Reconnecting;
    record(QStringLiteral("connected"),
           QJsonObject{{QStringLiteral("url"), SecretStore::redacted(link.config.url).toString()},
                       {QStringLiteral("shard"), link.shard},
                       {QStringLiteral("rollover"), link.rollover}});
    emitEvent(EventKind::Connected,
              m_links.size() > 1
                  ? QStringLiteral("connected to %1 (connection %2%3)")
                        .arg(SecretStore::redacted(link.config.url).toDisplayString())
                        .arg(link.shard + 1)
                        .arg(link.rollover ? QStringLiteral(", rollover") : QString())
                  : QStringLiteral("connected to %1").arg(SecretStore::redacted(link.config.url).toDisplayString()));
    if (!firstUp) {
        m_venue->onConnected(link.id, link.shard, link.rollover, link.streams);
        return;
    }
    m_stall.connected(now);
    m_silence.connected(now);
    m_trend.reset();
    m_eventTypes.reconnected();
    m_backpressure.reset();
    m_liveSinceMs.reset();
    startServerTime();
    const bool sent = m_venue->onConnected(link.id, link.shard, link.rollover, link.streams);
    if (m_state == StreamState::Failed)
        return;
    if (sent) {
        setState(StreamState::Subscribing, QStringLiteral("subscribing"));
    } else {
        setState(StreamState::Live, QStringLiteral("connected"));
        m_liveSinceMs = now;
    }
}

// Freshness beyond "messages arrive" (docs/freshness.md): a silence well beyond the stream's
// learned usual gap, and latency that keeps growing while messages flow.
void StreamSession::checkFreshness(qint64 nowMs, bool dataSinceLastTick)
{
    FreshnessShared &out = m_shared->freshness;
    if (dataSinceLastTick)
        m_silence.onData(nowMs);
    const bool delivering = m_state == StreamState::Live || m_state == StreamState::Degraded;
    if (delivering) {
        const SilenceLearner::Verdict v = m_silence.check(nowMs);
        if (v.alarm) {
            out.silenceAlarms.add();
            emitEvent(EventKind::Stalled,
                      QStringLiteral("silent for %1, well beyond its usual gap of %2 (alarm past %3)")
                          .arg(seconds(v.silentMs), seconds(v.usualGapMs), seconds(v.thresholdMs)));
        }
    }
    out.usualGapMs.store(m_silence.usualGapMs().value_or(-1));

    const double busy = m_workerLoad ? m_workerLoad->busyShare() : -1.0;
    out.busyShare.store(busy);
    const BackpressureMeter::Figures backlog = m_backpressure.tick(nowMs, unreadBytes());
    out.unreadBytes.store(backlog.unreadBytes);
    out.unreadBytesPeak.store(backlog.unreadBytesPeak);
    out.processingUs.store(backlog.processingUs);

    // Periodic streams stay out of the trend; a stream that mixes periodic and other event
    // types follows the others' raw latency (docs/freshness.md, "Periodic streams").
    m_eventTypes.setStreamPeriodic(m_namesPeriodic || m_shared->venue.conflateMs.load() > 0);
    m_eventTypes.tick(nowMs);
    const int source = m_eventTypes.streamPeriodic() ? 2 : m_eventTypes.mixed() ? 1 : 0;
    // The trend follows the corrected latency once there is one (raw latencies below zero are
    // not in the raw histogram's sum), and starts over when that changes.
    const bool corrected = m_clockTrack.correcting() && source == 0;
    if (corrected != m_trendCorrected || source != m_trendSource) {
        m_trendCorrected = corrected;
        m_trendSource = source;
        m_trend.reset();
    }
    const LatencyHistogram &h = corrected ? m_shared->latencyCorrected : m_shared->latency;
    std::uint64_t count = h.count();
    std::uint64_t sumUs = h.sumUs();
    if (source == 1)
        m_eventTypes.nonPeriodicTotals(count, sumUs);
    const LatencyTrend::Change change = source == 2 ? LatencyTrend::Change::None : m_trend.tick(nowMs, count, sumUs);
    out.trendMsPerS.store(source == 2 ? 0.0 : m_trend.slopeMsPerS());
    out.fallingBehind.store(source != 2 && m_trend.behind());
    if (source == 2 && m_trend.behind()) {
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
        emitEvent(EventKind::Stalled,
                  QStringLiteral("falling behind: latency up %1 ms in %2 s (%3 ms/s) while messages "
                                 "arrive; %4")
                      .arg(qRound(m_trend.growthMs()))
                      .arg(m_trend.windows())
                      .arg(m_trend.slopeMsPerS(), 0, 'f', 0)
                      .arg(why));
    } else if (change == LatencyTrend::Change::Ended) {
        out.cause.store(int(BehindCause::None));
        emitEvent(EventKind::Info, QStringLiteral("caught up: latency no longer growing"));
    } else if (!m_trend.behind() && out.cause.load() == int(BehindCause::Unknown) && m_trend.windows() > 0) {
        out.cause.store(int(BehindCause::None));
    }
}

// The stream's unread bytes now: every connection's socket buffer and kernel queue.
qint64 StreamSession::unreadBytes() const
{
    qint64 total = -1;
    for (const auto &l : m_links.links())
        if (l->transport && l->active)
            if (const qint64 n = l->transport->unreadBytes(); n >= 0)
                total = std::max<qint64>(total, 0) + n;
    return total;
}

QUrl StreamSession::serverTimeUrl() const
{
    return m_config.serverTimeUrl.isEmpty() ? m_venue->serverTimeUrl() : m_config.serverTimeUrl;
}

// The server-time probe, once the stream is up: the stream's own server_time_url, else its
// venue's endpoint (Binance only). Kept across reconnects, dropped on stop.
void StreamSession::startServerTime()
{
    if (!m_serverTime || m_clockTrack.hasProbe())
        return;
    const QUrl url = serverTimeUrl();
    if (url.isEmpty())
        return;
    QString tlsError;
    const QSslConfiguration tls = tlsConfiguration(m_config, &tlsError);
    m_clockTrack.setProbe(m_serverTime->probe(url, tls, m_config.caFile));
}

void StreamSession::flushOutbox(Link &link)
{
    VenueCounters &v = m_shared->venue;
    if (link.transport && link.active) {
        // A send may end the connection (a synchronous error): then the rest stays queued.
        const qint64 wait = link.outbox.flush(m_clock.monotonicMs(), [&](const QString &text) {
            if (!link.transport || !link.active)
                return false;
            link.transport->sendText(text);
            v.outgoingMessages.add();
            return true;
        });
        v.outgoingPeakPerS.store(std::max(v.outgoingPeakPerS.load(), link.outbox.sentInWindow()));
        if (wait > 0)
            link.outboxTimer->start(int(wait));
    }
    v.outgoingQueued.store(m_links.queuedMessages());
}

void StreamSession::onLinkDisconnected(Link &link, int closeCode, const QString &reason)
{
    link.active = false;
    m_shared->setLastCloseCode(closeCode);
    // The reason is the peer's text: the transports escaped it, and emitEvent()/setState()
    // escape whatever leaves the worker.
    const QString text = closeCode ? QStringLiteral("%1 (close code %2)").arg(reason).arg(closeCode) : reason;
    record(QStringLiteral("closed"),
           QJsonObject{{QStringLiteral("code"), closeCode},
                       {QStringLiteral("reason"), peerText(reason)},
                       {QStringLiteral("shard"), link.shard}});
    emitEvent(EventKind::Disconnected, text, closeCode);
    if (link.id == m_rollover.toId() && !m_rollover.switched()) {
        abandonRollover(QStringLiteral("replacement connection closed: ") + text);
        return;
    }
    if (link.id == m_rollover.fromId() && m_rollover.inProgress()) {
        Link *to = m_links.byId(m_rollover.toId());
        if (to && to->active) {
            finishRollover(QStringLiteral("old connection closed: ") + text);
            return;
        }
    }
    scheduleReconnect(text);
}

void StreamSession::finishRollover(const QString &why)
{
    Link *from = m_links.byId(m_rollover.fromId());
    Link *to = m_links.byId(m_rollover.toId());
    m_rollover.switchOver(m_clock.monotonicMs());
    if (to)
        to->rollover = false;
    if (from)
        m_links.retire(from);
    m_shared->venue.rollovers.add();
    record(QStringLiteral("rollover"),
           QJsonObject{{QStringLiteral("step"), QStringLiteral("done")}, {QStringLiteral("reason"), why}});
    m_venue->onSwitchedOver();
    emitEvent(EventKind::Info,
              QStringLiteral("rollover done (%1): switched to the new connection, %2 duplicates dropped so far")
                  .arg(why)
                  .arg(m_shared->venue.duplicates.load()));
    if (m_rollover.afterMessage() == MakeBeforeBreak::Step::Settled) {
        m_rollover.reset();
        m_shared->venue.rolloverInProgress.store(false);
    }
    publishConnections();
}

void StreamSession::abandonRollover(const QString &why)
{
    if (Link *to = m_links.byId(m_rollover.toId()))
        m_links.retire(to);
    m_rollover.reset();
    m_shared->venue.rolloverInProgress.store(false);
    record(QStringLiteral("rollover"),
           QJsonObject{{QStringLiteral("step"), QStringLiteral("abandoned")}, {QStringLiteral("reason"), why}});
    emitEvent(EventKind::Info, QStringLiteral("rollover abandoned, the old connection stays: %1").arg(why));
    publishConnections();
}

void StreamSession::advanceRollover(MakeBeforeBreak::Step step, const QString &why)
{
    switch (step) {
    case MakeBeforeBreak::Step::SwitchOver: finishRollover(why); break;
    case MakeBeforeBreak::Step::Settled:
        m_rollover.reset();
        m_shared->venue.rolloverInProgress.store(false);
        break;
    case MakeBeforeBreak::Step::None: break;
    }
}

// A connection timed out or went silent: a replacement is abandoned, anything else
// reconnects the stream.
void StreamSession::linkLost(Link &link, const QString &why)
{
    if (link.id == m_rollover.toId())
        abandonRollover(why);
    else
        scheduleReconnect(why);
}

void StreamSession::scheduleReconnect(const QString &reason)
{
    dropConnection();
    if (m_state == StreamState::Stopped || m_state == StreamState::Failed)
        return;
    const int delay = m_backoff.nextDelayMs();
    m_reconnectAtMs = m_clock.monotonicMs() + delay;
    setState(StreamState::Reconnecting,
             QStringLiteral("%1; reconnect attempt %2 in %3").arg(reason).arg(m_backoff.attempt()).arg(seconds(delay)),
             m_clock.wallMs() + delay);
    record(QStringLiteral("reconnect"),
           QJsonObject{{QStringLiteral("delay_ms"), delay},
                       {QStringLiteral("attempt"), m_backoff.attempt()},
                       {QStringLiteral("reason"), peerText(reason)}});
    emitEvent(
        EventKind::ReconnectScheduled,
        QStringLiteral("reconnecting in %1 (attempt %2): %3").arg(seconds(delay)).arg(m_backoff.attempt()).arg(reason));
    m_reconnectTimer.start(delay);
}

void StreamSession::fail(const QString &reason)
{
    m_clockTrack.setProbe(nullptr);
    dropConnection();
    m_reconnectTimer.stop();
    m_reconnectAtMs.reset();
    setState(StreamState::Failed, reason);
}

void StreamSession::setState(StreamState state, const QString &reason, qint64 nextRetryAtWallMs)
{
    m_state = state;
    const qint64 wall = m_clock.wallMs();
    // What leaves the worker is safe to show: a reason may quote a peer (a close reason, a
    // venue's error message) through a path that did not escape it.
    const QString shown = peerText(reason);
    m_shared->setState(state, shown, wall, nextRetryAtWallMs);
    StreamEvent e;
    e.stream = id();
    e.timeMs = wall;
    e.kind = EventKind::StateChanged;
    e.state = state;
    e.text = shown;
    m_events.publish(e);
}

// ---- housekeeping ------------------------------------------------------------------------

void StreamSession::tick()
{
    m_links.freeRetired();
    // A recording error (written on the writer thread) becomes one of the stream's events.
    if (m_recorder && m_recorder->errorCount() != m_recordErrorsSeen) {
        m_recordErrorsSeen = m_recorder->errorCount();
        emitEvent(EventKind::Info, QStringLiteral("recording: ") + m_recorder->status().error);
    }
    // The flight recorder's saves and their errors (written on the writer thread) likewise.
    if (m_flight && (m_flight->savedFiles() != m_flightSavesSeen || m_flight->saveErrors() != m_flightErrorsSeen)) {
        const FlightStatus f = m_flight->status();
        if (f.savedFiles != m_flightSavesSeen)
            emitEvent(EventKind::Info, QStringLiteral("flight recorder: saved ") + f.lastFile);
        if (f.saveErrors != m_flightErrorsSeen)
            emitEvent(EventKind::Info, QStringLiteral("flight recorder: ") + f.error);
        m_flightSavesSeen = f.savedFiles;
        m_flightErrorsSeen = f.saveErrors;
    }
    const qint64 now = m_clock.monotonicMs();
    // What the hot path saw since the last tick counts as of now.
    for (const auto &l : m_links.links())
        l->watchdog.observe(now);
    const bool dataSinceLastTick = m_stall.observe(now);
    const qint64 wallMinusMono = m_clock.wallMs() - now;
    if (m_wallMinusMonotonicMs && qAbs(wallMinusMono - *m_wallMinusMonotonicMs) > kWallStepMs) {
        m_trend.reset();
        m_clockTrack.wallStepped();
    }
    m_wallMinusMonotonicMs = wallMinusMono;
    checkFreshness(now, dataSinceLastTick);
    if (const QString note = m_clockTrack.tick(now); !note.isEmpty())
        emitEvent(EventKind::Info, note);
    switch (m_state) {
    case StreamState::Reconnecting: onReconnectDue(); return;
    case StreamState::Connecting:
        if (now - m_connectStartedMs > m_config.connectTimeoutMs)
            scheduleReconnect(QStringLiteral("no connection after %1").arg(seconds(m_config.connectTimeoutMs)));
        return;
    case StreamState::Subscribing:
    case StreamState::Live:
    case StreamState::Stalled:
    case StreamState::Degraded: break;
    default: return;
    }
    if (!m_links.anyActive())
        return;

    for (std::size_t i = 0; i < m_links.size(); ++i) {
        Link &l = *m_links.links()[i];
        switch (l.watchdog.check(now, m_config, l.transport && l.transport->hasPing())) {
        case ConnectionWatchdog::Verdict::ConnectTimeout:
            linkLost(l,
                     QStringLiteral("connection %1: no connection after %2")
                         .arg(l.shard + 1)
                         .arg(seconds(m_config.connectTimeoutMs)));
            return;
        case ConnectionWatchdog::Verdict::Dead:
            linkLost(l, QStringLiteral("no frame or pong for %1").arg(seconds(l.watchdog.silentMs(now))));
            return;
        case ConnectionWatchdog::Verdict::PingDue:
            l.watchdog.pinged(now);
            if (l.transport->ping()) {
                m_shared->venue.outgoingPings.add();
                l.outbox.notePing(now);
            }
            break;
        case ConnectionWatchdog::Verdict::Ok:
        case ConnectionWatchdog::Verdict::Unknown: break;
        }
        if (l.active && l.outbox.queued() > 0)
            flushOutbox(l);
    }

    m_venue->onTick(now);
    if (m_state == StreamState::Failed || m_state == StreamState::Reconnecting || m_state == StreamState::Stopped)
        return;

    // Make-before-break: replace the oldest connection past the venue's age limit.
    if (const qint64 maxAge = m_venue->maxConnectionAgeMs(); maxAge > 0 && !m_rollover.inProgress()) {
        for (const auto &l : m_links.links()) {
            const qint64 age = now - l->watchdog.connectedMs();
            if (l->active && !l->rollover && age >= maxAge) {
                rollOver(
                    l->id,
                    QStringLiteral("connection age %1 reached the limit of %2").arg(seconds(age), seconds(maxAge)));
                break;
            }
        }
    }
    if (m_rollover.inProgress()) {
        const Link *to = m_links.byId(m_rollover.toId());
        const std::optional<qint64> toConnectedMs =
            to && to->active ? std::optional<qint64>(to->watchdog.connectedMs()) : std::nullopt;
        advanceRollover(m_rollover.onTick(now, m_config.rolloverOverlapMaxMs, toConnectedMs),
                        QStringLiteral("overlap limit of %1 reached").arg(seconds(m_config.rolloverOverlapMaxMs)));
    }

    if (!m_venue->ownsFreshness() && m_state != StreamState::Stalled) {
        const StallWatchdog::Verdict v = m_stall.check(now, m_config.stallTimeoutMs);
        if (v.stalled) {
            const QString why = v.neverData
                ? QStringLiteral("no data since %1 %2 ago")
                      .arg(m_state == StreamState::Subscribing ? QStringLiteral("subscribing")
                                                               : QStringLiteral("connecting"),
                           seconds(v.silentMs))
                : QStringLiteral("no data for %1").arg(seconds(v.silentMs));
            venueStalled(why);
            if (m_state != StreamState::Stalled)
                return;
        }
    }
    if (m_state == StreamState::Live && m_liveSinceMs && m_backoff.attempt() > 0
        && now - *m_liveSinceMs >= m_config.healthyResetMs)
        m_backoff.reset();
}

// ---- hot path ------------------------------------------------------------------------

qsizetype StreamSession::headBytes(qsizetype len) const
{
    // A recording, a flight recorder, a rollover's de-duplication and an inspector need the
    // whole message.
    if (m_recorder || m_flight || m_rollover.overlapping() || m_shared->inspecting.load(std::memory_order_relaxed))
        return 0;
    if (!m_parsed)
        return HeadScanner::kHeadBytes;
    return qsizetype(m_decoder.headBytes(std::size_t(len), m_latencyPointer, m_venue->decodeSpec()));
}

bool StreamSession::onLinkHead(Link &link, const char *head, qsizetype headLen, qsizetype len)
{
    const HeadInfo info = HeadScanner::scan(head, headLen, m_venue->decodeSpec().head, m_heartbeats);
    if (info.kind != MessageKind::Data && info.kind != MessageKind::Unknown)
        return false; // a response: its text is kept whole
    if (!m_parsed) {
        handleMessage(link, head, len, headLen, true, info);
        return true;
    }
    // A parsed stream's long message: its fields from the prefix, or the whole message after all.
    DecodedFields fields;
    if (!m_decoder.decodeHead(std::size_t(headLen), std::size_t(len), m_latencyPointer, fields, m_venue->decodeSpec()))
        return false;
    handleMessage(link, head, len, headLen, true, info, false, &fields);
    return true;
}

void StreamSession::onLinkMessage(Link &link, const char *data, qsizetype len, bool inScratch, bool binary)
{
    handleMessage(link, data, len, len, inScratch,
                  HeadScanner::scan(data, len, m_venue->decodeSpec().head, m_heartbeats), binary);
}

// `available` bytes of the message's `len` are at `data`: all of them, or the head only
// (headBytes(): raw mode, which reads no further, or a parsed message whose fields were
// decoded from its head, `decodedHead`).
void StreamSession::handleMessage(Link &link, const char *data, qsizetype len, qsizetype available, bool inScratch,
                                  const HeadInfo &head, bool binary, const DecodedFields *decodedHead)
{
    Q_ASSERT(available == len || !m_parsed || decodedHead);
    if (!link.active)
        return;
    // A stop was asked for and its command is on its way here: nothing counts from now on, and
    // the connections go at once, so that the rest of the read in progress (a firehose's
    // kernel buffer, thousands of messages) is dropped rather than waited for. The command
    // itself then sets the state; a stop, restart, stop in a row drops until the last stop.
    if (Q_UNLIKELY(m_shared->stopsRequested.load(std::memory_order_relaxed) != m_stopsHandled)) {
        dropConnection();
        return;
    }
    // One clock read a message, the wall clock's, for latency and the times shown; the
    // watchdogs are told a frame came and timestamp it on the tick.
    const qint64 nowUs = m_clock.wallUs();
    const qint64 wallMs = nowUs / 1000;
    StreamCounters &c = m_shared->counters;
    c.messages.add();
    c.bytes.add(std::uint64_t(len));
    c.lastMessageMs.store(wallMs);
    link.watchdog.frameSeen();
    // Recorded first, so that an event the message causes (a gap) follows it in the capture.
    // A recording stream reads whole messages (headBytes()), so `available` is `len` here.
    if (m_recorder && available == len)
        m_recorder->message(nowUs, data, len, binary);
    if (m_flight && available == len)
        m_flight->message(nowUs, data, len, binary);

    double latencyMs = qQNaN();
    switch (head.kind) {
    case MessageKind::Data:
    case MessageKind::Unknown: handleData(link, data, len, inScratch, head, nowUs, latencyMs, decodedHead); break;
    case MessageKind::Heartbeat: onHeartbeatMessage(nullptr); break;
    case MessageKind::Connection:
        c.controlMessages.add();
        m_venue->onConnectionMessage(link.id, data, len);
        break;
    case MessageKind::Result:
    case MessageKind::Error: routeResponse(link, head, data, len); break;
    }
    // An inspector opened while the head of this message was read sees the next one.
    if (m_shared->inspecting.load(std::memory_order_relaxed) && available == len)
        m_shared->inspect(wallMs, latencyMs, data, len);
    if (m_rollover.overlapping())
        advanceRollover(m_rollover.afterMessage(), QStringLiteral("the old connection caught up with the new one"));
    if (m_backpressure.due()) // one message in 64 (docs/freshness.md, "Backpressure")
        m_backpressure.processed(m_clock.wallUs() - nowUs);
}

void StreamSession::handleData(Link &link, const char *data, qsizetype len, bool inScratch, const HeadInfo &head,
                               qint64 nowUs, double &latencyMs, const DecodedFields *decodedHead)
{
    StreamCounters &c = m_shared->counters;
    DecodedFields fields;
    const DecodedFields *decoded = nullptr;
    const bool overlap = m_rollover.overlapping();
    if (m_parsed) {
        const DecodeSpec &spec = m_venue->decodeSpec();
        // What tells events apart (stream, symbol, trade id) is read only for the de-duplication.
        bool ok = true;
        if (decodedHead)
            fields = *decodedHead;
        else if (inScratch)
            ok = m_decoder.decode(std::size_t(len), m_latencyPointer, fields, spec, overlap);
        else
            ok = m_decoder.decodeCopy(data, std::size_t(len), m_latencyPointer, fields, spec, overlap);
        if (!ok) {
            c.dataMessages.add();
            c.lastDataMs.store(nowUs / 1000);
            m_stall.dataSeen();
            becomeLive(StreamState::Live, QStringLiteral("receiving data"));
            onDataDecodeFailed(data, len);
            return;
        }
        decoded = &fields;
        // The head scan finds heartbeats itself unless the venue leaves them to the decoder.
        if (m_heartbeats == HeadScanner::Heartbeats::LeaveToDecoder && m_venue->isHeartbeat(head, fields)) {
            onHeartbeatMessage(&fields);
            return;
        }
        if (m_venue->onNotice(link.id, fields)) {
            c.controlMessages.add();
            return;
        }
    } else if (!m_rawNotice.prefix.empty() && len > qsizetype(m_rawNotice.prefix.size())
               && data[m_rawNotice.probe] == m_rawNotice.prefix[m_rawNotice.probe]
               && std::memcmp(data, m_rawNotice.prefix.data(), m_rawNotice.prefix.size()) == 0) {
        // Raw mode decodes nothing, but a notice must still act (Binance: start a rollover).
        fields.eventType = m_rawNotice.eventType;
        if (m_venue->onNotice(link.id, fields)) {
            c.controlMessages.add();
            return;
        }
    }
    if (overlap && !m_rollover.accept(link.id, decoded, m_clock.monotonicMs())) {
        m_shared->venue.duplicates.add();
        return;
    }
    c.dataMessages.add();
    c.lastDataMs.store(nowUs / 1000);
    m_stall.dataSeen();
    if (decoded) {
        if (fields.eventTime >= m_minEventTime && fields.eventTime <= m_maxEventTime) {
            // Both times lie within a few centuries of the epoch: the difference fits.
            const auto latencyUs = qint64(double(nowUs) - double(fields.eventTime) * m_usPerUnit);
            m_shared->latency.record(latencyUs);
            m_eventTypes.record(m_eventTypes.slot(fields.eventType), fields.eventTime, latencyUs);
            m_clockTrack.observe(latencyUs);
            if (m_clockTrack.correcting())
                m_shared->latencyCorrected.record(latencyUs + m_clockTrack.offsetUs());
            latencyMs = double(latencyUs) / 1000.0;
        } else if (fields.eventTime != DecodedFields::kNone) {
            m_shared->latency.recordInvalid();
        }
        m_venue->onData(fields, m_rollover.checksSequence(link.id));
    } else {
        m_shared->venue.updates.add();
    }
    becomeLive(m_venue->liveState(), m_venue->liveReason());
}

void StreamSession::becomeLive(StreamState state, const QString &reason)
{
    if (m_state == state)
        return;
    if (state == StreamState::Live)
        m_liveSinceMs = m_clock.monotonicMs();
    setState(state, reason);
}

// A venue heartbeat: `fields` when the decoder read it (parsed mode), else null.
void StreamSession::onHeartbeatMessage(const DecodedFields *fields)
{
    m_shared->counters.heartbeats.add();
    m_venue->onHeartbeat(fields);
    if (m_state == StreamState::Stalled && m_venue->ownsFreshness())
        setState(m_venue->liveState(), QStringLiteral("heartbeats again"));
}

void StreamSession::onDataDecodeFailed(const char *data, qsizetype len)
{
    m_shared->counters.parseErrors.add();
    const QString error = m_decoder.lastError();
    // The bad message is kept as it came (the inspector copies it); what is shown is escaped.
    m_shared->setParseError(error, data, len);
    if (m_throttle.allow(EventKind::ParseError, m_clock.monotonicMs()))
        emitEvent(EventKind::ParseError,
                  QStringLiteral("%1: %2").arg(error, peerText(QByteArrayView(data, len), kQuotedChars)));
}

void StreamSession::routeResponse(Link &link, const HeadInfo &head, const char *data, qsizetype len)
{
    const bool isError = head.kind == MessageKind::Error;
    (isError ? m_shared->counters.errors : m_shared->counters.results).add();
    ResponseRecord record;
    record.receivedMs = m_clock.wallMs();
    record.requestId = peerText(QByteArrayView(head.id.data(), qsizetype(head.id.size())));
    record.body = QByteArray(data, len);
    m_requests.match(record, m_clock.monotonicMs());
    if (isError)
        emitEvent(EventKind::Response,
                  QStringLiteral("error response%1: %2")
                      .arg(record.requestId.isEmpty() ? QString() : QStringLiteral(" to request ") + record.requestId,
                           peerText(QByteArrayView(data, len), kQuotedChars)));
    const int linkId = link.id;
    m_shared->pushResponse(isError, record);
    // Last: the venue may fail or reconnect the stream, which retires this link.
    if (data[0] == '{')
        m_venue->onResponse(linkId, isError, record);
}

// ---- events ------------------------------------------------------------------------

void StreamSession::setRecorder(std::shared_ptr<CaptureRecorder> recorder)
{
    m_recorder = std::move(recorder);
    m_recordErrorsSeen = 0; // a new recorder counts its own
}

void StreamSession::setFlightRecorder(std::shared_ptr<FlightRecorder> flight)
{
    m_flight = std::move(flight);
    m_flightSavesSeen = m_flight ? m_flight->savedFiles() : 0;
    m_flightErrorsSeen = m_flight ? m_flight->saveErrors() : 0;
}

void StreamSession::record(const QString &name, const QJsonObject &fields)
{
    if (m_recorder)
        m_recorder->event(m_clock.wallUs(), name, fields);
    if (m_flight)
        m_flight->event(m_clock.wallUs(), name, fields);
}

void StreamSession::emitEvent(EventKind kind, const QString &text, int closeCode)
{
    StreamEvent e;
    e.stream = id();
    e.timeMs = m_clock.wallMs();
    e.kind = kind;
    e.state = m_state;
    e.closeCode = closeCode;
    e.text = peerText(text); // see setState()
    m_events.publish(e);
}

} // namespace streamscope
