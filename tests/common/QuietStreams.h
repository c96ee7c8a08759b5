#pragma once

// What the tests of the snapshot poll share (tst_snapshotpoll, tst_snapshothub): a stream of a
// LoopbackWsServer that nothing but the test's messages moves (no ping, no stall), and the
// ids of a poll's readings in their order, and a wait until the streams stopped changing.

#include "Engine.h"
#include "LoopbackWsServer.h"
#include "StreamConfig.h"
#include "StreamSnapshot.h"

#include "TimeFactor.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QList>
#include <QtCore/QVector>
#include <QtTest/QTest>

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

// Polls until the workers' ticks have published what the streams' last events moved: a poll,
// three ticks' wait, and the next poll reads nothing. False after ten seconds (scaled).
inline bool settled(const Engine &engine, Engine::SnapshotCursor &cursor)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < scaledMs(10000)) {
        engine.changedSnapshots(cursor, true);
        QTest::qWait(300);
        if (engine.changedSnapshots(cursor, true).isEmpty())
            return true;
    }
    return false;
}

} // namespace streamscope::testing
