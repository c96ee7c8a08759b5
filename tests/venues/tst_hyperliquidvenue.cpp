// The Hyperliquid venue (docs/venues.md, "Hyperliquid"): its messages decoded by its spec and
// its answers told apart by the head scan; no continuity rule (nothing is sequenced: an l2Book
// whose time goes back, or trades whose tids are no sequence, count no gap); a run against the
// replay server's hyperliquid_books and hyperliquid_trades scenarios with exact counts and the
// keep-alive answered; a loopback websocket server of this test's own that checks one subscribe
// request per subscription, paced, answers {"method":"ping"} and then stops answering while
// data keeps coming (the stream reconnects: a missed pong is a dead connection); a refused
// request shown in the venue's words, escaped.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "protocol/MessageDecoder.h"
#include "venues/VenueHandler.h"
#include "venues/VenueRegistry.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>

#include <memory>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

StreamConfig hyperliquidConfig(const QUrl &url, const QStringList &subscribe)
{
    return channelStream("hyperliquid", url, subscribe);
}

class HyperliquidLikeServer : public LoopbackVenueServer {
public:
    HyperliquidLikeServer()
        : LoopbackVenueServer(QStringLiteral("/ws"), QStringLiteral(R"({"method":"ping"})"),
                              QStringLiteral(R"({"channel":"pong"})"))
    {
    }
};

} // namespace

class TestHyperliquidVenue : public QObject {
    Q_OBJECT
private slots:
    void decodesHyperliquidMessages_data();
    void decodesHyperliquidMessages();
    void answersToldApart_data();
    void answersToldApart();
    void nothingIsSequenced();
    void replayScenarioCountsExactly_data();
    void replayScenarioCountsExactly();
    void replayAnswersThePing();
    void subscribesPaced();
    void keepsAliveAndReconnectsWhenUnanswered();
    void refusedRequestShownEscaped();
};

void TestHyperliquidVenue::decodesHyperliquidMessages_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("channel");
    QTest::addColumn<QByteArray>("coin");
    QTest::addColumn<qint64>("time");
    QTest::newRow("l2Book") << QByteArray(R"({"channel":"l2Book","data":{"coin":"BTC","time":1700000000123,)"
                                          R"("levels":[[{"px":"97000.0","sz":"1.5","n":3}],[{"px":"97001.0",)"
                                          R"("sz":"0.2","n":1}]]}})")
                            << QByteArray("l2Book") << QByteArray("BTC") << qint64(1700000000123);
    QTest::newRow("l2Book, time after the levels")
        << QByteArray(R"({"channel":"l2Book","data":{"coin":"ETH","levels":[[],[]],"time":1700000000456}})")
        << QByteArray("l2Book") << QByteArray("ETH") << qint64(1700000000456);
    QTest::newRow("trades: the first stands for the push")
        << QByteArray(R"({"channel":"trades","data":[{"coin":"SOL","side":"B","px":"150.1","sz":"2","hash":"0xab",)"
                      R"("time":1700000000789,"tid":281474976710655,"users":["0x1","0x2"]},{"coin":"SOL",)"
                      R"("time":1700000000790}]})")
        << QByteArray("trades") << QByteArray("SOL") << qint64(1700000000789);
}

void TestHyperliquidVenue::decodesHyperliquidMessages()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, channel);
    QFETCH(QByteArray, coin);
    QFETCH(qint64, time);
    const DecodeSpec &spec = VenueRegistry::entryOf(Venue("hyperliquid")).decodeSpec();
    QCOMPARE(HeadScanner::scan(message.constData(), message.size(), spec.head).kind, MessageKind::Data);
    MessageDecoder decoder;
    ReceiveBuffer buffer;
    DecodedFields f;
    QVERIFY2(decoder.decode(buffer.copy(message.constData(), message.size()), {}, f, spec),
             qPrintable(decoder.lastError()));
    QCOMPARE(QByteArray(f.eventType.data(), qsizetype(f.eventType.size())), channel);
    QCOMPARE(QByteArray(f.symbol.data(), qsizetype(f.symbol.size())), coin);
    QCOMPARE(f.eventTime, time);
    QCOMPARE(f.finalUpdateId, DecodedFields::kNone);
}

void TestHyperliquidVenue::answersToldApart_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("kind");
    QTest::newRow("subscribed") << QByteArray(R"({"channel":"subscriptionResponse","data":{"method":"subscribe",)"
                                              R"("subscription":{"type":"trades","coin":"SOL"}}})")
                                << int(MessageKind::Result);
    QTest::newRow("error") << QByteArray(R"({"channel":"error","data":"Invalid subscription"})")
                           << int(MessageKind::Error);
    QTest::newRow("pong") << QByteArray(R"({"channel":"pong"})") << int(MessageKind::Pong);
    QTest::newRow("data on another channel")
        << QByteArray(R"({"channel":"allMids","data":{"mids":{}}})") << int(MessageKind::Data);
}

void TestHyperliquidVenue::answersToldApart()
{
    QFETCH(QByteArray, message);
    QFETCH(int, kind);
    const DecodeSpec &spec = VenueRegistry::entryOf(Venue("hyperliquid")).decodeSpec();
    QCOMPARE(int(HeadScanner::scan(message.constData(), message.size(), spec.head).kind), kind);
}

void TestHyperliquidVenue::nothingIsSequenced()
{
    // Hyperliquid's messages carry no sequence number: whatever order books and trades come
    // in, the handler counts updates and no gap.
    StreamConfig c = hyperliquidConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/ws")), {});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> handler = VenueHandler::create(c, host);
    DecodedFields f;
    f.eventType = "l2Book";
    f.symbol = "BTC";
    for (const qint64 time : {1700000000500, 1700000000100, 1700000000900}) {
        f.eventTime = time;
        handler->onData(1, f, true);
    }
    const StreamSnapshot s = snapshotOf(host);
    QCOMPARE(s.updates, quint64(3));
    QCOMPARE(s.gaps, quint64(0));
    QCOMPARE(s.sequenceResets, quint64(0));
    QVERIFY(host.events.isEmpty());
}

void TestHyperliquidVenue::replayScenarioCountsExactly_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("subscription");
    QTest::newRow("hyperliquid_books") << QStringLiteral("hyperliquid_books") << QStringLiteral("l2Book:BTC");
    QTest::newRow("hyperliquid_trades") << QStringLiteral("hyperliquid_trades") << QStringLiteral("trades:BTC");
}

void TestHyperliquidVenue::replayScenarioCountsExactly()
{
    QFETCH(QString, scenario);
    QFETCH(QString, subscription);
    const StreamSnapshot s = runChannelScenario("hyperliquid", scenario, subscription, 450, 450);
    QCOMPARE(s.dataMessages, quint64(450));
    QCOMPARE(s.messages, quint64(451)); // the subscriptionResponse and 450 data
    QCOMPARE(s.results, quint64(1));
    QCOMPARE(s.errors, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.gaps, quint64(0));
    QCOMPARE(s.sequenceResets, quint64(0));
    QCOMPARE(s.venueErrors, quint64(0));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.latency.count, std::uint64_t(450)); // every data message carried its "time"
}

void TestHyperliquidVenue::replayAnswersThePing()
{
    // {"method":"ping"} every interval, answered {"channel":"pong"}.
    QString why;
    QVERIFY2(keepAliveAnsweredByReplay("hyperliquid", QStringLiteral("hyperliquid_trades"),
                                       QStringLiteral("trades:BTC"), &why),
             qPrintable(why));
}

void TestHyperliquidVenue::subscribesPaced()
{
    HyperliquidLikeServer server;
    QVERIFY(server.listen());
    Engine engine;
    // 40 subscriptions: one request each, paced to 30 a second on the connection (29 a window
    // of 1.1 s: one slot stays free). No keep-alive within the run.
    QStringList subscribe;
    for (int i = 0; i < 20; ++i)
        subscribe << QStringLiteral("l2Book:COIN%1").arg(i) << QStringLiteral("trades:COIN%1").arg(i);
    StreamConfig c = hyperliquidConfig(server.url(), subscribe);
    c.pingIntervalMs = 60000;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 40, scaledMs(15000));
    QCOMPARE(QJsonDocument::fromJson(server.requests().first().toUtf8()).object(),
             (QJsonObject{{QStringLiteral("method"), QStringLiteral("subscribe")},
                          {QStringLiteral("subscription"),
                           QJsonObject{{QStringLiteral("type"), QStringLiteral("l2Book")},
                                       {QStringLiteral("coin"), QStringLiteral("COIN0")}}}}));
    QStringList sent;
    for (const QString &text : server.requests()) {
        const QJsonObject sub =
            QJsonDocument::fromJson(text.toUtf8()).object().value(QStringLiteral("subscription")).toObject();
        sent << sub.value(QStringLiteral("type")).toString() + QLatin1Char(':')
                + sub.value(QStringLiteral("coin")).toString();
    }
    sent.sort();
    subscribe.sort();
    QCOMPARE(sent, subscribe);
    QCOMPARE(snap(engine, id).outgoingLimitPerS, 30);
    QCOMPARE(snap(engine, id).outgoingPeakPerS, 29);
    QCOMPARE(snap(engine, id).outgoingMessages, quint64(40));
}

void TestHyperliquidVenue::keepsAliveAndReconnectsWhenUnanswered()
{
    HyperliquidLikeServer server;
    QVERIFY(server.listen());
    Engine engine;
    // Data keeps coming all along: the keep-alive goes every interval however busy the
    // connection, and only its answer keeps the connection.
    QTimer data;
    QObject::connect(&data, &QTimer::timeout, &server, [&server] {
        server.broadcast(QStringLiteral(R"({"channel":"trades","data":[{"coin":"BTC","side":"B","px":"1","sz":"1",)"
                                        R"("time":1700000000000,"tid":1}]})"));
    });
    data.start(20);
    StreamConfig c = hyperliquidConfig(server.url(), {QStringLiteral("trades:BTC")});
    c.pingIntervalMs = 200;
    c.pongTimeoutMs = 60000; // only the missed pong may declare the connection dead
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 1, scaledMs(10000));
    // Pings every interval, answered: the connection stays.
    QTRY_VERIFY_WITH_TIMEOUT(server.pings >= 4, scaledMs(15000));
    QCOMPARE(server.connections, 1);
    QCOMPARE(snap(engine, id).reconnects, quint64(0));
    QVERIFY(snap(engine, id).dataMessages > 0);
    // The server stops answering; data still comes: the connection is dead, and the stream
    // connects and subscribes again.
    server.answerPings = false;
    QTRY_VERIFY_WITH_TIMEOUT(server.connections >= 2, scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(snap(engine, id).reconnects >= 1, scaledMs(5000));
    QTRY_VERIFY_WITH_TIMEOUT(server.requests().count(server.requests().first()) >= 2, scaledMs(10000));
    data.stop();
}

void TestHyperliquidVenue::refusedRequestShownEscaped()
{
    HyperliquidLikeServer server;
    server.onSubscribe = {QStringLiteral(R"({"channel":"error","data":"Invalid subscription \u001b[31mx\u202e"})")};
    QVERIFY(server.listen());
    const StreamSnapshot s = afterVenueReplies("hyperliquid", server, QStringLiteral("l2Book:NOPE"), 1, 0);
    QCOMPARE(s.venueErrors, quint64(1));
    QCOMPARE(s.errors, quint64(1));
    QCOMPARE(s.venueErrorCode, QString());
    QCOMPARE(s.venueErrorMessage, QStringLiteral("Invalid subscription \\x1b[31mx\\u202e"));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.dataMessages, quint64(0));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestHyperliquidVenue)
#include "tst_hyperliquidvenue.moc"
