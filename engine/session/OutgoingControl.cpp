#include "OutgoingControl.h"

#include "Clock.h"
#include "ConnectionLifecycle.h"
#include "SessionStatus.h"
#include "protocol/RequestIds.h"
#include "venues/VenueHandler.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope {

OutgoingControl::OutgoingControl(const StreamConfig &config, const Clock &clock, VenueHandler &venue,
                                 SessionStatus &status, ConnectionLifecycle &lifecycle)
    : m_config(config)
    , m_clock(clock)
    , m_venue(venue)
    , m_status(status)
    , m_lifecycle(lifecycle)
{
}

void OutgoingControl::sendControl(const QString &method, const QStringList &params, qint64 requestId)
{
    ConnectionGroup &links = m_lifecycle.links();
    if (method == QLatin1String("SUBSCRIBE")) {
        subscribe(params, requestId);
        return;
    }
    if (method == QLatin1String("UNSUBSCRIBE")) {
        QStringList &subscriptions = m_lifecycle.subscriptions();
        for (const QString &p : params)
            subscriptions.removeAll(p);
        bool first = true;
        for (const auto &[l, mine] : links.takeStreams(params)) {
            if (!l->active)
                continue;
            m_venue.sendControl(l->id, method, mine, first ? requestId : nextRequestId());
            first = false;
        }
        m_lifecycle.publishConnections();
        return;
    }
    // LIST_SUBSCRIPTIONS and anything else: every connection of the group answers for itself.
    bool first = true;
    for (const auto &l : links.links()) {
        if (!l->active || l->rollover)
            continue;
        m_venue.sendControl(l->id, method, params, first ? requestId : nextRequestId());
        first = false;
    }
}

void OutgoingControl::subscribe(const QStringList &params, qint64 requestId)
{
    const QString method = QStringLiteral("SUBSCRIBE");
    ConnectionGroup &links = m_lifecycle.links();
    QStringList &subscriptions = m_lifecycle.subscriptions();
    QStringList fresh;
    for (const QString &p : params)
        if (!subscriptions.contains(p) && !fresh.contains(p))
            fresh << p;
    subscriptions << fresh;
    if (fresh.isEmpty()) {
        if (Link *l = links.serving(0); l && l->active)
            m_venue.sendControl(l->id, method, params, requestId);
        return;
    }
    const int perLink = m_venue.maxStreamsPerConnection();
    const int namedInUrl = m_venue.streamsNamedInUrl(m_config.url);
    const MakeBeforeBreak &rollover = m_lifecycle.rollover();
    bool first = true;
    while (!fresh.isEmpty()) {
        // The first shard with room takes what fits; the rest opens a new connection.
        int room = 0;
        Link *target = links.withRoom(perLink, namedInUrl, int(fresh.size()), &room);
        const QStringList part = fresh.mid(0, room);
        fresh = fresh.mid(room);
        if (!target) {
            const int shard = links.nextShard();
            const StreamState state = m_status.state();
            if (state == StreamState::Stopped || state == StreamState::Failed || links.empty())
                continue; // kept in the subscriptions, distributed on the next connect
            m_lifecycle.openLink(shard, part, false);
            m_status.emitEvent(
                EventKind::Info,
                QStringLiteral("%1 more streams: opening connection %2 of the group").arg(part.size()).arg(shard + 1));
            continue;
        }
        target->streams << part;
        if (target->active)
            m_venue.sendControl(target->id, method, part, first ? requestId : nextRequestId());
        first = false;
        // A replacement being opened for this connection must carry the new streams too.
        if (Link *to = links.byId(rollover.toId()); to && rollover.fromId() == target->id) {
            to->streams << part;
            if (to->active)
                m_venue.sendControl(to->id, method, part, nextRequestId());
        }
    }
    m_lifecycle.publishConnections();
}

void OutgoingControl::sendRaw(const QString &text)
{
    Link *l = m_lifecycle.links().serving(0);
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

void OutgoingControl::sendOn(int linkId, const QString &text, const QString &method, const QString &requestId)
{
    Link *l = m_lifecycle.links().byId(linkId);
    if (!l)
        return;
    if (!requestId.isEmpty())
        m_lifecycle.requests().track(requestId, method, m_clock.monotonicMs());
    if (m_status.recording()) {
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
        m_status.record(control ? method.toLower() : QStringLiteral("sent"), o);
    }
    l->outbox.enqueue(text);
    m_lifecycle.flushOutbox(*l);
}

} // namespace streamscope
