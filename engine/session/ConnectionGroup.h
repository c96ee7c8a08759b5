#pragma once

// The connections of one stream: one per shard of its subscriptions, plus a rollover's
// replacement while it opens. Finds them, retires them (abort now, free on the next tick,
// since a transport may be on the stack), decides which one takes new subscriptions, and
// describes them for the snapshot.
//
// Thread contract: the session's worker only.

#include "Link.h"
#include "model/StreamRecords.h"

#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QVector>

#include <memory>
#include <vector>

namespace streamscope {

class ConnectionGroup {
public:
    int nextId() { return m_nextId++; }
    Link &add(std::unique_ptr<Link> link);
    // Drops the connection without further signals; the link is freed by freeRetired().
    void retire(Link *link);
    void retireAll();
    void freeRetired() { m_retired.clear(); }

    const std::vector<std::unique_ptr<Link>> &links() const { return m_links; }
    bool empty() const { return m_links.empty(); }
    std::size_t size() const { return m_links.size(); }
    Link *byId(int id) const;
    // The connection serving shard `shard` (not a replacement still opening).
    Link *serving(int shard) const;
    bool anyActive() const;
    int nextShard() const;
    int queuedMessages() const;
    QVector<ConnectionInfo> describe() const;

    // SUBSCRIBE: the first serving connection with room takes what fits of `wanted` new
    // streams; null when none has room (a new connection must open). `room` is how many
    // it (or the new connection) takes.
    Link *withRoom(int perConnection, int namedInUrl, int wanted, int *room) const;
    // UNSUBSCRIBE: each stream taken from the connection(s) carrying it; one that none
    // carries (named in the URL, or unknown) goes to the first shard, which answers for it.
    QList<QPair<Link *, QStringList>> takeStreams(const QStringList &streams);

private:
    std::vector<std::unique_ptr<Link>> m_links;
    std::vector<std::unique_ptr<Link>> m_retired;
    int m_nextId = 1;
};

} // namespace streamscope
