#include "ConnectionGroup.h"

#include "ShardPlan.h"
#include "model/RedactedUrl.h"

#include <QtCore/QTimer>

#include <algorithm>

namespace streamscope {

Link &ConnectionGroup::add(std::unique_ptr<Link> link)
{
    m_links.push_back(std::move(link));
    return *m_links.back();
}

void ConnectionGroup::retire(Link *l)
{
    l->active = false;
    l->pendingOpen.release();
    l->handshake.release();
    l->awaitingHandshake = false;
    if (l->outboxTimer)
        l->outboxTimer->stop();
    if (l->transport) {
        l->transport->disconnect(); // no signal of it reaches the session any more
        l->transport->abort();
        l->transport->deleteLater();
        l->transport = nullptr;
    }
    const auto it = std::find_if(m_links.begin(), m_links.end(), [l](const auto &p) { return p.get() == l; });
    if (it != m_links.end()) {
        m_retired.push_back(std::move(*it));
        m_links.erase(it);
    }
}

void ConnectionGroup::retireAll()
{
    while (!m_links.empty())
        retire(m_links.front().get());
}

Link *ConnectionGroup::byId(int id) const
{
    for (const auto &l : m_links)
        if (l->id == id)
            return l.get();
    return nullptr;
}

Link *ConnectionGroup::serving(int shard) const
{
    for (const auto &l : m_links)
        if (l->shard == shard && !l->rollover)
            return l.get();
    return nullptr;
}

bool ConnectionGroup::anyActive() const
{
    return std::any_of(m_links.begin(), m_links.end(), [](const auto &l) { return l->active; });
}

int ConnectionGroup::nextShard() const
{
    int shard = 0;
    for (const auto &l : m_links)
        shard = std::max(shard, l->shard + 1);
    return shard;
}

int ConnectionGroup::queuedMessages() const
{
    int queued = 0;
    for (const auto &l : m_links)
        queued += l->outbox.queued();
    return queued;
}

QVector<ConnectionInfo> ConnectionGroup::describe() const
{
    QVector<ConnectionInfo> list;
    list.reserve(qsizetype(m_links.size()));
    for (const auto &l : m_links) {
        ConnectionInfo info;
        info.shard = l->shard;
        info.rollover = l->rollover;
        info.connected = l->active;
        info.connectedSinceMs = l->connectedWallMs;
        info.subscriptions = int(l->streams.size());
        info.url = RedactedUrl::of(l->config.url);
        list << info;
    }
    return list;
}

Link *ConnectionGroup::withRoom(int perConnection, int namedInUrl, int wanted, int *room) const
{
    // None with room: a new connection takes at most what one connection may carry.
    *room = perConnection > 0 ? std::min(wanted, perConnection) : wanted;
    for (const auto &l : m_links) {
        if (l->rollover)
            continue;
        const int capacity = ShardPlan::room(perConnection, l->shard, int(l->streams.size()), namedInUrl, wanted);
        if (capacity > 0) {
            *room = std::min(wanted, capacity);
            return l.get();
        }
    }
    return nullptr;
}

QList<QPair<Link *, QStringList>> ConnectionGroup::takeStreams(const QStringList &streams)
{
    QStringList unowned = streams;
    for (const auto &l : m_links)
        for (const QString &s : std::as_const(l->streams))
            unowned.removeAll(s);
    QList<QPair<Link *, QStringList>> out;
    for (const auto &l : m_links) {
        QStringList mine;
        for (const QString &s : streams)
            if (l->streams.removeAll(s) > 0 || (l->shard == 0 && unowned.contains(s)))
                mine << s;
        if (!mine.isEmpty())
            out.append({l.get(), mine});
    }
    return out;
}

} // namespace streamscope
