// Engine, the facade, against a websocket server on 127.0.0.1 that numbers its messages:
// adding a stream (exact counts, its signals and states), the state transitions a user sees,
// a stop under a firehose that keeps the counts exact, two streams that do not disturb each
// other on one worker or two, an edit that keeps the counters, a removal, a subscription
// matched to its result, and what the facade answers for a stream it does not know.

#include "../common/LoopbackWsServer.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "Engine.h"

#include <QtCore/QElapsedTimer>
#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

StreamConfig feedStream(const LoopbackWsServer &server, const QString &path)
{
    StreamConfig c;
    c.name = path.mid(1);
    c.venue = Venue::Generic; // a Binance stream on 127.0.0.1 would ask this server for its time
    c.url = server.url(path);
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    c.stallTimeoutMs = 600000;
    c.pingIntervalMs = 0;
    c.pongTimeoutMs = 0;
    return c;
}

// The states the engine announced for `id`, in order.
QList<StreamState> statesOf(const QSignalSpy &spy, StreamId id)
{
    QList<StreamState> out;
    for (const QList<QVariant> &args : spy)
        if (args.at(0).value<StreamId>() == id)
            out << args.at(1).value<StreamState>();
    return out;
}

// Runs on until the engine's workers have carried out every command posted so far: a message
// sent after them reaches the server on the stream's connection. Returns how long that took
// (ms), -1 when it never came.
qint64 roundTripMs(Engine &engine, StreamId id, LoopbackWsServer &server, const QString &path)
{
    const QString marker = QStringLiteral("marker %1").arg(QDateTime::currentMSecsSinceEpoch());
    QElapsedTimer t;
    t.start();
    if (!engine.sendMessage(id, marker))
        return -1;
    while (t.elapsed() < scaledMs(10000)) {
        const LoopbackWsServer::Peer *peer = server.last(path);
        if (peer && peer->received.contains(marker))
            return t.elapsed();
        QTest::qWait(10);
    }
    return -1;
}

bool commandsDone(Engine &engine, StreamId id, LoopbackWsServer &server, const QString &path)
{
    return roundTripMs(engine, id, server, path) >= 0;
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT
private slots:
    void workerCountFollowsTheOption_data();
    void workerCountFollowsTheOption();
    void addStreamGoesLiveAndCountsExactly();
    void stateTransitions_data();
    void stateTransitions();
    void stopRestartStopInARowEndsStopped();
    void stopUnderAFirehoseKeepsCountsExact_data();
    void stopUnderAFirehoseKeepsCountsExact();
    void twoStreamsDoNotDisturbEachOther_data();
    void twoStreamsDoNotDisturbEachOther();
    void updateStreamKeepsCounters();
    void updateOfTheAlertDestinationsKeepsTheConnection();
    void removeStreamClosesAndForgetsIt();
    void subscribeIsMatchedToItsResult();
    void stopAllStopsEveryStream();
    void unknownStreamIsRefused();
};

void TestEngine::workerCountFollowsTheOption_data()
{
    QTest::addColumn<int>("asked");
    QTest::newRow("one") << 1;
    QTest::newRow("three") << 3;
    QTest::newRow("one per core") << 0;
}

void TestEngine::workerCountFollowsTheOption()
{
    QFETCH(int, asked);
    Engine engine(Engine::Options{asked});
    if (asked > 0)
        QCOMPARE(engine.workerCount(), asked);
    else
        QCOMPARE(engine.workerCount(), std::clamp(QThread::idealThreadCount(), 1, 8));
}

void TestEngine::addStreamGoesLiveAndCountsExactly()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), 2000);
    Engine engine(Engine::Options{2});
    QSignalSpy added(&engine, &Engine::streamAdded);
    QSignalSpy states(&engine, &Engine::stateChanged);
    const StreamConfig config = feedStream(server, QStringLiteral("/a"));
    const StreamId id = engine.addStream(config);
    QVERIFY(id != kInvalidStreamId);
    QCOMPARE(added.count(), 1);
    QCOMPARE(added.at(0).at(0).value<StreamId>(), id);
    QVERIFY(engine.contains(id));
    QCOMPARE(engine.streamIds(), QList<StreamId>{id});
    QCOMPARE(engine.config(id).url, config.url);
    QCOMPARE(engine.snapshot(id).name, QStringLiteral("a")); // before the worker has run

    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(2000), scaledMs(10000));
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.id, id);
    QCOMPARE(s.messages, quint64(2000));
    QCOMPARE(s.gaps, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.latency.count, quint64(2000));
    QCOMPARE(s.state, StreamState::Live);
    QCOMPARE(s.connections.size(), 1);
    QVERIFY(s.connections.at(0).connected);
    // The states come as queued signals: they may follow the counts by a turn of the loop.
    QTRY_COMPARE_WITH_TIMEOUT(statesOf(states, id), (QList<StreamState>{StreamState::Connecting, StreamState::Live}),
                              scaledMs(10000));
    const QVector<StreamSnapshot> all = engine.snapshot();
    QCOMPARE(all.size(), 1);
    QCOMPARE(all.at(0).id, id);
    QCOMPARE(all.at(0).messages, quint64(2000));
    QCOMPARE(server.accepted(QStringLiteral("/a")), 1);
}

void TestEngine::stateTransitions_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QList<StreamState>>("expected");
    using S = StreamState;
    QTest::newRow("connects") << QString() << QList<S>{S::Connecting, S::Live};
    QTest::newRow("subscribes first") << QStringLiteral("subscribe")
                                      << QList<S>{S::Connecting, S::Subscribing, S::Live};
    QTest::newRow("server closes: reconnects")
        << QStringLiteral("server closes") << QList<S>{S::Connecting, S::Live, S::Reconnecting, S::Connecting, S::Live};
    QTest::newRow("stopped and restarted")
        << QStringLiteral("stop, restart") << QList<S>{S::Connecting, S::Live, S::Stopped, S::Connecting, S::Live};
}

void TestEngine::stateTransitions()
{
    QFETCH(QString, action);
    QFETCH(QList<StreamState>, expected);
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), 10);
    Engine engine(Engine::Options{1});
    QSignalSpy states(&engine, &Engine::stateChanged);
    StreamConfig config = feedStream(server, QStringLiteral("/a"));
    if (action == QLatin1String("subscribe"))
        config.subscribe = QStringList{QStringLiteral("btcusdt@depth")};
    const StreamId id = engine.addStream(config);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(10), scaledMs(10000));
    if (action == QLatin1String("server closes")) {
        server.close(QStringLiteral("/a"), QWebSocketProtocol::CloseCodeGoingAway);
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(20), scaledMs(10000));
        QCOMPARE(engine.snapshot(id).reconnects, quint64(1));
    } else if (action == QLatin1String("stop, restart")) {
        engine.stopStream(id);
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Stopped, scaledMs(10000));
        engine.restartStream(id);
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(20), scaledMs(10000));
        QCOMPARE(engine.snapshot(id).reconnects, quint64(0)); // a user's restart is no reconnect
    }
    QTRY_COMPARE_WITH_TIMEOUT(statesOf(states, id), expected, scaledMs(10000));
    QTest::qWait(200); // two ticks: nothing else follows
    QCOMPARE(statesOf(states, id), expected);
    QCOMPARE(engine.snapshot(id).state, expected.last());
}

// Commands asked in a row: only the last one counts, whenever the worker sees them (each as it
// comes, or all three together as one stop). The stream ends stopped and counts nothing from
// the moment the last stop is asked.
void TestEngine::stopRestartStopInARowEndsStopped()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), 10);
    Engine engine(Engine::Options{1});
    QSignalSpy states(&engine, &Engine::stateChanged);
    const StreamId id = engine.addStream(feedStream(server, QStringLiteral("/a")));
    const StreamId neighbour = engine.addStream(feedStream(server, QStringLiteral("/b"))); // same worker
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(10), scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(neighbour).state, StreamState::Live, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(statesOf(states, id), (QList<StreamState>{StreamState::Connecting, StreamState::Live}),
                              scaledMs(10000));
    engine.stopStream(id);
    engine.restartStream(id);
    engine.stopStream(id);
    const quint64 atLastStop = engine.snapshot(id).dataMessages;
    // The neighbour's message is queued on the worker after the three: once it reaches the
    // server, the worker has carried them out.
    QVERIFY(commandsDone(engine, neighbour, server, QStringLiteral("/b")));
    QTRY_COMPARE_WITH_TIMEOUT(statesOf(states, id).last(), StreamState::Stopped, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/a")), 0, scaledMs(10000));
    QTest::qWait(200); // two ticks: nothing else follows
    QCOMPARE(statesOf(states, id).last(), StreamState::Stopped);
    QCOMPARE(engine.snapshot(id).state, StreamState::Stopped);
    QVERIFY(engine.snapshot(id).dataMessages <= atLastStop + 1);
    QCOMPARE(server.open(QStringLiteral("/a")), 0);
    QCOMPARE(engine.snapshot(neighbour).state, StreamState::Live);
}

void TestEngine::stopUnderAFirehoseKeepsCountsExact_data()
{
    QTest::addColumn<DecodeMode>("mode");
    QTest::newRow("parsed") << DecodeMode::Parsed;
    QTest::newRow("raw") << DecodeMode::Raw;
}

// The stop is asked while the worker reads a firehose: from that moment nothing counts (at
// most the message being handled), and the restart's connection adds exactly what it gets.
void TestEngine::stopUnderAFirehoseKeepsCountsExact()
{
    QFETCH(DecodeMode, mode);
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), LoopbackWsServer::kFirehose);
    Engine engine(Engine::Options{1});
    StreamConfig config = feedStream(server, QStringLiteral("/a"));
    config.mode = mode;
    const StreamId id = engine.addStream(config);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).messages > 20000, scaledMs(20000));
    const qint64 roundTrip = roundTripMs(engine, id, server, QStringLiteral("/a"));
    QVERIFY(roundTrip >= 0);

    QElapsedTimer t;
    t.start();
    const quint64 before = engine.snapshot(id).messages;
    engine.stopStream(id);
    const quint64 atStop = engine.snapshot(id).messages;
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Stopped, stopActsAtOnceMs(roundTrip));
    QVERIFY2(t.elapsed() < stopActsAtOnceMs(roundTrip),
             qPrintable(QStringLiteral("stop took %1 ms (a round trip %2 ms)").arg(t.elapsed()).arg(roundTrip)));
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/a")), 0, scaledMs(10000));
    const StreamSnapshot stopped = engine.snapshot(id);
    QVERIFY(stopped.messages >= before);
    QVERIFY2(stopped.messages <= atStop + 1,
             qPrintable(QStringLiteral("%1 counted after the stop").arg(stopped.messages - atStop)));
    QVERIFY(stopped.messages <= quint64(server.last(QStringLiteral("/a"))->sent));
    QCOMPARE(stopped.dataMessages, stopped.messages);
    QCOMPARE(stopped.gaps, quint64(0));

    server.setFeed(QStringLiteral("/a"), 1000);
    engine.restartStream(id);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).messages, stopped.messages + 1000, scaledMs(10000));
    QTest::qWait(100);
    const StreamSnapshot restarted = engine.snapshot(id);
    QCOMPARE(restarted.messages, stopped.messages + 1000);
    QCOMPARE(restarted.dataMessages, restarted.messages);
    QCOMPARE(restarted.gaps, quint64(0));
    QCOMPARE(restarted.reconnects, quint64(0));
    QCOMPARE(restarted.state, StreamState::Live);
}

void TestEngine::twoStreamsDoNotDisturbEachOther_data()
{
    QTest::addColumn<int>("workers");
    QTest::newRow("one worker") << 1;
    QTest::newRow("two workers") << 2;
}

// A firehose stopped and removed beside a stream that receives a fixed number: the other
// counts every message once, keeps its one connection and hears only its own commands.
void TestEngine::twoStreamsDoNotDisturbEachOther()
{
    QFETCH(int, workers);
    constexpr qint64 kExact = 100000;
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), LoopbackWsServer::kFirehose);
    server.setFeed(QStringLiteral("/b"), kExact);
    Engine engine(Engine::Options{workers});
    QSignalSpy states(&engine, &Engine::stateChanged);
    const StreamId a = engine.addStream(feedStream(server, QStringLiteral("/a")));
    const StreamId b = engine.addStream(feedStream(server, QStringLiteral("/b")));
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(a).messages > 5000 && engine.snapshot(b).messages > 0, scaledMs(20000));

    engine.stopStream(a);
    const quint64 aAtStop = engine.snapshot(a).messages;
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(a).state, StreamState::Stopped, scaledMs(10000));
    QVERIFY(engine.snapshot(a).messages <= aAtStop + 1);
    const qint64 subscribe = engine.subscribe(b, {QStringLiteral("ethusdt@depth")});
    QVERIFY(subscribe > 0);
    engine.removeStream(a);

    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(b).dataMessages, quint64(kExact), scaledMs(60000));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(b).results, quint64(1), scaledMs(10000));
    QTest::qWait(100);
    const StreamSnapshot s = engine.snapshot(b);
    QCOMPARE(s.messages, quint64(kExact) + 1); // the feed and the subscription's answer
    QCOMPARE(s.dataMessages, quint64(kExact));
    QCOMPARE(s.gaps, quint64(0));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.state, StreamState::Live);
    QTRY_COMPARE_WITH_TIMEOUT(statesOf(states, b), (QList<StreamState>{StreamState::Connecting, StreamState::Live}),
                              scaledMs(10000));
    QCOMPARE(server.accepted(QStringLiteral("/b")), 1);
    QCOMPARE(server.open(QStringLiteral("/b")), 1);
    QCOMPARE(server.open(QStringLiteral("/a")), 0);
    // The subscription went to b's connection only.
    QCOMPARE(server.last(QStringLiteral("/b"))->received.size(), 1);
    QVERIFY(server.last(QStringLiteral("/a"))->received.isEmpty());
    QCOMPARE(engine.streamIds(), QList<StreamId>{b});
}

// An edit reconnects the stream with its new settings under the same id and keeps what it
// counted: the second connection's messages add to the first's, exactly.
void TestEngine::updateStreamKeepsCounters()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/before"), 300);
    server.setFeed(QStringLiteral("/after"), 200);
    Engine engine(Engine::Options{1});
    QSignalSpy states(&engine, &Engine::stateChanged);
    StreamConfig config = feedStream(server, QStringLiteral("/before"));
    const StreamId id = engine.addStream(config);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id, true).latency.count, quint64(300), scaledMs(10000));

    config.name = QStringLiteral("after");
    config.url = server.url(QStringLiteral("/after"));
    QVERIFY(engine.updateStream(id, config));
    QCOMPARE(engine.snapshot(id).name, QStringLiteral("after")); // shown at once
    QCOMPARE(engine.config(id).url, config.url);
    QCOMPARE(engine.streamIds(), QList<StreamId>{id});
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(500), scaledMs(10000));
    QTest::qWait(100);
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.messages, quint64(500));
    QCOMPARE(s.latency.count, quint64(500));
    QCOMPARE(s.gaps, quint64(0));
    QCOMPARE(s.reconnects, quint64(0)); // an edit is not a reconnect
    QCOMPARE(s.state, StreamState::Live);
    QCOMPARE(s.url, RedactedUrl::of(config.url));
    QCOMPARE(server.open(QStringLiteral("/before")), 0);
    QCOMPARE(server.accepted(QStringLiteral("/after")), 1);
    QTRY_COMPARE_WITH_TIMEOUT(
        statesOf(states, id),
        (QList<StreamState>{StreamState::Connecting, StreamState::Live, StreamState::Connecting, StreamState::Live}),
        scaledMs(10000));
}

// A change only to where the stream's alerts go is stored without touching the connection;
// the same configuration again reconnects (Edit → OK), the counters going on.
void TestEngine::updateOfTheAlertDestinationsKeepsTheConnection()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), 100);
    Engine engine(Engine::Options{1});
    StreamConfig config = feedStream(server, QStringLiteral("/a"));
    const StreamId id = engine.addStream(config);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(100), scaledMs(10000));

    NotifyTarget hook;
    hook.type = NotifyTarget::Type::Webhook;
    hook.url = QStringLiteral("http://127.0.0.1:9/hook");
    config.notify = {hook};
    QVERIFY(!engine.updateStream(id, config));
    QCOMPARE(engine.config(id).notify, config.notify);
    QVERIFY(commandsDone(engine, id, server, QStringLiteral("/a")));
    QCOMPARE(server.accepted(QStringLiteral("/a")), 1);
    QCOMPARE(server.open(QStringLiteral("/a")), 1);

    QVERIFY(engine.updateStream(id, config));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(200), scaledMs(10000));
    QCOMPARE(server.accepted(QStringLiteral("/a")), 2);
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/a")), 1, scaledMs(10000));
}

void TestEngine::removeStreamClosesAndForgetsIt()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), 100);
    Engine engine(Engine::Options{1});
    QSignalSpy removed(&engine, &Engine::streamRemoved);
    QSignalSpy events(&engine, &Engine::eventOccurred);
    QSignalSpy states(&engine, &Engine::stateChanged);
    const StreamId id = engine.addStream(feedStream(server, QStringLiteral("/a")));
    const StreamId other = engine.addStream(feedStream(server, QStringLiteral("/b")));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(100), scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(other).state, StreamState::Live, scaledMs(10000));

    // A stop right before: its worker announces Stopped while the stream is being removed
    // here; nothing of the removed stream comes out of the engine any more.
    const qsizetype eventsAtRemoval = events.count();
    const QList<StreamState> statesAtRemoval = statesOf(states, id);
    engine.stopStream(id);
    engine.removeStream(id);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.at(0).at(0).value<StreamId>(), id);
    QVERIFY(!engine.contains(id));
    QCOMPARE(engine.streamIds(), QList<StreamId>{other});
    QCOMPARE(engine.snapshot().size(), 1);
    QCOMPARE(engine.snapshot().at(0).id, other);
    QCOMPARE(engine.snapshot(id).id, kInvalidStreamId);
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/a")), 0, scaledMs(10000));
    QVERIFY(commandsDone(engine, other, server, QStringLiteral("/b"))); // the worker is past the removal
    QCoreApplication::processEvents();
    for (qsizetype i = eventsAtRemoval; i < events.count(); ++i)
        QVERIFY(events.at(i).at(0).value<StreamEvent>().stream != id);
    QCOMPARE(statesOf(states, id), statesAtRemoval);
    engine.removeStream(id); // a second time: nothing
    QCOMPARE(removed.count(), 1);
    QCOMPARE(server.accepted(QStringLiteral("/a")), 1);
    QCOMPARE(engine.snapshot(other).state, StreamState::Live);
}

void TestEngine::subscribeIsMatchedToItsResult()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    Engine engine(Engine::Options{1});
    const StreamId id = engine.addStream(feedStream(server, QStringLiteral("/a")));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Live, scaledMs(10000));
    const qint64 requestId = engine.subscribe(id, {QStringLiteral("ethusdt@depth"), QStringLiteral("btcusdt@depth")});
    QVERIFY(requestId > 0);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).results, quint64(1), scaledMs(10000));
    const QJsonObject sent =
        QJsonDocument::fromJson(server.last(QStringLiteral("/a"))->received.value(0).toUtf8()).object();
    QCOMPARE(sent.value(QLatin1String("method")).toString(), QStringLiteral("SUBSCRIBE"));
    QCOMPARE(sent.value(QLatin1String("params")).toVariant().toStringList(),
             (QStringList{QStringLiteral("ethusdt@depth"), QStringLiteral("btcusdt@depth")}));
    QCOMPARE(sent.value(QLatin1String("id")).toInteger(), requestId);
    const QVector<ResponseRecord> results = engine.results(id);
    QCOMPARE(results.size(), 1);
    QCOMPARE(results.at(0).requestId, QString::number(requestId));
    QCOMPARE(results.at(0).method, QStringLiteral("SUBSCRIBE"));
    QVERIFY(results.at(0).roundTripMs >= 0);
    QVERIFY(engine.errors(id).isEmpty());
    QCOMPARE(engine.snapshot(id).subscriptionCount, 2);
    const qint64 next = engine.unsubscribe(id, {QStringLiteral("ethusdt@depth")});
    QVERIFY(next > requestId);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).results, quint64(2), scaledMs(10000));
    QCOMPARE(engine.snapshot(id).subscriptionCount, 1);
}

void TestEngine::stopAllStopsEveryStream()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/a"), LoopbackWsServer::kFirehose);
    Engine engine(Engine::Options{2});
    const StreamId a = engine.addStream(feedStream(server, QStringLiteral("/a")));
    const StreamId b = engine.addStream(feedStream(server, QStringLiteral("/b")));
    const StreamId c = engine.addStream(feedStream(server, QStringLiteral("/c")));
    for (StreamId id : {b, c})
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Live, scaledMs(10000));
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(a).messages > 1000, scaledMs(10000));
    engine.stopAll();
    for (StreamId id : {a, b, c})
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Stopped, scaledMs(10000));
    for (const QString &path : {QStringLiteral("/a"), QStringLiteral("/b"), QStringLiteral("/c")})
        QTRY_COMPARE_WITH_TIMEOUT(server.open(path), 0, scaledMs(10000));
    QCOMPARE(engine.streamIds(), (QList<StreamId>{a, b, c}));
}

void TestEngine::unknownStreamIsRefused()
{
    Engine engine(Engine::Options{1});
    QSignalSpy removed(&engine, &Engine::streamRemoved);
    const StreamId unknown = 42;
    QVERIFY(!engine.contains(unknown));
    QCOMPARE(engine.subscribe(unknown, {QStringLiteral("x@depth")}), qint64(0));
    QCOMPARE(engine.unsubscribe(unknown, {QStringLiteral("x@depth")}), qint64(0));
    QCOMPARE(engine.listSubscriptions(unknown), qint64(0));
    QVERIFY(!engine.sendMessage(unknown, QStringLiteral("hello")));
    QVERIFY(!engine.updateStream(unknown, StreamConfig{}));
    QVERIFY(engine.results(unknown).isEmpty());
    QVERIFY(engine.errors(unknown).isEmpty());
    QVERIFY(engine.takeInspected(unknown).isEmpty());
    QCOMPARE(engine.config(unknown).name, QString());
    QCOMPARE(engine.snapshot(unknown).id, kInvalidStreamId);
    QVERIFY(engine.saveFlightRecording(unknown).isEmpty());
    engine.stopStream(unknown);
    engine.restartStream(unknown);
    engine.setInspecting(unknown, true);
    engine.removeStream(unknown);
    QCOMPARE(removed.count(), 0);
    QVERIFY(engine.snapshot().isEmpty());
    QVERIFY(engine.streamIds().isEmpty());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
