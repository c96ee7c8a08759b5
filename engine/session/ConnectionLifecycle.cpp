#include "ConnectionLifecycle.h"

#include "BookKeeper.h"

#include "Clock.h"
#include "DurationText.h"
#include "ShardPlan.h"
#include "TickObservers.h"
#include "model/PeerText.h"
#include "model/RedactedUrl.h"
#include "transport/Transport.h"
#include "venues/VenueHandler.h"

#include <QtCore/QJsonObject>

#include <algorithm>
#include <vector>

namespace streamscope {

ConnectionLifecycle::ConnectionLifecycle(const StreamConfig &config, StreamShared &shared, const Clock &clock,
                                         ReceiveBuffer &buffer, TransportFactory transports, VenueHandler &venue,
                                         SessionStatus &status, TickObservers &observers, MessageRouter &router)
    : m_config(config)
    , m_shared(shared)
    , m_clock(clock)
    , m_buffer(buffer)
    , m_transports(std::move(transports))
    , m_venue(venue)
    , m_status(status)
    , m_observers(observers)
    , m_router(router)
    , m_admission(config, venue)
    , m_backoff(config.reconnectBaseMs, config.reconnectMaxMs)
    , m_reconnectTimer(this)
    , m_subscriptions(config.subscribe)
    // Commands asked for before this session existed (an edit replaces the session) are not its own.
    , m_commandsSeen(shared.commands.word())
{
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &ConnectionLifecycle::onReconnectDue);
    m_shared.venue.outgoingLimitPerS.store(m_venue.controlMessagesPerSecond());
}

// ---- commands ------------------------------------------------------------------------

void ConnectionLifecycle::start()
{
    m_observers.starting();
    m_backoff.reset();
    connectNow();
}

void ConnectionLifecycle::restart()
{
    start(); // a new connection, as a start makes one
}

bool ConnectionLifecycle::runCommands()
{
    const std::uint64_t word = m_shared.commands.word();
    if (word == m_commandsSeen)
        return false;
    m_commandsSeen = word;
    switch (StreamCommands::command(word)) {
    case StreamCommands::Command::Stop: stop(); break;
    case StreamCommands::Command::Restart: restart(); break;
    case StreamCommands::Command::None: break;
    }
    return true;
}

void ConnectionLifecycle::stop()
{
    m_observers.stopped();
    m_status.record(QStringLiteral("stopped"), {});
    dropConnections();
    m_reconnectTimer.stop();
    m_reconnectAtMs.reset();
    m_status.setState(StreamState::Stopped, QStringLiteral("stopped by user"));
}

void ConnectionLifecycle::fail(const QString &reason)
{
    m_observers.stopped();
    dropConnections();
    m_reconnectTimer.stop();
    m_reconnectAtMs.reset();
    m_status.setState(StreamState::Failed, reason);
}

void ConnectionLifecycle::stalled(const QString &reason)
{
    m_status.emitEvent(EventKind::Stalled, reason);
    if (m_config.reconnectOnStall) {
        scheduleReconnect(reason);
        return;
    }
    m_status.setState(StreamState::Stalled, reason);
}

void ConnectionLifecycle::changeLiveState(StreamState state, const QString &reason)
{
    if (state == StreamState::Live)
        m_liveSinceMs = m_clock.monotonicMs();
    m_status.setState(state, reason);
}

// ---- connections ----------------------------------------------------------------------

void ConnectionLifecycle::connectNow()
{
    dropConnections();
    m_reconnectTimer.stop();
    m_reconnectAtMs.reset();
    if (const QString problem = m_admission.configProblem(); !problem.isEmpty()) {
        fail(problem);
        return;
    }
    const qint64 now = m_clock.monotonicMs();
    m_connectStartedMs = now;
    const QString target = RedactedUrl::of(m_config.url).toDisplayString();
    m_status.setState(StreamState::Connecting, QStringLiteral("connecting to %1").arg(target));
    const QList<QStringList> shards =
        ShardPlan::split(m_subscriptions, m_venue.maxStreamsPerConnection(), m_venue.streamsNamedInUrl(m_config.url));
    int waiting = 0;
    qint64 lastSlotMs = now;
    for (int i = 0; i < int(shards.size()); ++i) {
        const Link *l = openLink(i, shards[i], false, true);
        if (l->pendingOpen.pending()) {
            ++waiting;
            lastSlotMs = std::max(lastSlotMs, l->pendingOpen.atMs());
            if (i == 0) // the stream's connect timeout runs from its first attempt
                m_connectStartedMs = l->pendingOpen.atMs();
        }
    }
    if (shards.size() > 1)
        m_status.emitEvent(
            EventKind::Info,
            QStringLiteral("%1 streams split over %2 connections").arg(m_subscriptions.size()).arg(shards.size()));
    if (waiting == 0 || m_status.state() != StreamState::Connecting)
        return;
    const QString wait = QStringLiteral("%1 of %2 connections wait for a connection slot, the last %3: %4")
                             .arg(waiting)
                             .arg(shards.size())
                             .arg(secondsText(lastSlotMs - now), m_admission.limitText());
    m_status.emitEvent(EventKind::Info, wait);
    if (m_connectStartedMs > now)
        m_status.setState(StreamState::Connecting,
                          QStringLiteral("connecting to %1 in %2 (%3)")
                              .arg(target, secondsText(m_connectStartedMs - now), m_admission.limitText()));
}

void ConnectionLifecycle::onReconnectDue()
{
    if (m_status.state() != StreamState::Reconnecting || !m_reconnectAtMs)
        return;
    const qint64 left = *m_reconnectAtMs - m_clock.monotonicMs();
    if (left > 0) {
        m_reconnectTimer.start(int(left)); // a timer may fire early against this clock
        return;
    }
    m_shared.counters.reconnects.add();
    connectNow();
}

Link *ConnectionLifecycle::openLink(int shard, const QStringList &streams, bool rollover, bool quiet)
{
    Link *l = &m_links.add(std::make_unique<Link>(&m_router, m_links.nextId(), shard, rollover));
    l->streams = streams;
    l->config = m_config;
    l->config.url = m_venue.shardUrl(m_config.url, shard);
    l->outbox.setLimit(m_venue.controlMessagesPerSecond());
    l->transport = m_transports(l->config, m_buffer, *l);
    l->outboxTimer = new QTimer;
    l->outboxTimer->setSingleShot(true);
    connect(l->outboxTimer, &QTimer::timeout, this, [this, l] { flushOutbox(*l); });
    connect(l->transport, &Transport::connected, this, [this, l] { onLinkConnected(*l); });
    connect(l->transport, &Transport::disconnected, this,
            [this, l](int closeCode, const QString &reason) { onLinkDisconnected(*l, closeCode, reason); });
    connect(l->transport, &Transport::pongReceived, this, [this, l] { l->watchdog.frame(m_clock.monotonicMs()); });
    // Under the venue's connection limit the attempt may have to wait for its slot.
    publishConnections();
    const qint64 now = m_clock.monotonicMs();
    const qint64 atMs = m_admission.admit(*l, now);
    if (atMs <= now)
        return l;
    if (!quiet && m_status.allow(EventKind::Info))
        m_status.emitEvent(EventKind::Info,
                           QStringLiteral("connection %1 waits %2 for a connection slot: %3")
                               .arg(shard + 1)
                               .arg(secondsText(atMs - now), m_admission.limitText()));
    return l;
}

void ConnectionLifecycle::dropConnections()
{
    m_links.retireAll();
    if (m_rollover.inProgress() || m_rollover.overlapping()) {
        m_rollover.reset();
        m_shared.venue.rolloverInProgress.store(false);
    }
    m_requests.clear();
    m_shared.venue.outgoingQueued.store(0);
    m_venue.onDisconnected();
    if (m_books)
        m_books->reset();
    publishConnections();
}

void ConnectionLifecycle::publishConnections()
{
    const QVector<ConnectionInfo> list = m_links.describe();
    const int count = int(m_subscriptions.size());
    m_shared.editVenue([&](VenueDetails &d) {
        d.connections = list;
        d.subscriptionCount = count;
    });
}

void ConnectionLifecycle::onLinkConnected(Link &link)
{
    const qint64 now = m_clock.monotonicMs();
    link.handshake.release(); // the next attempt may begin
    link.active = true;
    link.connectedWallMs = m_clock.wallMs();
    link.watchdog.connected(now);
    publishConnections();
    const StreamState state = m_status.state();
    const bool firstUp = state == StreamState::Connecting || state == StreamState::Reconnecting;
    const QString url = RedactedUrl::of(link.config.url).toDisplayString();
    m_status.record(QStringLiteral("connected"),
                    QJsonObject{{QStringLiteral("url"), RedactedUrl::of(link.config.url).toString()},
                                {QStringLiteral("shard"), link.shard},
                                {QStringLiteral("rollover"), link.rollover}});
    m_status.emitEvent(EventKind::Connected,
                       m_links.size() > 1 ? QStringLiteral("connected to %1 (connection %2%3)")
                                                .arg(url)
                                                .arg(link.shard + 1)
                                                .arg(link.rollover ? QStringLiteral(", rollover") : QString())
                                          : QStringLiteral("connected to %1").arg(url));
    if (!firstUp) {
        m_venue.onConnected(link.id, link.shard, link.rollover, link.streams);
        return;
    }
    m_stall.connected(now);
    m_observers.connected(now);
    m_liveSinceMs.reset();
    const bool sent = m_venue.onConnected(link.id, link.shard, link.rollover, link.streams);
    if (m_status.state() == StreamState::Failed)
        return;
    if (sent) {
        m_status.setState(StreamState::Subscribing, QStringLiteral("subscribing"));
    } else {
        m_status.setState(StreamState::Live, QStringLiteral("connected"));
        m_liveSinceMs = now;
    }
}

void ConnectionLifecycle::flushOutbox(Link &link)
{
    VenueCounters &v = m_shared.venue;
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

void ConnectionLifecycle::onLinkDisconnected(Link &link, int closeCode, const QString &reason)
{
    link.active = false;
    link.handshake.release();
    m_shared.setLastCloseCode(closeCode);
    // The reason is the peer's text: the transports escaped it, and SessionStatus escapes
    // whatever leaves the worker.
    const QString text = closeCode ? QStringLiteral("%1 (close code %2)").arg(reason).arg(closeCode) : reason;
    m_status.record(QStringLiteral("closed"),
                    QJsonObject{{QStringLiteral("code"), closeCode},
                                {QStringLiteral("reason"), peerText(reason)},
                                {QStringLiteral("shard"), link.shard}});
    m_status.emitEvent(EventKind::Disconnected, text, closeCode);
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

// A connection timed out or went silent: a replacement is abandoned, anything else
// reconnects the stream.
void ConnectionLifecycle::linkLost(Link &link, const QString &why)
{
    if (link.id == m_rollover.toId())
        abandonRollover(why);
    else
        scheduleReconnect(why);
}

void ConnectionLifecycle::scheduleReconnect(const QString &reason)
{
    dropConnections();
    const StreamState state = m_status.state();
    if (state == StreamState::Stopped || state == StreamState::Failed)
        return;
    const int delay = m_backoff.nextDelayMs();
    m_reconnectAtMs = m_clock.monotonicMs() + delay;
    m_status.setState(
        StreamState::Reconnecting,
        QStringLiteral("%1; reconnect attempt %2 in %3").arg(reason).arg(m_backoff.attempt()).arg(secondsText(delay)),
        m_clock.wallMs() + delay);
    m_status.record(QStringLiteral("reconnect"),
                    QJsonObject{{QStringLiteral("delay_ms"), delay},
                                {QStringLiteral("attempt"), m_backoff.attempt()},
                                {QStringLiteral("reason"), peerText(reason)}});
    m_status.emitEvent(EventKind::ReconnectScheduled,
                       QStringLiteral("reconnecting in %1 (attempt %2): %3")
                           .arg(secondsText(delay))
                           .arg(m_backoff.attempt())
                           .arg(reason));
    m_reconnectTimer.start(delay);
}

// ---- rollover ---------------------------------------------------------------------------

void ConnectionLifecycle::rollOver(int linkId, const QString &reason)
{
    if (m_rollover.inProgress() || !m_rollover.mayStart(m_clock.monotonicMs()))
        return; // one at a time, none right after a failed one; the age check starts the next one
    Link *from = m_links.byId(linkId);
    if (!from || !from->active || from->rollover)
        return;
    const int fromId = from->id;
    const int shard = from->shard;
    const QStringList streams = from->streams;
    m_rollover.prepare();
    const Link *to = openLink(shard, streams, true);
    m_rollover.begin(fromId, to->id);
    m_shared.venue.rolloverInProgress.store(true);
    m_status.record(QStringLiteral("rollover"),
                    QJsonObject{{QStringLiteral("step"), QStringLiteral("started")},
                                {QStringLiteral("shard"), shard},
                                {QStringLiteral("reason"), reason}});
    m_status.emitEvent(
        EventKind::Info,
        QStringLiteral("rollover of connection %1 started (%2): opening its replacement").arg(shard + 1).arg(reason));
}

void ConnectionLifecycle::finishRollover(const QString &why)
{
    Link *from = m_links.byId(m_rollover.fromId());
    Link *to = m_links.byId(m_rollover.toId());
    m_rollover.switchOver(m_clock.monotonicMs());
    if (to)
        to->rollover = false;
    if (from)
        m_links.retire(from);
    m_shared.venue.rollovers.add();
    m_status.record(QStringLiteral("rollover"),
                    QJsonObject{{QStringLiteral("step"), QStringLiteral("done")}, {QStringLiteral("reason"), why}});
    m_venue.onSwitchedOver();
    m_status.emitEvent(
        EventKind::Info,
        QStringLiteral("rollover done (%1): switched to the new connection, %2 duplicates dropped so far")
            .arg(why)
            .arg(m_shared.venue.duplicates.load()));
    if (m_rollover.afterMessage() == MakeBeforeBreak::Step::Settled) {
        m_rollover.reset();
        m_shared.venue.rolloverInProgress.store(false);
    }
    publishConnections();
}

void ConnectionLifecycle::abandonRollover(const QString &why)
{
    if (Link *to = m_links.byId(m_rollover.toId()))
        m_links.retire(to);
    m_rollover.abandon(m_clock.monotonicMs(), m_config.reconnectBaseMs, m_config.reconnectMaxMs);
    m_shared.venue.rolloverInProgress.store(false);
    m_status.record(
        QStringLiteral("rollover"),
        QJsonObject{{QStringLiteral("step"), QStringLiteral("abandoned")}, {QStringLiteral("reason"), why}});
    m_status.emitEvent(EventKind::Info, QStringLiteral("rollover abandoned, the old connection stays: %1").arg(why));
    publishConnections();
}

void ConnectionLifecycle::advanceRollover(MakeBeforeBreak::Step step, const QString &why)
{
    switch (step) {
    case MakeBeforeBreak::Step::SwitchOver: finishRollover(why); break;
    case MakeBeforeBreak::Step::Settled:
        m_rollover.reset();
        m_shared.venue.rolloverInProgress.store(false);
        break;
    case MakeBeforeBreak::Step::None: break;
    }
}

// ---- housekeeping ------------------------------------------------------------------------

bool ConnectionLifecycle::observe(qint64 nowMs)
{
    m_links.freeRetired();
    for (const auto &l : m_links.links())
        l->watchdog.observe(nowMs);
    return m_stall.observe(nowMs);
}

void ConnectionLifecycle::tick(qint64 nowMs)
{
    m_admission.openDue(m_links, nowMs);
    switch (m_status.state()) {
    case StreamState::Reconnecting: onReconnectDue(); return;
    case StreamState::Connecting:
        // A stream whose every connection waits for its attempt has not begun to connect.
        if (m_links.size() > 0 && std::all_of(m_links.links().begin(), m_links.links().end(), [](const auto &l) {
                return ConnectAdmission::waiting(*l);
            }))
            m_connectStartedMs = std::max(m_connectStartedMs, nowMs);
        if (nowMs - m_connectStartedMs > m_config.connectTimeoutMs)
            scheduleReconnect(QStringLiteral("no connection after %1").arg(secondsText(m_config.connectTimeoutMs)));
        return;
    case StreamState::Subscribing:
    case StreamState::Live:
    case StreamState::Stalled:
    case StreamState::Degraded: break;
    default: return;
    }
    if (!m_links.anyActive())
        return;

    // The venue's text keep-alive (OKX "ping"), else the transport's own ping.
    const QString textPing = m_venue.keepAlivePing();
    const ConnectionWatchdog::KeepAlive keepAlive = textPing.isEmpty() ? ConnectionWatchdog::KeepAlive::TransportPing
        : m_venue.keepAlivePeriodic()                                  ? ConnectionWatchdog::KeepAlive::TextPeriodic
                                                                       : ConnectionWatchdog::KeepAlive::TextOnSilence;
    for (std::size_t i = 0; i < m_links.size(); ++i) {
        Link &l = *m_links.links()[i];
        switch (l.watchdog.check(nowMs, m_config, l.transport && l.transport->hasPing(), keepAlive)) {
        case ConnectionWatchdog::Verdict::ConnectTimeout:
            linkLost(l,
                     QStringLiteral("connection %1: no connection after %2")
                         .arg(l.shard + 1)
                         .arg(secondsText(m_config.connectTimeoutMs)));
            return;
        case ConnectionWatchdog::Verdict::Dead:
            if (keepAlive == ConnectionWatchdog::KeepAlive::TextPeriodic && l.watchdog.pongWaitMs(nowMs) > 0
                && l.watchdog.silentMs(nowMs) <= m_config.pongTimeoutMs)
                linkLost(l,
                         QStringLiteral("no answer to the keep-alive ping for %1")
                             .arg(secondsText(l.watchdog.pongWaitMs(nowMs))));
            else
                linkLost(l, QStringLiteral("no frame or pong for %1").arg(secondsText(l.watchdog.silentMs(nowMs))));
            return;
        case ConnectionWatchdog::Verdict::PingDue:
            l.watchdog.pinged(nowMs);
            if (textPing.isEmpty() ? l.transport->ping() : l.transport->sendText(textPing)) {
                m_shared.venue.outgoingPings.add();
                l.outbox.notePing(nowMs);
            }
            break;
        case ConnectionWatchdog::Verdict::Ok:
        case ConnectionWatchdog::Verdict::Unknown: break;
        }
        if (l.active && l.outbox.queued() > 0)
            flushOutbox(l);
    }

    m_venue.onTick(nowMs);
    const StreamState state = m_status.state();
    if (state == StreamState::Failed || state == StreamState::Reconnecting || state == StreamState::Stopped)
        return;

    // Make-before-break: replace the oldest connection past the venue's age limit.
    if (const qint64 maxAge = m_venue.maxConnectionAgeMs(); maxAge > 0 && !m_rollover.inProgress()) {
        for (const auto &l : m_links.links()) {
            const qint64 age = nowMs - l->watchdog.connectedMs();
            if (l->active && !l->rollover && age >= maxAge) {
                rollOver(l->id,
                         QStringLiteral("connection age %1 reached the limit of %2")
                             .arg(secondsText(age), secondsText(maxAge)));
                break;
            }
        }
    }
    if (m_rollover.inProgress()) {
        const Link *to = m_links.byId(m_rollover.toId());
        const std::optional<qint64> toConnectedMs =
            to && to->active ? std::optional<qint64>(to->watchdog.connectedMs()) : std::nullopt;
        advanceRollover(m_rollover.onTick(nowMs, m_config.rolloverOverlapMaxMs, toConnectedMs),
                        QStringLiteral("overlap limit of %1 reached").arg(secondsText(m_config.rolloverOverlapMaxMs)));
    }

    if (!m_venue.ownsFreshness() && m_status.state() != StreamState::Stalled) {
        const StallWatchdog::Verdict v = m_stall.check(nowMs, m_config.stallTimeoutMs);
        if (v.stalled) {
            const StreamState now = m_status.state();
            const QString why = v.neverData ? QStringLiteral("no data since %1 %2 ago")
                                                  .arg(now == StreamState::Subscribing ? QStringLiteral("subscribing")
                                                                                       : QStringLiteral("connecting"),
                                                       secondsText(v.silentMs))
                                            : QStringLiteral("no data for %1").arg(secondsText(v.silentMs));
            stalled(why);
            if (m_status.state() != StreamState::Stalled)
                return;
        }
    }
    if (m_status.state() == StreamState::Live && m_liveSinceMs && m_backoff.attempt() > 0
        && nowMs - *m_liveSinceMs >= m_config.healthyResetMs)
        m_backoff.reset();
}

// The stream's unread bytes now: every connection's socket buffer and kernel queue.
qint64 ConnectionLifecycle::unreadBytes() const
{
    qint64 total = -1;
    for (const auto &l : m_links.links())
        if (l->transport && l->active)
            if (const qint64 n = l->transport->unreadBytes(); n >= 0)
                total = std::max<qint64>(total, 0) + n;
    return total;
}

} // namespace streamscope
