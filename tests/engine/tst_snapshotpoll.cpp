// Engine::changedSnapshots, the poll of many streams: it reads only the streams that changed
// since the cursor last read them. Three streams on a websocket server on 127.0.0.1 get their
// messages and go quiet; after a quiet second a poll reads none of them; one message on one
// stream, and the next poll reads that one only, with its new count; a slow poll reads again
// the streams whose latency changed since their last reading with latency; a new stream is
// read at once, and a removed one is forgotten. A poller that keeps its readings has a stream
// whose figures alone moved refreshed in its reading, in place (no reading made), and one whose
// details changed (a stop: its state and reason) read whole.

#include "../common/QuietStreams.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "Engine.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

class TestSnapshotPoll : public QObject {
    Q_OBJECT
private slots:
    void readsOnlyTheStreamsThatChanged();
    void refreshesFiguresInPlace();
};

void TestSnapshotPoll::readsOnlyTheStreamsThatChanged()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    const QStringList paths{QStringLiteral("/a"), QStringLiteral("/b"), QStringLiteral("/c")};
    for (const QString &p : paths)
        server.setFeed(p, 5);
    Engine engine(Engine::Options{2});
    QList<StreamId> ids;
    for (const QString &p : paths)
        ids << engine.addStream(quietStream(server, p));
    const auto allFed = [&] {
        for (const StreamSnapshot &s : engine.snapshot())
            if (s.messages != 5 || s.state != StreamState::Live || s.freshness.workerBusyShare < 0)
                return false; // the busy share is first measured a second after the worker starts
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(allFed(), scaledMs(10000));

    // The first poll reads every stream, with latency.
    Engine::SnapshotCursor cursor;
    QVector<StreamSnapshot> read = engine.changedSnapshots(cursor, true);
    QCOMPARE(idsOf(read), ids);
    QCOMPARE(cursor.lastRead(), 3);
    QCOMPARE(cursor.lastUnchanged(), 0);

    // Quiet: once the workers' ticks have published what the last messages moved, polls read
    // nothing; a quiet second later still nothing.
    QVERIFY(settled(engine, cursor));
    QTest::qWait(1000);
    const qint64 before = cursor.takenAtNs();
    read = engine.changedSnapshots(cursor);
    QVERIFY2(read.isEmpty(), qPrintable(QStringLiteral("read %1").arg(read.size())));
    QCOMPARE(cursor.lastRead(), 0);
    QCOMPARE(cursor.lastUnchanged(), 3);
    QVERIFY(cursor.takenAtNs() > before);
    QVERIFY(engine.changedSnapshots(cursor, true).isEmpty());

    // One message on /b: the next polls read /b only, with its count.
    const LoopbackWsServer::Peer *b = server.last(QStringLiteral("/b"));
    QVERIFY(b && b->socket);
    b->socket->sendTextMessage(QStringLiteral("{\"e\":\"depthUpdate\",\"E\":1,\"s\":\"BTCUSDT\",\"U\":6,\"u\":6}"));
    QVector<StreamSnapshot> rows;
    QElapsedTimer waited;
    waited.start();
    while (rows.isEmpty() && waited.elapsed() < scaledMs(10000)) {
        QTest::qWait(10);
        rows = engine.changedSnapshots(cursor);
    }
    QCOMPARE(idsOf(rows), QList<StreamId>{ids[1]});
    QCOMPARE(rows.first().messages, quint64(6));
    QCOMPARE(cursor.lastUnchanged(), 2);
    // A slow poll reads it once more, for its latency; the polls that follow read it again at
    // most until the worker's tick has published the message's figures, then nothing.
    rows = engine.changedSnapshots(cursor, true);
    QCOMPARE(idsOf(rows), QList<StreamId>{ids[1]});
    QVERIFY(settled(engine, cursor));
    QCOMPARE(cursor.lastUnchanged(), 3);

    // A new stream is read at the next poll; a removed one is not read again.
    server.setFeed(QStringLiteral("/d"), 0);
    const StreamId d = engine.addStream(quietStream(server, QStringLiteral("/d")));
    rows = engine.changedSnapshots(cursor);
    QVERIFY(idsOf(rows).contains(d));
    engine.removeStream(ids[0]);
    for (const StreamSnapshot &s : engine.changedSnapshots(cursor))
        QVERIFY(s.id != ids[0]);

    // A fresh cursor reads every stream.
    Engine::SnapshotCursor other;
    QCOMPARE(engine.changedSnapshots(other).size(), 3);
}

void TestSnapshotPoll::refreshesFiguresInPlace()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), 5);
    server.setFeed(QStringLiteral("/b"), 5);
    Engine engine(Engine::Options{1});
    StreamConfig a = quietStream(server, QStringLiteral("/a"));
    a.latencyField = QStringLiteral("/E");
    const StreamId ida = engine.addStream(a);
    const StreamId idb = engine.addStream(quietStream(server, QStringLiteral("/b")));
    const auto fed = [&](quint64 messages) {
        const StreamSnapshot s = engine.snapshot(ida);
        return s.messages == messages && s.state == StreamState::Live && s.freshness.workerBusyShare >= 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(fed(5) && engine.snapshot(idb).messages == 5, scaledMs(10000));

    // What the poller keeps: its last reading of each stream.
    QHash<StreamId, StreamSnapshot> kept;
    const auto held = [&kept](StreamId id) -> StreamSnapshot * {
        const auto it = kept.find(id);
        return it == kept.end() ? nullptr : &*it;
    };
    Engine::SnapshotCursor cursor;
    QVector<StreamSnapshot> out;
    QList<StreamId> refreshed;
    const auto poll = [&](bool withLatency) {
        engine.changedSnapshots(
            cursor, [withLatency](StreamId) { return withLatency; }, held, out, refreshed);
        for (const StreamSnapshot &s : std::as_const(out))
            kept.insert(s.id, s);
    };
    poll(false); // none kept yet: both read whole
    QCOMPARE(idsOf(out), (QList<StreamId>{ida, idb}));
    QVERIFY(refreshed.isEmpty());
    QCOMPARE(cursor.lastRefreshed(), 0);
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < scaledMs(10000) && cursor.lastRead() > 0) { // the ticks after the feed
        QTest::qWait(300);
        poll(false);
    }
    QCOMPARE(cursor.lastRead(), 0);
    const QString name = kept[ida].name;

    // One message on /a: its figures alone moved; refreshed in place, nothing read whole.
    const LoopbackWsServer::Peer *peer = server.last(QStringLiteral("/a"));
    QVERIFY(peer && peer->socket);
    peer->socket->sendTextMessage(QStringLiteral("{\"E\":%1,\"seq\":6}").arg(QDateTime::currentMSecsSinceEpoch()));
    waited.restart();
    do {
        QTest::qWait(10);
        poll(false);
    } while (refreshed.isEmpty() && out.isEmpty() && waited.elapsed() < scaledMs(10000));
    QVERIFY(out.isEmpty());
    QCOMPARE(refreshed, QList<StreamId>{ida});
    QCOMPARE(cursor.lastRefreshed(), 1);
    QCOMPARE(cursor.lastRead(), 1);
    QCOMPARE(kept[ida].messages, quint64(6));
    QCOMPARE(kept[ida].name, name);
    QCOMPARE(kept[idb].messages, quint64(5));
    // The worker's ticks that publish what the message moved are figures too: in place.
    waited.restart();
    while (waited.elapsed() < 600) {
        QTest::qWait(20);
        poll(false);
        QVERIFY2(out.isEmpty(), qPrintable(QStringLiteral("read whole: %1").arg(out.size())));
    }
    // Asked with latency: in place too, with the histograms; then without: none, as a whole
    // reading without latency has.
    poll(true);
    QCOMPARE(refreshed, (QList<StreamId>{ida, idb}));
    QCOMPARE(cursor.lastLatencyReads(), 2);
    QVERIFY(kept[ida].latency.count + kept[ida].latency.negative + kept[ida].latency.invalid > 0);
    const StreamSnapshot whole = engine.snapshot(ida, true);
    QCOMPARE(kept[ida].messages, whole.messages);
    QCOMPARE(kept[ida].bytes, whole.bytes);
    QCOMPARE(kept[ida].latency.count, whole.latency.count);
    QCOMPARE(kept[ida].stateReason, whole.stateReason);
    peer->socket->sendTextMessage(QStringLiteral("{\"E\":%1,\"seq\":7}").arg(QDateTime::currentMSecsSinceEpoch()));
    QTRY_VERIFY_WITH_TIMEOUT((poll(false), kept[ida].messages == 7), scaledMs(10000));
    QVERIFY(kept[ida].latency.buckets.isEmpty());
    QCOMPARE(kept[ida].latency.count + kept[ida].latency.negative + kept[ida].latency.invalid, quint64(0));

    // A stop changes the details (state, reason): read whole.
    engine.stopStream(idb);
    waited.restart();
    do {
        QTest::qWait(10);
        poll(false);
    } while (!idsOf(out).contains(idb) && waited.elapsed() < scaledMs(10000));
    QVERIFY(idsOf(out).contains(idb));
    QVERIFY(!refreshed.contains(idb));
    QCOMPARE(kept[idb].state, StreamState::Stopped);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestSnapshotPoll)
#include "tst_snapshotpoll.moc"
