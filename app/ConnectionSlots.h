#pragma once

// Which connections of the metrics endpoint keep their slot when more clients come than it
// serves at once (docs/architecture.md, "The metrics endpoint"). A connection is busy while a
// request that arrived whole is being answered, and waiting otherwise: new, still sending its
// head, kept alive between requests, or answered and closing. Waiting connections may take only
// a share of the slots, and one peer address only a share of those; the rest stays for busy
// ones. When a count is over its limit, toClose() names the connection to close: the oldest
// waiting one of the peer that is over its share, else of the peer with the most waiting
// connections. A client that holds idle connections so loses its own oldest ones, and never a
// connection whose request is being answered.
//
// Thread contract: a plain value, used on the server's thread.

#include "HttpServerLimits.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>

namespace streamscope::app {

class ConnectionSlots {
public:
    using Id = quint64; // 0: none

    explicit ConnectionSlots(const HttpServerLimits &limits);

    // A new connection from `peer` (its address); waiting until setBusy().
    void add(Id id, const QByteArray &peer);
    void setBusy(Id id, bool busy);
    void remove(Id id);

    // The connection to close to bring every count within its limit; 0 when all are.
    Id toClose() const;

    int size() const { return int(m_entries.size()); }
    int waiting() const;

private:
    struct Entry {
        Id id = 0;
        QByteArray peer;
        quint64 order = 0; // when it came: smaller is older
        bool busy = false;
    };
    // The oldest waiting connection of `peer` (of any peer when null); 0 when it has none.
    Id oldestWaiting(const QByteArray *peer) const;
    // The newest connection of `peer` (of any when null), busy or not.
    Id newest(const QByteArray *peer) const;

    HttpServerLimits m_limits;
    QList<Entry> m_entries;
    quint64 m_nextOrder = 0;
};

} // namespace streamscope::app
