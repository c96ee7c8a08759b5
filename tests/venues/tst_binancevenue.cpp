// Binance venue behaviour on loopback against the replay server: gap records with the
// missing range, make-before-break rollover (serverShutdown during a firehose, connection
// age while paced) with exact counts, more than 1,024 subscriptions split over two
// connections of one stream group, outgoing control messages paced under the limit.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "ScenarioPool.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSet>

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;
using replay::ReplayServer;
using replay::ScenarioPool;

class TestBinanceVenue : public QObject {
    Q_OBJECT
private slots:
    void gapOfKUpdatesIsOneGapWithItsRange();
    void serverShutdownRolloverDuringFirehoseCountsExactly_data();
    void serverShutdownRolloverDuringFirehoseCountsExactly();
    void ageRolloverBeforeTheServerLimitCountsExactly_data();
    void ageRolloverBeforeTheServerLimitCountsExactly();
    void subscriptionsOverTheLimitSplitIntoOneGroup();
    void runtimeSubscribeBeyondTheLimitOpensAConnection();
    void webSocketApiEnvelopeRoutedWithRateLimits();
    void controlMessagesArePacedUnderTheLimit_data();
    void controlMessagesArePacedUnderTheLimit();
};

void TestBinanceVenue::gapOfKUpdatesIsOneGapWithItsRange()
{
    ReplayServer server;
    QVERIFY(server.listen());
    Engine engine;
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const StreamId id = engine.addStream(
        binanceStream(server.port(), QStringLiteral("xlarge_depth_diff?count=300&misbehave=gap&after=100&gap=3")));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(300), scaledMs(20000));
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.gaps, quint64(1));
    QCOMPARE(s.recentGaps.size(), 1);
    const GapRecord g = s.recentGaps.first();
    const qint64 span = qint64(ScenarioPool::kSeqSpan + 1);
    QCOMPARE(g.symbol, QStringLiteral("BTCUSDT"));
    QCOMPARE(g.expectedFrom, qint64(ScenarioPool::kFirstSeq) + 100 * span);
    QCOMPARE(g.resumedAt, qint64(ScenarioPool::kFirstSeq) + 103 * span);
    QCOMPARE(g.missingTo() - g.expectedFrom + 1, 3 * span); // three updates of 201 ids each
    QVERIFY(g.timeMs >= before && g.timeMs <= QDateTime::currentMSecsSinceEpoch());
    QCOMPARE(s.parseErrors, quint64(0));
}

void TestBinanceVenue::serverShutdownRolloverDuringFirehoseCountsExactly_data()
{
    QTest::addColumn<bool>("raw");
    QTest::newRow("parsed") << false;
    QTest::newRow("raw mode (no ids: the switch decides)") << true;
}

void TestBinanceVenue::serverShutdownRolloverDuringFirehoseCountsExactly()
{
    QFETCH(bool, raw);
    // One market: a new connection starts where the old one is, trade ids follow the
    // sequence. The first connection announces serverShutdown after 5,000 messages and
    // closes 5 s later; the firehose runs on to 200,000 events.
    constexpr quint64 kCount = 200000;
    ReplayServer server;
    QVERIFY(server.listen());
    QSignalSpy connects(&server, &ReplayServer::clientConnected);
    Engine engine;
    StreamConfig c = binanceStream(server.port(),
                                   QStringLiteral("small_aggtrade?market=1&count=%1&misbehave=shutdown"
                                                  "&after=5000&shutdown_grace_ms=5000")
                                       .arg(kCount));
    if (raw) {
        c.mode = DecodeMode::Raw;
        c.rolloverOverlapMaxMs = 500; // nothing to catch up on: switch soon
    }
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).rollovers, quint64(1), scaledMs(30000));
    if (raw) {
        // Without ids nothing can be matched: the old connection counts until the switch,
        // the new one after it.
        QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).serverShutdowns, quint64(1), scaledMs(20000));
        // The counters are read one by one: compare them once the firehose is over (no
        // message for 300 ms), not while messages still flow.
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                     const quint64 before = snap(engine, id).messages;
                                     QTest::qWait(300);
                                     return snap(engine, id).messages == before;
                                 }()),
                                 scaledMs(120000));
        {
            const StreamSnapshot t = snap(engine, id);
            QCOMPARE(t.messages,
                     t.dataMessages + t.duplicates + t.controlMessages + t.results + t.errors + t.heartbeats);
        }
        const StreamSnapshot s = snap(engine, id);
        QCOMPARE(s.controlMessages, quint64(1));
        QCOMPARE(s.reconnects, quint64(0));
        return;
    }
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, kCount, scaledMs(30000));
    QTest::qWait(200); // nothing more may arrive
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.dataMessages, kCount); // nothing lost, nothing counted twice
    QCOMPARE(s.serverShutdowns, quint64(1));
    QCOMPARE(s.controlMessages, quint64(1)); // the notice is not data
    QCOMPARE(s.messages, s.dataMessages + s.duplicates + s.controlMessages);
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(connects.count(), 2);
    QCOMPARE(s.connections.size(), 1);
    QCOMPARE(s.state, StreamState::Live);
}

void TestBinanceVenue::ageRolloverBeforeTheServerLimitCountsExactly_data()
{
    QTest::addColumn<bool>("subscribed");
    QTest::newRow("streams in the URL") << false;
    QTest::newRow("streams SUBSCRIBEd after connect") << true;
}

void TestBinanceVenue::ageRolloverBeforeTheServerLimitCountsExactly()
{
    // The server closes connections after 1.5 s (Binance: 24 h); the client rolls over at
    // 400 ms, so it never sees the close, and counts every event exactly once.
    QFETCH(bool, subscribed);
    constexpr quint64 kCount = 8000;
    ReplayServer server;
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = binanceStream(server.port(),
                                   QStringLiteral("small_aggtrade?market=1&count=%1&rate=4000&max_age_ms=1500%2")
                                       .arg(kCount)
                                       .arg(subscribed ? QStringLiteral("&wait_subscribe=1") : QString()));
    if (subscribed)
        c.subscribe << QStringLiteral("btcusdt@aggTrade");
    c.maxConnectionAgeMs = 400;
    c.rolloverOverlapMaxMs = 1000;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, kCount, scaledMs(20000));
    QTest::qWait(200);
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.dataMessages, kCount);
    QVERIFY2(s.rollovers >= 3, qPrintable(QString::number(s.rollovers)));
    QVERIFY(s.duplicates >= 1); // the overlaps really overlapped
    QCOMPARE(s.messages, s.dataMessages + s.duplicates + s.results);
    // One SUBSCRIBE per connection (a rollover may have just started, not yet switched).
    if (subscribed)
        QVERIFY(s.results == s.rollovers + 1 || (s.results == s.rollovers + 2 && s.rolloverInProgress));
    else
        QCOMPARE(s.results, quint64(0));
    QCOMPARE(s.errors, quint64(0));
    QCOMPARE(s.reconnects, quint64(0));
}

void TestBinanceVenue::subscriptionsOverTheLimitSplitIntoOneGroup()
{
    ReplayServer server;
    QVERIFY(server.listen());
    QSignalSpy connects(&server, &ReplayServer::clientConnected);
    Engine engine;
    StreamConfig c =
        binanceStream(server.port(), QStringLiteral("small_aggtrade?idle=1&per_stream=1&max_streams=1024"));
    for (int i = 0; i < 1500; ++i)
        c.subscribe << QStringLiteral("sym%1usdt@aggTrade").arg(i);
    c.inspectorCapacity = 4000;
    const StreamId id = engine.addStream(c);
    engine.setInspecting(id, true);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(1500), scaledMs(20000));
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(connects.count(), 2);
    QCOMPARE(s.connections.size(), 2);
    QCOMPARE(s.connections.at(0).subscriptions, 1024);
    QCOMPARE(s.connections.at(1).subscriptions, 476);
    QVERIFY(s.connections.at(0).connected && s.connections.at(1).connected);
    QCOMPARE(s.subscriptionCount, 1500);
    QCOMPARE(s.results, quint64(2)); // one SUBSCRIBE per connection, both accepted
    QCOMPARE(s.errors, quint64(0));
    QSet<QString> streams;
    for (const InspectedMessage &m : engine.takeInspected(id)) {
        const QJsonObject o = QJsonDocument::fromJson(m.text).object();
        if (o.contains(QStringLiteral("stream")))
            streams.insert(o.value(QStringLiteral("stream")).toString());
    }
    QCOMPARE(streams.size(), 1500); // every subscription delivered
    QVERIFY(streams.contains(QStringLiteral("sym0usdt@aggTrade")));
    QVERIFY(streams.contains(QStringLiteral("sym1499usdt@aggTrade")));
}

void TestBinanceVenue::runtimeSubscribeBeyondTheLimitOpensAConnection()
{
    ReplayServer server;
    QVERIFY(server.listen());
    QSignalSpy connects(&server, &ReplayServer::clientConnected);
    Engine engine;
    StreamConfig c = binanceStream(server.port(), QStringLiteral("small_aggtrade?idle=1&per_stream=1"));
    c.maxStreamsPerConnection = 3;
    c.futures = true;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Live, scaledMs(20000));
    QStringList five;
    for (int i = 0; i < 5; ++i)
        five << QStringLiteral("r%1usdt@trade").arg(i);
    const qint64 requestId = engine.subscribe(id, five);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(5), scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).results, quint64(2), scaledMs(20000));
    StreamSnapshot s = snap(engine, id);
    QCOMPARE(connects.count(), 2);
    QCOMPARE(s.connections.size(), 2);
    QCOMPARE(s.connections.at(0).subscriptions, 3);
    QCOMPARE(s.connections.at(1).subscriptions, 2);
    QCOMPARE(engine.results(id).at(0).requestId, QString::number(requestId)); // the caller's id answered

    engine.unsubscribe(id, {QStringLiteral("r4usdt@trade")});
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).results, quint64(3), scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).connections.at(1).subscriptions, 1, scaledMs(20000));
    engine.listSubscriptions(id);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).results, quint64(5), scaledMs(20000)); // each connection answers
    const auto results = engine.results(id);
    QStringList listed;
    for (const ResponseRecord &r : results)
        if (r.method == QLatin1String("LIST_SUBSCRIPTIONS"))
            for (const QJsonValue &v :
                 QJsonDocument::fromJson(r.body).object().value(QStringLiteral("result")).toArray())
                listed << v.toString();
    listed.sort();
    QCOMPARE(listed, five.mid(0, 4));
    QCOMPARE(snap(engine, id).subscriptionCount, 4);
    QCOMPARE(snap(engine, id).errors, quint64(0));
}

void TestBinanceVenue::webSocketApiEnvelopeRoutedWithRateLimits()
{
    ReplayServer server;
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = binanceStream(server.port(), QStringLiteral("small_aggtrade?idle=1"));
    c.futures = true; // 10 a second: the three requests go at once
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Live, scaledMs(20000));
    const QString ok1 = QStringLiteral("e2a85d9f-07a5-4f94-8d5f-789dc3deb097");
    const QString ok2 = QStringLiteral("0b3f1a52-1c6e-4c1e-9d55-0a7e9c3c2f11");
    const QString refused = QStringLiteral("7c5d2a10-5f1e-4d0b-8f2a-3e9b6c1d4a22");
    engine.sendMessage(id, QStringLiteral(R"({"id":"%1","method":"time"})").arg(ok1));
    engine.sendMessage(id, QStringLiteral(R"({"id":"%1","method":"time"})").arg(ok2));
    engine.sendMessage(id, QStringLiteral(R"({"id":"%1","method":"order.test","params":{}})").arg(refused));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).results + snap(engine, id).errors, quint64(3), scaledMs(20000));
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.results, quint64(2));
    QCOMPARE(s.errors, quint64(1));
    const auto results = engine.results(id);
    QCOMPARE(results.at(0).requestId, ok1);
    QCOMPARE(results.at(0).method, QStringLiteral("time"));
    QVERIFY(results.at(0).roundTripMs >= 0);
    QCOMPARE(results.at(1).requestId, ok2);
    const auto errors = engine.errors(id);
    QCOMPARE(errors.at(0).requestId, refused);
    QCOMPARE(errors.at(0).method, QStringLiteral("order.test"));
    QCOMPARE(s.venueErrorCode, QStringLiteral("-2010"));
    QVERIFY(s.venueErrorMessage.startsWith(QLatin1String("Account has insufficient balance")));
    QCOMPARE(s.rateLimits.size(), 1);
    QCOMPARE(s.rateLimits.at(0).type, QStringLiteral("REQUEST_WEIGHT"));
    QCOMPARE(s.rateLimits.at(0).interval, QStringLiteral("MINUTE"));
    QCOMPARE(s.rateLimits.at(0).intervalNum, 1);
    QCOMPARE(s.rateLimits.at(0).limit, qint64(6000));
    QCOMPARE(s.rateLimits.at(0).count, qint64(3));
    QCOMPARE(s.dataMessages, quint64(0));
}

void TestBinanceVenue::controlMessagesArePacedUnderTheLimit_data()
{
    QTest::addColumn<bool>("futures");
    QTest::addColumn<int>("limit");
    QTest::newRow("spot: 5 a second") << false << 5;
    QTest::newRow("USD-M futures: 10 a second") << true << 10;
}

void TestBinanceVenue::controlMessagesArePacedUnderTheLimit()
{
    QFETCH(bool, futures);
    QFETCH(int, limit);
    constexpr int kRequests = 12;
    ReplayServer server;
    QVERIFY(server.listen());
    QElapsedTimer clock;
    clock.start();
    QList<qint64> receivedMs;
    connect(&server, &ReplayServer::controlReceived, this, [&](const QString &) { receivedMs << clock.elapsed(); });
    Engine engine;
    StreamConfig c = binanceStream(server.port(), QStringLiteral("small_aggtrade?idle=1"));
    c.futures = futures;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Live, scaledMs(20000));
    for (int i = 0; i < kRequests; ++i)
        engine.subscribe(id, {QStringLiteral("s%1usdt@trade").arg(i)});
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).results, quint64(kRequests), scaledMs(20000));
    QCOMPARE(receivedMs.size(), kRequests);
    int peak = 0;
    for (int i = 0; i < receivedMs.size(); ++i) {
        int inWindow = 0;
        for (int j = i; j < receivedMs.size() && receivedMs[j] - receivedMs[i] < 1000; ++j)
            ++inWindow;
        peak = std::max(peak, inWindow);
    }
    // The client sends at most limit - 1 a second (one slot kept for pongs); arrival jitter
    // on a loaded machine must still never exceed the venue limit.
    QVERIFY2(peak <= limit, qPrintable(QStringLiteral("%1 messages within one second").arg(peak)));
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.outgoingLimitPerS, limit);
    QCOMPARE(s.outgoingMessages, quint64(kRequests));
    QVERIFY(s.outgoingPeakPerS <= limit - 1 && s.outgoingPeakPerS >= 1);
    QCOMPARE(s.outgoingQueued, 0);
    QCOMPARE(s.subscriptionCount, kRequests);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBinanceVenue)
#include "tst_binancevenue.moc"
