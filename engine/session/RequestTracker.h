#pragma once

// Requests sent and not yet answered, by id ("7" or a UUID), so that a response is matched
// to its request's method and round-trip time. Cleared when the connections drop: a
// response cannot arrive on a new connection for a request sent on an old one.
//
// Thread contract: the session's worker only. Times are the session's monotonic ms.

#include "model/StreamRecords.h"

#include <QtCore/QHash>

namespace streamscope {

class RequestTracker {
public:
    // At most this many requests wait for an answer; a peer that never answers cannot grow
    // the table without bound (the oldest is forgotten).
    static constexpr int kMaxPending = 4096;

    void track(const QString &requestId, const QString &method, qint64 nowMs);
    // Fills the record's method and round trip when its id matches a pending request.
    void match(ResponseRecord &record, qint64 nowMs);
    void clear() { m_pending.clear(); }

private:
    struct Pending {
        QString method;
        qint64 sentMs = 0;
    };
    QHash<QString, Pending> m_pending;
};

} // namespace streamscope
