#include "StreamSession.h"

#include "core/EngineWorker.h"
#include "model/SecretStore.h"
#include "stats/StreamShared.h"
#include "protocol/MessageDecoder.h"
#include "transport/LineTransport.h"
#include "transport/WebSocketTransport.h"
#include "venues/VenueHandler.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QUrlQuery>

#include <chrono>
#include <cmath>
#include <cstring>

namespace streamscope {

namespace {

inline qint64 wallClockUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

inline qint64 nowMs()
{
    return wallClockUs() / 1000;
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', ms < 10000 ? 1 : 0) + QStringLiteral(" s");
}

// Streams named by a Binance URL itself (/ws/a/b or /stream?streams=a/b).
int streamsInUrl(const QUrl &url)
{
    const QString path = url.path();
    if (path.startsWith(QLatin1String("/ws/")))
        return int(path.mid(4).split(QLatin1Char('/'), Qt::SkipEmptyParts).size());
    return int(QUrlQuery(url).queryItemValue(QStringLiteral("streams")).split(QLatin1Char('/'), Qt::SkipEmptyParts).size());
}

} // namespace

// One connection of the stream. Its transport refers to `config`, so a link lives until
// its transport is gone (retired links are freed on the next tick).
struct StreamSession::Link final : public MessageSink {
    explicit Link(StreamSession &s) : session(s) {}
    virtual ~Link() { delete outboxTimer; }
    void onMessage(const char *data, qsizetype len, bool inScratch) override
    {
        session.onLinkMessage(*this, data, len, inScratch);
    }
    bool wantsHeadOnly() const override { return session.headOnly(); }
    bool onMessageHead(const char *head, qsizetype headLen, qsizetype messageBytes) override
    {
        return session.onLinkHead(*this, head, headLen, messageBytes);
    }

    StreamSession &session;
    int id = 0;
    int shard = 0;
    bool rollover = false; // a replacement not yet switched over to
    StreamConfig config;   // this connection's copy (its own URL)
    QStringList streams;   // Binance streams this connection carries
    Transport *transport = nullptr;
    bool active = false;
    bool delivered = false;
    qint64 connectStartedMs = 0;
    qint64 connectedMs = 0;
    qint64 lastMessageMs = 0;
    qint64 lastPingMs = 0;
    qint64 lastPongMs = 0;
    std::deque<QString> outbox;
    std::deque<qint64> sentTimesMs; // messages and pings sent within the last second
    QTimer *outboxTimer = nullptr;
};

StreamSession::StreamSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config, MessageDecoder &decoder,
                             EngineWorker &worker, QObject *parent)
    : QObject(parent)
    , m_shared(std::move(shared))
    , m_decoder(decoder)
    , m_worker(worker)
    , m_reconnectTimer(this)
    , m_backoff(config.reconnectBaseMs, config.reconnectMaxMs)
{
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, [this] {
        m_shared->counters.reconnects.add();
        connectNow();
    });
    updateConfig(config);
}

StreamSession::~StreamSession()
{
    dropConnection();
}

StreamId StreamSession::id() const
{
    return m_shared->id;
}

void StreamSession::updateConfig(const StreamConfig &config)
{
    m_config = config;
    m_subscriptions = config.subscribe;
    m_parsed = config.mode != DecodeMode::Raw;
    m_latencyPointer = config.latencyField.toStdString();
    m_usPerUnit = config.latencyField.isEmpty() ? 1000.0 : microsecondsPerUnit(config.latencyUnit);
    m_backoff = Backoff(config.reconnectBaseMs, config.reconnectMaxMs);
    m_venue = VenueHandler::create(m_config, *this);
    // Betfair's decoder reads "ct" anyway: the head scan need not look for heartbeats.
    m_heartbeats = m_parsed && m_venue->decodeProfile() == DecodeProfile::Betfair ? HeadScanner::Heartbeats::LeaveToDecoder
                                                                                  : HeadScanner::Heartbeats::Find;
    m_paceLimit = m_venue->controlMessagesPerSecond();
    m_shared->venue.outgoingLimitPerS.store(m_paceLimit);
}

// ---- commands ------------------------------------------------------------------------

void StreamSession::start()
{
    m_backoff.reset();
    connectNow();
}

void StreamSession::stop()
{
    dropConnection();
    m_reconnectTimer.stop();
    setState(StreamState::Stopped, QStringLiteral("stopped by user"));
}

void StreamSession::restart()
{
    dropConnection();
    m_reconnectTimer.stop();
    m_backoff.reset();
    connectNow();
}

void StreamSession::sendControl(const QString &method, const QStringList &params, qint64 requestId)
{
    const int perLink = m_venue->maxStreamsPerConnection();
    if (method == QLatin1String("SUBSCRIBE")) {
        QStringList fresh;
        for (const QString &p : params)
            if (!m_subscriptions.contains(p) && !fresh.contains(p))
                fresh << p;
        m_subscriptions << fresh;
        if (fresh.isEmpty()) {
            if (Link *l = shardLink(0); l && l->active)
                m_venue->sendControl(l->id, method, params, requestId);
            return;
        }
        bool first = true;
        while (!fresh.isEmpty()) {
            // The first shard with room takes what fits; the rest opens a new connection.
            Link *target = nullptr;
            int room = int(fresh.size());
            for (const auto &l : m_links) {
                if (l->rollover)
                    continue;
                const int capacity = perLink <= 0 ? int(fresh.size())
                                                  : perLink - int(l->streams.size())
                                                        - (l->shard == 0 ? streamsInUrl(m_config.url) : 0);
                if (capacity > 0) {
                    target = l.get();
                    room = std::min(room, capacity);
                    break;
                }
            }
            const QStringList part = fresh.mid(0, room);
            fresh = fresh.mid(room);
            if (!target) {
                int shard = 0;
                for (const auto &l : m_links)
                    shard = std::max(shard, l->shard + 1);
                if (m_state == StreamState::Stopped || m_state == StreamState::Failed || m_links.empty())
                    continue; // kept in m_subscriptions, distributed on the next connect
                openLink(shard, part, false);
                emitEvent(EventKind::Info, QStringLiteral("%1 more streams: opening connection %2 of the group")
                                               .arg(part.size())
                                               .arg(shard + 1));
                continue;
            }
            target->streams << part;
            if (target->active)
                m_venue->sendControl(target->id, method, part, first ? requestId : EngineWorker::nextRequestId());
            first = false;
            // A replacement being opened for this connection must carry the new streams too.
            if (Link *to = linkById(m_rollover.toId); to && m_rollover.fromId == target->id) {
                to->streams << part;
                if (to->active)
                    m_venue->sendControl(to->id, method, part, EngineWorker::nextRequestId());
            }
        }
        publishConnections();
        return;
    }
    if (method == QLatin1String("UNSUBSCRIBE")) {
        for (const QString &p : params)
            m_subscriptions.removeAll(p);
        // Each stream to the connection(s) carrying it; one none carries (named in the URL,
        // or unknown) to the first connection, which answers for it.
        QStringList unowned = params;
        for (const auto &l : m_links)
            for (const QString &p : std::as_const(l->streams))
                unowned.removeAll(p);
        bool first = true;
        for (const auto &l : m_links) {
            QStringList mine;
            for (const QString &p : params)
                if (l->streams.removeAll(p) > 0 || (l->shard == 0 && unowned.contains(p)))
                    mine << p;
            if (mine.isEmpty() || !l->active)
                continue;
            m_venue->sendControl(l->id, method, mine, first ? requestId : EngineWorker::nextRequestId());
            first = false;
        }
        publishConnections();
        return;
    }
    // LIST_SUBSCRIPTIONS and anything else: every connection of the group answers for itself.
    bool first = true;
    for (const auto &l : m_links) {
        if (!l->active || l->rollover)
            continue;
        m_venue->sendControl(l->id, method, params, first ? requestId : EngineWorker::nextRequestId());
        first = false;
    }
}

void StreamSession::sendRaw(const QString &text)
{
    Link *l = shardLink(0);
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
    Link *l = linkById(linkId);
    if (!l)
        return;
    if (!requestId.isEmpty())
        m_pending.insert(requestId, Pending{method, nowMs()});
    l->outbox.push_back(text);
    flushOutbox(*l, nowMs());
}

void StreamSession::event(EventKind kind, const QString &text)
{
    if (allowEvent(kind, nowMs()))
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
    if (m_rollover.toId != 0)
        return; // one at a time; the age check starts the next one
    Link *from = linkById(linkId);
    if (!from || !from->active || from->rollover)
        return;
    const int fromId = from->id;
    const int shard = from->shard;
    const QStringList streams = from->streams;
    m_dedupe.begin();
    Link *to = openLink(shard, streams, true);
    if (!to) {
        m_dedupe.end();
        return;
    }
    m_rollover = Rollover{};
    m_rollover.fromId = fromId;
    m_rollover.toId = to->id;
    m_rollover.startedMs = nowMs();
    m_rollover.reason = reason;
    m_shared->venue.rolloverInProgress.store(true);
    emitEvent(EventKind::Info, QStringLiteral("rollover of connection %1 started (%2): opening its replacement")
                                   .arg(shard + 1)
                                   .arg(reason));
}

// ---- connections ----------------------------------------------------------------------

StreamSession::Link *StreamSession::linkById(int linkId) const
{
    for (const auto &l : m_links)
        if (l->id == linkId)
            return l.get();
    return nullptr;
}

StreamSession::Link *StreamSession::shardLink(int shard) const
{
    for (const auto &l : m_links)
        if (l->shard == shard && !l->rollover)
            return l.get();
    return nullptr;
}

bool StreamSession::anyActive() const
{
    for (const auto &l : m_links)
        if (l->active)
            return true;
    return false;
}

QList<QStringList> StreamSession::shardStreams() const
{
    const int perLink = m_venue->maxStreamsPerConnection();
    QList<QStringList> shards;
    if (perLink <= 0) {
        shards << m_subscriptions;
        return shards;
    }
    int room = std::max(0, perLink - streamsInUrl(m_config.url));
    QStringList current;
    for (const QString &s : m_subscriptions) {
        if (int(current.size()) >= room) {
            shards << current;
            current.clear();
            room = perLink;
        }
        current << s;
    }
    shards << current;
    return shards;
}

QUrl StreamSession::shardUrl(int shard) const
{
    if (shard == 0)
        return m_config.url;
    // Further connections carry only their own SUBSCRIBEd share, not the URL's streams.
    QUrl url = m_config.url;
    QUrlQuery query(url);
    query.removeAllQueryItems(QStringLiteral("streams"));
    url.setQuery(query);
    if (url.path().startsWith(QLatin1String("/ws/")))
        url.setPath(QStringLiteral("/ws"));
    return url;
}

void StreamSession::connectNow()
{
    dropConnection();
    const QString scheme = m_config.url.scheme();
    if (!m_config.url.isValid() || m_config.url.host().isEmpty()) {
        fail(QStringLiteral("invalid URL '%1'").arg(m_config.url.toString()));
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
    m_connectStartedMs = nowMs();
    setState(StreamState::Connecting, QStringLiteral("connecting to %1").arg(m_config.url.toDisplayString()));
    const QList<QStringList> shards = shardStreams();
    for (int i = 0; i < int(shards.size()); ++i)
        openLink(i, shards[i], false);
    if (shards.size() > 1)
        emitEvent(EventKind::Info, QStringLiteral("%1 streams split over %2 connections")
                                       .arg(m_subscriptions.size())
                                       .arg(shards.size()));
}

StreamSession::Link *StreamSession::openLink(int shard, const QStringList &streams, bool rollover)
{
    auto link = std::make_unique<Link>(*this);
    Link *l = link.get();
    l->id = m_nextLinkId++;
    l->shard = shard;
    l->rollover = rollover;
    l->streams = streams;
    l->config = m_config;
    l->config.url = shardUrl(shard);
    const QString scheme = l->config.url.scheme();
    if (scheme == QLatin1String("ws") || scheme == QLatin1String("wss"))
        l->transport = new WebSocketTransport(l->config, m_decoder, *l);
    else
        l->transport = new LineTransport(l->config, m_decoder, *l);
    l->outboxTimer = new QTimer;
    l->outboxTimer->setSingleShot(true);
    connect(l->outboxTimer, &QTimer::timeout, this, [this, l] { flushOutbox(*l, nowMs()); });
    connect(l->transport, &Transport::connected, this, [this, l] { onLinkConnected(*l); });
    connect(l->transport, &Transport::disconnected, this,
            [this, l](int closeCode, const QString &reason) { onLinkDisconnected(*l, closeCode, reason); });
    connect(l->transport, &Transport::pongReceived, this, [l] { l->lastPongMs = nowMs(); });
    l->connectStartedMs = nowMs();
    m_links.push_back(std::move(link));
    publishConnections();
    l->transport->open();
    return l;
}

void StreamSession::retireLink(Link *l)
{
    l->active = false;
    l->outboxTimer->stop();
    if (l->transport) {
        l->transport->disconnect(this);
        l->transport->abort();
        l->transport->deleteLater();
        l->transport = nullptr;
    }
    for (auto it = m_links.begin(); it != m_links.end(); ++it) {
        if (it->get() == l) {
            m_retired.push_back(std::move(*it));
            m_links.erase(it);
            break;
        }
    }
}

void StreamSession::dropConnection()
{
    while (!m_links.empty())
        retireLink(m_links.front().get());
    if (m_rollover.toId != 0 || m_dedupe.active()) {
        m_rollover = Rollover{};
        m_dedupe.end();
        m_shared->venue.rolloverInProgress.store(false);
    }
    m_pending.clear();
    m_shared->venue.outgoingQueued.store(0);
    if (m_venue)
        m_venue->onDisconnected();
    publishConnections();
}

void StreamSession::publishConnections()
{
    QVector<ConnectionInfo> list;
    for (const auto &l : m_links) {
        ConnectionInfo info;
        info.shard = l->shard;
        info.rollover = l->rollover;
        info.connected = l->active;
        info.connectedSinceMs = l->connectedMs;
        info.subscriptions = int(l->streams.size());
        info.url = l->config.url.toDisplayString();
        list << info;
    }
    const int count = int(m_subscriptions.size());
    m_shared->editVenue([&](VenueDetails &d) {
        d.connections = list;
        d.subscriptionCount = count;
    });
}

void StreamSession::onLinkConnected(Link &link)
{
    const qint64 now = nowMs();
    link.active = true;
    link.connectedMs = now;
    link.lastPongMs = now;
    link.lastPingMs = now;
    link.lastMessageMs = now;
    publishConnections();
    const bool firstUp = m_state == StreamState::Connecting || m_state == StreamState::Reconnecting;
    emitEvent(EventKind::Connected, m_links.size() > 1
                                        ? QStringLiteral("connected to %1 (connection %2%3)")
                                              .arg(link.config.url.toDisplayString())
                                              .arg(link.shard + 1)
                                              .arg(link.rollover ? QStringLiteral(", rollover") : QString())
                                        : QStringLiteral("connected to %1").arg(link.config.url.toDisplayString()));
    if (!firstUp) {
        m_venue->onConnected(link.id, link.shard, link.rollover, link.streams);
        return;
    }
    m_connectedMs = now;
    m_liveSinceMs = 0;
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

void StreamSession::flushOutbox(Link &link, qint64 now)
{
    VenueCounters &v = m_shared->venue;
    while (!link.outbox.empty() && link.transport && link.active) {
        if (m_paceLimit > 0) {
            // The venue counts on its own clock: a window of 1.1 s leaves room for jitter
            // in delivery, so that two bursts never land within one of the venue's seconds.
            constexpr qint64 kWindowMs = 1100;
            while (!link.sentTimesMs.empty() && now - link.sentTimesMs.front() >= kWindowMs)
                link.sentTimesMs.pop_front();
            // Keep one slot free for pongs within the venue's per-second limit.
            if (int(link.sentTimesMs.size()) >= m_paceLimit - 1) {
                link.outboxTimer->start(int(std::max<qint64>(1, kWindowMs - (now - link.sentTimesMs.front()))));
                break;
            }
            link.sentTimesMs.push_back(now);
            v.outgoingPeakPerS.store(std::max(v.outgoingPeakPerS.load(), int(link.sentTimesMs.size())));
        }
        link.transport->sendText(link.outbox.front());
        link.outbox.pop_front();
        v.outgoingMessages.add();
    }
    int queued = 0;
    for (const auto &l : m_links)
        queued += int(l->outbox.size());
    v.outgoingQueued.store(queued);
}

void StreamSession::onLinkDisconnected(Link &link, int closeCode, const QString &reason)
{
    link.active = false;
    m_shared->setLastCloseCode(closeCode);
    const QString text = closeCode ? QStringLiteral("%1 (close code %2)").arg(reason).arg(closeCode) : reason;
    emitEvent(EventKind::Disconnected, text, closeCode);
    if (link.id == m_rollover.toId && !m_dedupe.switched()) {
        abandonRollover(QStringLiteral("replacement connection closed: ") + text);
        return;
    }
    if (link.id == m_rollover.fromId && m_rollover.toId != 0) {
        Link *to = linkById(m_rollover.toId);
        if (to && to->active) {
            finishRollover(QStringLiteral("old connection closed: ") + text);
            return;
        }
    }
    scheduleReconnect(text);
}

void StreamSession::finishRollover(const QString &why)
{
    Link *from = linkById(m_rollover.fromId);
    Link *to = linkById(m_rollover.toId);
    m_dedupe.switchOver();
    if (to)
        to->rollover = false;
    if (from)
        retireLink(from);
    m_rollover.fromId = 0;
    m_rollover.switchedMs = nowMs();
    m_shared->venue.rollovers.add();
    m_venue->onSwitchedOver();
    emitEvent(EventKind::Info, QStringLiteral("rollover done (%1): switched to the new connection, %2 duplicates dropped so far")
                                   .arg(why)
                                   .arg(m_shared->venue.duplicates.load()));
    if (m_dedupe.settled()) {
        m_dedupe.end();
        m_rollover = Rollover{};
        m_shared->venue.rolloverInProgress.store(false);
    }
    publishConnections();
}

void StreamSession::abandonRollover(const QString &why)
{
    if (Link *to = linkById(m_rollover.toId))
        retireLink(to);
    m_rollover = Rollover{};
    m_dedupe.end();
    m_shared->venue.rolloverInProgress.store(false);
    emitEvent(EventKind::Info, QStringLiteral("rollover abandoned, the old connection stays: %1").arg(why));
    publishConnections();
}

void StreamSession::scheduleReconnect(const QString &reason)
{
    dropConnection();
    if (m_state == StreamState::Stopped || m_state == StreamState::Failed)
        return;
    m_lastDisconnectReason = reason;
    const int delay = m_backoff.nextDelayMs();
    const qint64 at = nowMs() + delay;
    setState(StreamState::Reconnecting,
             QStringLiteral("%1; reconnect attempt %2 in %3").arg(reason).arg(m_backoff.attempt()).arg(seconds(delay)),
             at);
    emitEvent(EventKind::ReconnectScheduled,
              QStringLiteral("reconnecting in %1 (attempt %2): %3").arg(seconds(delay)).arg(m_backoff.attempt()).arg(reason));
    m_reconnectTimer.start(delay);
}

void StreamSession::fail(const QString &reason)
{
    dropConnection();
    m_reconnectTimer.stop();
    setState(StreamState::Failed, reason);
}

void StreamSession::setState(StreamState state, const QString &reason, qint64 nextRetryAtMs)
{
    m_state = state;
    m_shared->setState(state, reason, nowMs(), nextRetryAtMs);
    StreamEvent e;
    e.stream = id();
    e.timeMs = nowMs();
    e.kind = EventKind::StateChanged;
    e.state = state;
    e.text = reason;
    m_worker.publish(e);
}

// ---- housekeeping ------------------------------------------------------------------------

void StreamSession::tick(qint64 now)
{
    m_retired.clear();
    switch (m_state) {
    case StreamState::Connecting:
        if (now - m_connectStartedMs > m_config.connectTimeoutMs)
            scheduleReconnect(QStringLiteral("no connection after %1").arg(seconds(m_config.connectTimeoutMs)));
        return;
    case StreamState::Subscribing:
    case StreamState::Live:
    case StreamState::Stalled:
    case StreamState::Degraded:
        break;
    default:
        return;
    }
    if (!anyActive())
        return;

    for (std::size_t i = 0; i < m_links.size(); ++i) {
        Link &l = *m_links[i];
        if (!l.active) {
            if (now - l.connectStartedMs <= m_config.connectTimeoutMs)
                continue;
            const QString why = QStringLiteral("connection %1: no connection after %2").arg(l.shard + 1).arg(seconds(m_config.connectTimeoutMs));
            if (l.id == m_rollover.toId)
                abandonRollover(why);
            else
                scheduleReconnect(why);
            return;
        }
        const qint64 lastFrame = std::max(l.lastMessageMs, l.lastPongMs);
        if (m_config.pongTimeoutMs > 0 && now - lastFrame > m_config.pongTimeoutMs) {
            const QString why = QStringLiteral("no frame or pong for %1").arg(seconds(now - lastFrame));
            if (l.id == m_rollover.toId)
                abandonRollover(why);
            else
                scheduleReconnect(why);
            return;
        }
        if (m_config.pingIntervalMs > 0 && now - l.lastPingMs >= m_config.pingIntervalMs) {
            l.lastPingMs = now;
            if (l.transport->ping()) {
                m_shared->venue.outgoingPings.add();
                if (m_paceLimit > 0)
                    l.sentTimesMs.push_back(now);
            }
        }
    }

    m_venue->onTick(now, m_shared->counters.lastMessageMs.load());
    if (m_state == StreamState::Failed || m_state == StreamState::Reconnecting || m_state == StreamState::Stopped)
        return;

    // Make-before-break: replace the oldest connection past the venue's age limit.
    if (const qint64 maxAge = m_venue->maxConnectionAgeMs(); maxAge > 0 && m_rollover.toId == 0) {
        for (const auto &l : m_links) {
            if (l->active && !l->rollover && now - l->connectedMs >= maxAge) {
                rollOver(l->id, QStringLiteral("connection age %1 reached the limit of %2").arg(seconds(now - l->connectedMs), seconds(maxAge)));
                break;
            }
        }
    }
    if (m_rollover.toId != 0) {
        const qint64 overlapMax = m_config.rolloverOverlapMaxMs;
        if (!m_dedupe.switched()) {
            Link *to = linkById(m_rollover.toId);
            const qint64 since = m_rollover.firstDataMs ? m_rollover.firstDataMs : (to && to->active ? to->connectedMs : 0);
            if (since && now - since > overlapMax)
                finishRollover(QStringLiteral("overlap limit of %1 reached").arg(seconds(overlapMax)));
        } else if (now - m_rollover.switchedMs > overlapMax) {
            m_dedupe.end();
            m_rollover = Rollover{};
            m_shared->venue.rolloverInProgress.store(false);
        }
    }

    if (!m_venue->ownsFreshness()) {
        const qint64 lastData = std::max<qint64>(m_shared->counters.lastDataMs.load(), m_connectedMs);
        if (m_state != StreamState::Stalled && now - lastData > m_config.stallTimeoutMs) {
            const bool never = m_shared->counters.lastDataMs.load() < m_connectedMs;
            const QString why = never ? QStringLiteral("no data since %1 %2 ago")
                                            .arg(m_state == StreamState::Subscribing ? QStringLiteral("subscribing")
                                                                                     : QStringLiteral("connecting"),
                                                 seconds(now - m_connectedMs))
                                      : QStringLiteral("no data for %1").arg(seconds(now - lastData));
            venueStalled(why);
            if (m_state != StreamState::Stalled)
                return;
        }
    }
    if (m_state == StreamState::Live && m_liveSinceMs && m_backoff.attempt() > 0
        && now - m_liveSinceMs >= m_config.healthyResetMs)
        m_backoff.reset();
}

// ---- hot path ------------------------------------------------------------------------

void StreamSession::onMessage(const char *data, qsizetype len, bool inScratch)
{
    if (!m_links.empty())
        onLinkMessage(*m_links.front(), data, len, inScratch);
}

bool StreamSession::acceptData(Link &link, const DecodedFields *fields)
{
    const bool isOld = link.id == m_rollover.fromId;
    const bool isNew = link.id == m_rollover.toId;
    if (!isOld && !isNew)
        return true; // another shard of the group
    if (isNew && !m_rollover.firstDataMs)
        m_rollover.firstDataMs = nowMs();
    if (!fields)
        return isOld ? !m_dedupe.switched() : m_dedupe.switched();
    return isOld ? m_dedupe.acceptOld(*fields) : m_dedupe.acceptNew(*fields);
}

bool StreamSession::headOnly() const
{
    // A rollover's de-duplication and an inspector need the whole message.
    return !m_parsed && !m_dedupe.active() && !m_shared->inspecting.load(std::memory_order_relaxed);
}

bool StreamSession::onLinkHead(Link &link, const char *head, qsizetype headLen, qsizetype len)
{
    const HeadInfo info = HeadScanner::scan(head, headLen, m_heartbeats);
    if (info.kind != MessageKind::Data && info.kind != MessageKind::Unknown)
        return false; // a response: its text is kept whole
    handleMessage(link, head, len, headLen, true, info);
    return true;
}

void StreamSession::onLinkMessage(Link &link, const char *data, qsizetype len, bool inScratch)
{
    handleMessage(link, data, len, len, inScratch, HeadScanner::scan(data, len, m_heartbeats));
}

// `available` bytes of the message's `len` are at `data`: all of them, or the head only
// (headOnly(): raw mode, which reads no further).
void StreamSession::handleMessage(Link &link, const char *data, qsizetype len, qsizetype available, bool inScratch,
                                  const HeadInfo &head)
{
    Q_ASSERT(available == len || !m_parsed);
    if (!link.active)
        return;
    const qint64 nowUs = wallClockUs();
    const qint64 now = nowUs / 1000;
    StreamCounters &c = m_shared->counters;
    c.messages.add();
    c.bytes.add(std::uint64_t(len));
    c.lastMessageMs.store(now);
    link.lastMessageMs = now;

    double latencyMs = qQNaN();
    switch (head.kind) {
    case MessageKind::Data:
    case MessageKind::Unknown: {
        DecodedFields fields;
        const DecodedFields *decoded = nullptr;
        if (m_parsed) {
            const DecodeProfile profile = m_venue->decodeProfile();
            const bool ok = inScratch ? m_decoder.decode(std::size_t(len), m_latencyPointer, fields, profile)
                                      : m_decoder.decodeCopy(data, std::size_t(len), m_latencyPointer, fields, profile);
            if (!ok) {
                c.dataMessages.add();
                c.lastDataMs.store(now);
                if (m_state != StreamState::Live) {
                    m_liveSinceMs = now;
                    setState(StreamState::Live, QStringLiteral("receiving data"));
                }
                onDataDecodeFailed(data, len, now);
                break;
            }
            decoded = &fields;
            if (head.changeMessage && fields.changeType == "HEARTBEAT") {
                onHeartbeatMessage(&fields, now);
                break;
            }
            if (m_venue->onNotice(link.id, fields, now)) {
                c.controlMessages.add();
                break;
            }
        } else if (data[0] == '{' && len > 27 && data[11] == '!'
                   && std::memcmp(data, "{\"stream\":\"!serverShutdown\"", 27) == 0) {
            // Raw mode decodes nothing, but the notice must still start a rollover.
            fields.eventType = "serverShutdown";
            if (m_venue->onNotice(link.id, fields, now)) {
                c.controlMessages.add();
                break;
            }
        }
        const bool overlap = m_dedupe.active();
        if (overlap && !acceptData(link, decoded)) {
            m_shared->venue.duplicates.add();
            break;
        }
        c.dataMessages.add();
        c.lastDataMs.store(now);
        link.delivered = true;
        if (decoded) {
            if (fields.eventTime != DecodedFields::kNone) {
                const auto latencyUs = qint64(double(nowUs) - double(fields.eventTime) * m_usPerUnit);
                m_shared->latency.record(latencyUs);
                latencyMs = double(latencyUs) / 1000.0;
            }
            // While two connections overlap their sequences interleave: only one is checked.
            const bool checkSequence = !overlap || m_dedupe.switched() || link.id == m_rollover.fromId;
            m_venue->onData(fields, now, checkSequence);
        } else {
            m_shared->venue.updates.add();
        }
        if (const StreamState want = m_venue->liveState(); m_state != want) {
            if (want == StreamState::Live)
                m_liveSinceMs = now;
            setState(want, m_venue->liveReason());
        }
        break;
    }
    case MessageKind::Heartbeat:
        onHeartbeatMessage(nullptr, now);
        break;
    case MessageKind::Connection:
        c.controlMessages.add();
        m_venue->onConnectionMessage(link.id, data, len);
        break;
    case MessageKind::Result:
    case MessageKind::Error:
        routeResponse(link, head, data, len, now);
        break;
    }
    // An inspector opened while the head of this message was read sees the next one.
    if (m_shared->inspecting.load(std::memory_order_relaxed) && available == len)
        m_shared->inspect(now, latencyMs, data, len);
    if (m_dedupe.active()) {
        if (!m_dedupe.switched()) {
            if (m_dedupe.caughtUp())
                finishRollover(QStringLiteral("the old connection caught up with the new one"));
        } else if (m_dedupe.settled()) {
            m_dedupe.end();
            m_rollover = Rollover{};
            m_shared->venue.rolloverInProgress.store(false);
        }
    }
}

// A Betfair heartbeat: `fields` when the decoder read it (parsed mode), else null.
void StreamSession::onHeartbeatMessage(const DecodedFields *fields, qint64 now)
{
    m_shared->counters.heartbeats.add();
    m_venue->onHeartbeat(fields, now);
    if (m_state == StreamState::Stalled && m_venue->ownsFreshness())
        setState(m_venue->liveState(), QStringLiteral("heartbeats again"));
}

void StreamSession::onDataDecodeFailed(const char *data, qsizetype len, qint64 now)
{
    m_shared->counters.parseErrors.add();
    const QString error = m_decoder.lastError();
    m_shared->setParseError(error, data, len);
    if (allowEvent(EventKind::ParseError, now))
        emitEvent(EventKind::ParseError,
                  QStringLiteral("bad JSON (%1): %2").arg(error, QString::fromUtf8(data, std::min<qsizetype>(len, 200))));
}

void StreamSession::routeResponse(Link &link, const HeadInfo &head, const char *data, qsizetype len, qint64 now)
{
    const bool isError = head.kind == MessageKind::Error;
    (isError ? m_shared->counters.errors : m_shared->counters.results).add();
    ResponseRecord record;
    record.receivedMs = now;
    record.requestId = QString::fromUtf8(head.id.data(), qsizetype(head.id.size()));
    record.body = QByteArray(data, len);
    if (const auto it = m_pending.constFind(record.requestId); !record.requestId.isEmpty() && it != m_pending.constEnd()) {
        record.method = it->method;
        record.roundTripMs = now - it->sentMs;
        m_pending.erase(it);
    }
    if (isError)
        emitEvent(EventKind::Response,
                  QStringLiteral("error response%1: %2")
                      .arg(record.requestId.isEmpty() ? QString() : QStringLiteral(" to request ") + record.requestId,
                           QString::fromUtf8(data, std::min<qsizetype>(len, 300))));
    const int linkId = link.id;
    m_shared->pushResponse(isError, record);
    // Last: the venue may fail or reconnect the stream, which retires this link.
    if (data[0] == '{')
        m_venue->onResponse(linkId, isError, record);
}

// ---- events ------------------------------------------------------------------------

bool StreamSession::allowEvent(EventKind kind, qint64 now)
{
    // At most ten events of one kind a second per stream; the counters keep the exact numbers.
    qint64 &last = m_lastEventMs[std::size_t(kind) % m_lastEventMs.size()];
    if (now - last < 100)
        return false;
    last = now;
    return true;
}

void StreamSession::emitEvent(EventKind kind, const QString &text, int closeCode)
{
    StreamEvent e;
    e.stream = id();
    e.timeMs = nowMs();
    e.kind = kind;
    e.state = m_state;
    e.closeCode = closeCode;
    e.text = text;
    m_worker.publish(e);
}

} // namespace streamscope
