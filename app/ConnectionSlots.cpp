#include "ConnectionSlots.h"

#include <QtCore/QHash>

#include <algorithm>

namespace streamscope::app {

ConnectionSlots::ConnectionSlots(const HttpServerLimits &limits)
    : m_limits(limits)
{
}

void ConnectionSlots::add(Id id, const QByteArray &peer)
{
    m_entries.append(Entry{id, peer, m_nextOrder++, false});
}

void ConnectionSlots::setBusy(Id id, bool busy)
{
    for (Entry &e : m_entries)
        if (e.id == id)
            e.busy = busy;
}

void ConnectionSlots::remove(Id id)
{
    m_entries.removeIf([id](const Entry &e) { return e.id == id; });
}

int ConnectionSlots::waiting() const
{
    return int(std::count_if(m_entries.begin(), m_entries.end(), [](const Entry &e) { return !e.busy; }));
}

ConnectionSlots::Id ConnectionSlots::oldestWaiting(const QByteArray *peer) const
{
    const Entry *oldest = nullptr;
    for (const Entry &e : m_entries)
        if (!e.busy && (!peer || e.peer == *peer) && (!oldest || e.order < oldest->order))
            oldest = &e;
    return oldest ? oldest->id : 0;
}

ConnectionSlots::Id ConnectionSlots::newest(const QByteArray *peer) const
{
    const Entry *newest = nullptr;
    for (const Entry &e : m_entries)
        if ((!peer || e.peer == *peer) && (!newest || e.order > newest->order))
            newest = &e;
    return newest ? newest->id : 0;
}

ConnectionSlots::Id ConnectionSlots::toClose() const
{
    struct PeerCount {
        int all = 0;
        int waiting = 0;
        quint64 oldestWaiting = 0; // the order of its oldest waiting connection
    };
    QHash<QByteArray, PeerCount> peers;
    int waitingTotal = 0;
    for (const Entry &e : m_entries) {
        PeerCount &p = peers[e.peer];
        ++p.all;
        if (!e.busy) {
            if (p.waiting == 0 || e.order < p.oldestWaiting)
                p.oldestWaiting = e.order;
            ++p.waiting;
            ++waitingTotal;
        }
    }
    // A peer over its own shares gives up its own connections first.
    for (auto it = peers.cbegin(); it != peers.cend(); ++it) {
        if (it->waiting > m_limits.maxWaitingPerPeer)
            return oldestWaiting(&it.key());
        if (it->all > m_limits.maxConnectionsPerPeer) {
            const Id id = oldestWaiting(&it.key());
            return id ? id : newest(&it.key());
        }
    }
    // Too many waiting: the oldest of the peer that waits with the most (on a tie, the one
    // whose oldest came first).
    if (waitingTotal > m_limits.maxWaitingConnections) {
        const QByteArray *chosen = nullptr;
        PeerCount best;
        for (auto it = peers.cbegin(); it != peers.cend(); ++it) {
            if (it->waiting == 0)
                continue;
            if (!chosen || it->waiting > best.waiting
                || (it->waiting == best.waiting && it->oldestWaiting < best.oldestWaiting)) {
                chosen = &it.key();
                best = *it;
            }
        }
        return chosen ? oldestWaiting(chosen) : 0;
    }
    if (size() > m_limits.maxConnections) {
        const Id id = oldestWaiting(nullptr);
        return id ? id : newest(nullptr);
    }
    return 0;
}

} // namespace streamscope::app
