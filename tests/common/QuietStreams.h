#pragma once

// What the tests of the snapshot poll share (tst_snapshotpoll, tst_snapshothub): a stream of a
// LoopbackWsServer that nothing but the test's messages moves (no ping, no stall), and the
// ids of a poll's readings in their order.

#include "LoopbackWsServer.h"
#include "StreamConfig.h"
#include "StreamSnapshot.h"

#include <QtCore/QList>
#include <QtCore/QVector>

namespace streamscope::testing {

inline StreamConfig quietStream(const LoopbackWsServer &server, const QString &path)
{
    StreamConfig c;
    c.name = path.mid(1);
    c.venue = Venue::Generic;
    c.url = server.url(path);
    c.stallTimeoutMs = 600000;
    c.pingIntervalMs = 0;
    c.pongTimeoutMs = 0;
    return c;
}

inline QList<StreamId> idsOf(const QVector<StreamSnapshot> &snaps)
{
    QList<StreamId> ids;
    for (const StreamSnapshot &s : snaps)
        ids.append(s.id);
    return ids;
}

} // namespace streamscope::testing
