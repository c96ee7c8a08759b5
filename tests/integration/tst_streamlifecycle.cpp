// Stop, restart, reconnect: a stream's life against a real replay server on loopback.

#include "../common/RefusingPort.h"
#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include <QtCore/QElapsedTimer>

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;
using replay::ReplayServer;

namespace {

// "A stop acts at once" is the behaviour under test, so a bound stays: the stop must not wait
// for anything (a message on an idle stream never comes, a firehose's backlog, a timeout of
// seconds). A user sees a stop as immediate within a second; a quiet machine stops in a few
// milliseconds, so a busy one stays far from the bound, which scales with the time factor.
int stopActsAtOnceMs()
{
    return 1000 * timeFactor();
}

} // namespace

class TestStreamLifecycle : public QObject {
    Q_OBJECT
private slots:
    void stopIdleSubscribedStreamIsImmediate();
    void stopFirehoseStreamIsImmediate();
    void stopCountsWhatCameBeforeItOnly();
    void stopRestartStopEndsStopped();
    void restartBringsDataBack();
    void editKeepsCounters();
    void droppedConnectionReconnectsAndResubscribes();
    void stalledStreamIsReported();
    void backoffGrowsWhileServerIsDown();
    void busyWorkerWithManyStreamsLosesNothing();
};

void TestStreamLifecycle::stopIdleSubscribedStreamIsImmediate()
{
    ReplayServer server{ReplayOptions{}};
    QVERIFY(server.listen());
    QSignalSpy control(&server, &ReplayServer::controlReceived);
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("idle"), server.port(), QStringLiteral("small_aggtrade?idle=1"));
    c.subscribe = {QStringLiteral("btcusdt@aggTrade")};
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY(control.count() >= 1); // the SUBSCRIBE reached the server
    QTRY_COMPARE(engine.snapshot(id).results, quint64(1));
    QCOMPARE(engine.snapshot(id).dataMessages, quint64(0));

    QElapsedTimer t;
    t.start();
    engine.stopStream(id);
    WAIT_STATE(engine, id, StreamState::Stopped, 10000);
    // The stop did not wait for a message (none ever comes).
    QVERIFY2(t.elapsed() < stopActsAtOnceMs(), qPrintable(QStringLiteral("stop took %1 ms").arg(t.elapsed())));
    QTRY_COMPARE(server.connectionCount(), 0);
}

void TestStreamLifecycle::stopFirehoseStreamIsImmediate()
{
    ReplayOptions o;
    o.loop = true;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    const StreamId id =
        engine.addStream(wsStream(QStringLiteral("firehose"), server.port(), QStringLiteral("small_aggtrade")));
    QTRY_VERIFY(messagesOf(engine, id) > 10000);
    QElapsedTimer t;
    t.start();
    engine.stopStream(id);
    WAIT_STATE(engine, id, StreamState::Stopped, 10000);
    QVERIFY2(t.elapsed() < stopActsAtOnceMs(), qPrintable(QStringLiteral("stop took %1 ms").arg(t.elapsed())));
    const quint64 atStop = messagesOf(engine, id);
    QTest::qWait(100);
    QCOMPARE(messagesOf(engine, id), atStop); // nothing counted after the stop
}

// The socket's receive buffer is not capped, so under a firehose the worker is usually in the
// middle of a read of thousands of messages when the stop comes. What was counted before the
// stop stays; from the stop on nothing is counted: at most the one message the worker was
// handling when stopStream() was called (it had looked for a stop before the call).
void TestStreamLifecycle::stopCountsWhatCameBeforeItOnly()
{
    ReplayOptions o;
    o.loop = true;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    for (const DecodeMode mode : {DecodeMode::Raw, DecodeMode::Parsed}) {
        StreamConfig c = wsStream(QStringLiteral("firehose"), server.port(), QStringLiteral("small_aggtrade"));
        c.mode = mode;
        const StreamId id = engine.addStream(c);
        QTRY_VERIFY_WITH_TIMEOUT(messagesOf(engine, id) > 50000, scaledMs(5000));
        const quint64 before = messagesOf(engine, id);
        engine.stopStream(id);
        const quint64 atStop = messagesOf(engine, id);
        WAIT_STATE(engine, id, StreamState::Stopped, 10000);
        const StreamSnapshot stopped = engine.snapshot(id);
        QVERIFY(stopped.messages >= before);
        QVERIFY2(stopped.messages <= atStop + 1,
                 qPrintable(QStringLiteral("%1 counted after the stop").arg(stopped.messages - atStop)));
        QCOMPARE(stopped.dataMessages, stopped.messages);
        QTest::qWait(100); // the server goes on sending to whoever is connected
        QCOMPARE(messagesOf(engine, id), stopped.messages);
        QTRY_COMPARE(server.connectionCount(), 0);
        engine.removeStream(id);
    }
}

// A stop, a restart and a stop asked for in a row: the stream ends stopped, and what the
// restart's connection receives before the second stop runs is not counted either.
void TestStreamLifecycle::stopRestartStopEndsStopped()
{
    ReplayOptions o;
    o.loop = true;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    const StreamId id =
        engine.addStream(wsStream(QStringLiteral("firehose"), server.port(), QStringLiteral("small_aggtrade")));
    QTRY_VERIFY(messagesOf(engine, id) > 10000);
    engine.stopStream(id);
    const quint64 atStop = messagesOf(engine, id);
    engine.restartStream(id);
    engine.stopStream(id);
    WAIT_STATE(engine, id, StreamState::Stopped, 10000);
    QTRY_COMPARE(server.connectionCount(), 0);
    QTest::qWait(100);
    QCOMPARE(engine.snapshot(id).state, StreamState::Stopped);
    QVERIFY(messagesOf(engine, id) <= atStop + 1);
}

void TestStreamLifecycle::restartBringsDataBack()
{
    ReplayOptions o;
    o.loop = true;
    o.rate = 2000;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    const StreamId id =
        engine.addStream(wsStream(QStringLiteral("paced"), server.port(), QStringLiteral("small_aggtrade")));
    QTRY_VERIFY(messagesOf(engine, id) > 100);
    engine.stopStream(id);
    WAIT_STATE(engine, id, StreamState::Stopped, 10000);
    const quint64 before = messagesOf(engine, id);
    engine.restartStream(id);
    WAIT_STATE(engine, id, StreamState::Live, 10000);
    QTRY_VERIFY(messagesOf(engine, id) > before + 100);
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0)); // a user restart is not a reconnect
}

// Editing a stream reconnects it with the new settings under the same id and keeps what it
// counted: the second connection's messages add to the first's, exactly.
void TestStreamLifecycle::editKeepsCounters()
{
    ReplayServer server{ReplayOptions{}};
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("before"), server.port(), QStringLiteral("small_aggtrade?count=300"));
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id, true).latency.count, quint64(300), scaledMs(10000));

    c.name = QStringLiteral("after");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?count=200").arg(server.port()));
    engine.updateStream(id, c);
    QCOMPARE(engine.snapshot(id).name, QStringLiteral("after")); // shown at once
    QCOMPARE(engine.config(id).url, c.url);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(500), scaledMs(10000));
    QTest::qWait(50);
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.messages, quint64(500));
    QCOMPARE(s.latency.count, quint64(500));
    QCOMPARE(s.reconnects, quint64(0)); // an edit is not a reconnect
    QCOMPARE(s.state, StreamState::Live);
    QVERIFY2(s.url.toString().endsWith(QLatin1String("count=200")), qPrintable(s.url.toString()));
}

void TestStreamLifecycle::droppedConnectionReconnectsAndResubscribes()
{
    ReplayOptions o;
    o.loop = true;
    o.rate = 2000;
    ReplayServer server{o};
    QVERIFY(server.listen());
    QSignalSpy control(&server, &ReplayServer::controlReceived);
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("dropped"), server.port(), QStringLiteral("small_aggtrade"));
    c.subscribe = {QStringLiteral("btcusdt@aggTrade"), QStringLiteral("ethusdt@aggTrade")};
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY(messagesOf(engine, id) > 200);
    QTRY_COMPARE(control.count(), 1);
    QVERIFY(control.at(0).at(0).toString().contains(QLatin1String("SUBSCRIBE")));

    QSignalSpy states(&engine, &Engine::stateChanged);
    server.dropAllConnections();
    const quint64 atDrop = messagesOf(engine, id);
    QTRY_COMPARE(engine.snapshot(id).reconnects, quint64(1));
    // The server vanished without a close frame: abnormal closure, not "normal" 1000.
    QCOMPARE(engine.snapshot(id).lastCloseCode, 1006);
    WAIT_STATE(engine, id, StreamState::Live, 10000);
    QTRY_VERIFY(messagesOf(engine, id) > atDrop + 200); // counters continue
    // The subscription was sent again on the new connection.
    QTRY_COMPARE(control.count(), 2);
    const QString resent = control.at(1).at(0).toString();
    QVERIFY(resent.contains(QLatin1String("SUBSCRIBE")));
    QVERIFY(resent.contains(QLatin1String("ethusdt@aggTrade")));
    // State events are queued to this thread after the snapshot changes: wait for it.
    const auto sawReconnecting = [&] {
        for (const auto &args : states)
            if (args.at(1).value<StreamState>() == StreamState::Reconnecting)
                return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(sawReconnecting(), scaledMs(20000));
    QVERIFY(!engine.snapshot(id).stateReason.isEmpty());
}

void TestStreamLifecycle::stalledStreamIsReported()
{
    ReplayOptions o;
    o.rate = 1000;
    o.loop = true;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c =
        wsStream(QStringLiteral("silent"), server.port(), QStringLiteral("small_aggtrade?misbehave=silent&after=50"));
    c.stallTimeoutMs = 300;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE(messagesOf(engine, id), quint64(50));
    WAIT_STATE(engine, id, StreamState::Stalled, 10000);
    QVERIFY(engine.snapshot(id).stateReason.contains(QLatin1String("no data")));

    // A stream that never gets data after subscribing is reported too, not left spinning.
    StreamConfig never = wsStream(QStringLiteral("never"), server.port(), QStringLiteral("small_aggtrade?idle=1"));
    never.subscribe = {QStringLiteral("btcusdt@aggTrade")};
    never.stallTimeoutMs = 300;
    const StreamId neverId = engine.addStream(never);
    WAIT_STATE(engine, neverId, StreamState::Stalled, 10000);
    QVERIFY2(engine.snapshot(neverId).stateReason.contains(QLatin1String("since subscribing")),
             qPrintable(engine.snapshot(neverId).stateReason));
}

void TestStreamLifecycle::backoffGrowsWhileServerIsDown()
{
    // Nothing listens on this port: every attempt fails and the delay grows.
    const RefusingPort refusing;
    const quint16 port = refusing.port();
    QVERIFY(port != 0);
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("down"), port, QString());
    c.reconnectBaseMs = 20;
    c.reconnectMaxMs = 400;
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).reconnects >= 5, scaledMs(20000));
    const StreamSnapshot s = engine.snapshot(id);
    QVERIFY(s.state == StreamState::Reconnecting || s.state == StreamState::Connecting);
    // Full jitter: the scheduled delay never exceeds the cap.
    if (s.state == StreamState::Reconnecting)
        QVERIFY(s.nextRetryAtMs - s.stateSinceMs <= 400);
    engine.stopStream(id);
    WAIT_STATE(engine, id, StreamState::Stopped, 10000);
    const quint64 attempts = engine.snapshot(id).reconnects;
    QTest::qWait(500);
    QCOMPARE(engine.snapshot(id).reconnects, attempts); // a stopped stream stays stopped
}

void TestStreamLifecycle::busyWorkerWithManyStreamsLosesNothing()
{
    // 64 streams at 200 msgs/s on one worker: every message arrives, and a stop of one
    // stream still acts at once while the worker is busy with the others.
    // Sanitizer builds are several times slower: the same load would swamp the worker there.
    const int count = 1000 / timeFactor();
    const int rate = 200 / timeFactor();
    ReplayServer server{ReplayOptions{}};
    QVERIFY(server.listen());
    Engine engine(Engine::Options{1});
    QList<StreamId> ids;
    for (int i = 0; i < 64; ++i)
        ids << engine.addStream(wsStream(QStringLiteral("s%1").arg(i), server.port(),
                                         QStringLiteral("small_aggtrade?count=%1&rate=%2").arg(count).arg(rate)));
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(ids.first()).messages > quint64(count) / 3, 10000 * timeFactor());
    QElapsedTimer t;
    t.start();
    engine.stopStream(ids.first());
    WAIT_STATE(engine, ids.first(), StreamState::Stopped, 10000);
    QVERIFY2(t.elapsed() < stopActsAtOnceMs(), qPrintable(QStringLiteral("stop took %1 ms").arg(t.elapsed())));
    for (qsizetype i = 1; i < ids.size(); ++i)
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(ids[i]).messages, quint64(count), 15000 * timeFactor());
    for (qsizetype i = 1; i < ids.size(); ++i)
        QCOMPARE(engine.snapshot(ids[i]).reconnects, quint64(0));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestStreamLifecycle)
#include "tst_streamlifecycle.moc"
