// The Bybit venue (docs/venues.md, "Bybit"): its order-book continuity rules as rows through its
// handler; its messages decoded by its spec and its answers told apart by the head scan (both
// pong shapes, success true / false); a run against the replay server's bybit_books and
// bybit_trades scenarios with exact counts and the keep-alive answered; a loopback websocket
// server of this test's own that checks the subscribe requests (10 topics each at most, split
// over connections), answers {"op":"ping"} and then stops answering while data keeps coming
// (the stream reconnects: a missed pong is a dead connection); a failed request shown in the
// venue's words, escaped.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "protocol/MessageDecoder.h"
#include "venues/VenueHandler.h"
#include "venues/VenueRegistry.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>

#include <memory>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

StreamConfig bybitConfig(const QUrl &url, const QStringList &subscribe)
{
    return channelStream("bybit", url, subscribe);
}

// The replay pool's quirks (engine/venues/bybit/BybitScenarios.cpp): "u" counts from 80000000;
// message 200 skips the one after message 199's (80000000 + 198).
constexpr qint64 kGapExpected = 80000000 + 199;

const QString kPing = QStringLiteral(R"({"op":"ping"})");

// A websocket server of this test's own that answers the keep-alive as Bybit documents it for
// private streams (the replay server answers as for public spot: both shapes are pongs).
class BybitLikeServer : public LoopbackVenueServer {
public:
    BybitLikeServer()
        : LoopbackVenueServer(QStringLiteral("/v5/public/linear"), kPing,
                              QStringLiteral(R"({"req_id":"","op":"pong","args":["1675418560633"],"conn_id":"c1"})"))
    {
    }
};

QStringList topicsOf(const QStringList &requests, QList<int> *perRequest = nullptr)
{
    QStringList topics;
    for (const QString &text : requests) {
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
        if (o.value(QStringLiteral("op")).toString() != QLatin1String("subscribe"))
            continue;
        const QJsonArray args = o.value(QStringLiteral("args")).toArray();
        if (perRequest)
            *perRequest << int(args.size());
        for (const QJsonValue &v : args)
            topics << v.toString();
    }
    return topics;
}

} // namespace

class TestBybitVenue : public QObject {
    Q_OBJECT
private slots:
    void continuity_data();
    void continuity();
    void gapRecordNamesTheTopic();
    void decodesBybitMessages_data();
    void decodesBybitMessages();
    void answersToldApart_data();
    void answersToldApart();
    void replayScenarioCountsExactly_data();
    void replayScenarioCountsExactly();
    void replayAnswersThePing();
    void subscribesAndDeclaresAMissedPongDead();
    void subscriptionsSplitOverConnectionsAndRequests();
    void failedRequestShownEscaped();
};

// Rows of book messages "topic type u" (type S: snapshot, D: delta), ';'-separated, through
// the Bybit handler; each row fails without the rule it names.
void TestBybitVenue::continuity_data()
{
    QTest::addColumn<QString>("messages");
    QTest::addColumn<quint64>("gaps");
    QTest::addColumn<quint64>("resets");
    QTest::newRow("in order") << QStringLiteral("ob S 10; ob D 11; ob D 12") << quint64(0) << quint64(0);
    QTest::newRow("a new snapshot starts the chain again")
        << QStringLiteral("ob S 10; ob D 11; ob S 500; ob D 501") << quint64(0) << quint64(0);
    QTest::newRow("a snapshot re-sent lower starts it again too")
        << QStringLiteral("ob S 10; ob D 11; ob S 7; ob D 8") << quint64(0) << quint64(0);
    QTest::newRow("u = 1 is a restart: a reset, not a gap")
        << QStringLiteral("ob S 10; ob D 11; ob D 12; ob S 1; ob D 2; ob D 3") << quint64(0) << quint64(1);
    QTest::newRow("u = 1 on a delta is a restart too")
        << QStringLiteral("ob S 10; ob D 11; ob D 1; ob D 2") << quint64(0) << quint64(1);
    QTest::newRow("level 1 re-sends the same u after 3 s: no alarm")
        << QStringLiteral("ob1 S 10; ob1 S 10; ob1 S 10; ob1 S 11") << quint64(0) << quint64(0);
    QTest::newRow("a gap") << QStringLiteral("ob S 10; ob D 11; ob D 13; ob D 14") << quint64(1) << quint64(0);
    QTest::newRow("a u that went back is a gap")
        << QStringLiteral("ob S 10; ob D 11; ob D 12; ob D 11") << quint64(1) << quint64(0);
    QTest::newRow("a delta repeated is a gap")
        << QStringLiteral("ob S 10; ob D 11; ob D 11") << quint64(1) << quint64(0);
    QTest::newRow("the first delta without a snapshot starts the chain")
        << QStringLiteral("ob D 40; ob D 41") << quint64(0) << quint64(0);
    QTest::newRow("topics are chains of their own")
        << QStringLiteral("ob S 10; ob2 S 100; ob D 11; ob2 D 101; ob D 12") << quint64(0) << quint64(0);
    QTest::newRow("int64 limits are a chain like any other")
        << QStringLiteral("ob S 9223372036854775806; ob D 9223372036854775807") << quint64(0) << quint64(0);
}

void TestBybitVenue::continuity()
{
    QFETCH(QString, messages);
    QFETCH(quint64, gaps);
    QFETCH(quint64, resets);
    StreamConfig c = bybitConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> bybit = VenueHandler::create(c, host);
    QCOMPARE(&bybit->decodeSpec(), &VenueRegistry::entryOf(Venue("bybit")).decodeSpec());
    QList<QByteArray> texts; // the views must outlive the calls
    for (const QString &m : messages.split(QLatin1Char(';'))) {
        const QStringList parts = m.trimmed().split(QLatin1Char(' '));
        QCOMPARE(parts.size(), 3);
        texts << parts[0].toLatin1() << (parts[1] == QLatin1String("S") ? "snapshot" : "delta");
        DecodedFields f;
        f.eventType =
            std::string_view(texts[texts.size() - 2].constData(), std::size_t(texts[texts.size() - 2].size()));
        f.texts[0] = std::string_view(texts.last().constData(), std::size_t(texts.last().size()));
        bool ok = false;
        f.finalUpdateId = parts[2].toLongLong(&ok);
        QVERIFY(ok);
        bybit->onData(1, f, true);
    }
    const StreamSnapshot s = snapshotOf(host);
    QCOMPARE(s.gaps, gaps);
    QCOMPARE(s.sequenceResets, resets);
    QCOMPARE(quint64(s.recentGaps.size()), gaps);
    QCOMPARE(s.updates, quint64(messages.count(QLatin1Char(';')) + 1));
}

void TestBybitVenue::gapRecordNamesTheTopic()
{
    StreamConfig c = bybitConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> bybit = VenueHandler::create(c, host);
    DecodedFields f;
    f.eventType = "orderbook.50.BTC\x1bUSDT";
    f.texts[0] = "delta";
    for (const qint64 u : {10, 11, 15}) {
        f.finalUpdateId = u;
        bybit->onData(1, f, true);
    }
    // During a rollover's overlap continuity is not checked.
    f.finalUpdateId = 99;
    bybit->onData(1, f, false);
    const StreamSnapshot s = snapshotOf(host);
    QCOMPARE(s.gaps, quint64(1));
    const GapRecord g = s.recentGaps.value(0);
    QCOMPARE(g.symbol, QStringLiteral("orderbook.50.BTC\\x1bUSDT")); // the peer's text, escaped
    QCOMPARE(g.expectedFrom, qint64(12));
    QCOMPARE(g.missingTo(), qint64(14));
    QCOMPARE(host.events.size(), 1);
    QCOMPARE(host.events[0].first, EventKind::Gap);
    QCOMPARE(host.events[0].second,
             QStringLiteral("sequence gap in orderbook.50.BTC\\x1bUSDT: expected u 12, got 15 (12..14 missing)"));
}

void TestBybitVenue::decodesBybitMessages_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("topic");
    QTest::addColumn<QByteArray>("symbol");
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<qint64>("ts");
    QTest::addColumn<qint64>("u");
    const qint64 none = DecodedFields::kNone;
    QTest::newRow("book snapshot (Bybit's example)")
        << QByteArray(R"({"topic":"orderbook.50.BTCUSDT","type":"snapshot","ts":1672304484978,"data":{"s":"BTCUSDT",)"
                      R"("b":[["16493.50","0.006"],["16493.00","0.100"]],"a":[["16611.00","0.029"]],"u":18521288,)"
                      R"("seq":7961638724},"cts":1672304484976})")
        << true << QByteArray("orderbook.50.BTCUSDT") << QByteArray("BTCUSDT") << QByteArray("snapshot")
        << qint64(1672304484978) << qint64(18521288);
    QTest::newRow("book delta") << QByteArray(
        R"({"topic":"orderbook.1.ETHUSDT","ts":1687940967466,"type":"delta","data":{"s":"ETHUSDT",)"
        R"("b":[],"a":[["1880.10","0"]],"u":177400507,"seq":66544703342},"cts":1687940967464})")
                                << true << QByteArray("orderbook.1.ETHUSDT") << QByteArray("ETHUSDT")
                                << QByteArray("delta") << qint64(1687940967466) << qint64(177400507);
    QTest::newRow("trades: the first stands for the push")
        << QByteArray(R"({"topic":"publicTrade.BTCUSDT","type":"snapshot","ts":1672304486868,"data":[{"T":)"
                      R"(1672304486865,"s":"BTCUSDT","S":"Buy","v":"0.001","p":"16578.50","L":"PlusTick",)"
                      R"("i":"20f43950-d8dd-5b31-9112-a178eb6023af","BT":false},{"T":1672304486866,"s":"BTCUSDT"}]})")
        << true << QByteArray("publicTrade.BTCUSDT") << QByteArray("BTCUSDT") << QByteArray("snapshot")
        << qint64(1672304486868) << none;
    QTest::newRow("ticker: its symbol is \"symbol\"")
        << QByteArray(R"({"topic":"tickers.BTCUSDT","type":"snapshot","data":{"symbol":"BTCUSDT","lastPrice":)"
                      R"("21109.77","bid1Price":"21109.76"},"cs":13580327758,"ts":1673853746003})")
        << true << QByteArray("tickers.BTCUSDT") << QByteArray("BTCUSDT") << QByteArray("snapshot")
        << qint64(1673853746003) << none;
    QTest::newRow("a u beyond int64 is a decode error")
        << QByteArray(R"({"topic":"orderbook.50.BTCUSDT","type":"delta","ts":1672304484978,"data":{"s":"BTCUSDT",)"
                      R"("b":[],"a":[],"u":9223372036854775808}})")
        << false << QByteArray() << QByteArray() << QByteArray() << none << none;
    QTest::newRow("a u of the wrong type is a decode error")
        << QByteArray(R"({"topic":"orderbook.50.BTCUSDT","type":"delta","ts":1,"data":{"u":"12"}})") << false
        << QByteArray() << QByteArray() << QByteArray() << none << none;
}

void TestBybitVenue::decodesBybitMessages()
{
    QFETCH(QByteArray, message);
    QFETCH(bool, ok);
    QFETCH(QByteArray, topic);
    QFETCH(QByteArray, symbol);
    QFETCH(QByteArray, type);
    QFETCH(qint64, ts);
    QFETCH(qint64, u);
    const DecodeSpec &spec = VenueRegistry::entryOf(Venue("bybit")).decodeSpec();
    QCOMPARE(HeadScanner::scan(message.constData(), message.size(), spec.head).kind, MessageKind::Data);
    MessageDecoder decoder;
    ReceiveBuffer buffer;
    DecodedFields f;
    QCOMPARE(decoder.decode(buffer.copy(message.constData(), message.size()), {}, f, spec), ok);
    if (!ok) {
        QVERIFY2(decoder.lastError().contains(QLatin1String("\"u\"")), qPrintable(decoder.lastError()));
        return;
    }
    QCOMPARE(QByteArray(f.eventType.data(), qsizetype(f.eventType.size())), topic);
    QCOMPARE(QByteArray(f.symbol.data(), qsizetype(f.symbol.size())), symbol);
    QCOMPARE(QByteArray(f.texts[0].data(), qsizetype(f.texts[0].size())), type);
    QCOMPARE(f.eventTime, ts);
    QCOMPARE(f.finalUpdateId, u);
}

void TestBybitVenue::answersToldApart_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("kind");
    QTest::newRow("pong, public spot") << QByteArray(
        R"({"success":true,"ret_msg":"pong","conn_id":"0970e817-426e-429a-a679-ff7f55e0b16a","op":"ping"})")
                                       << int(MessageKind::Pong);
    QTest::newRow("pong, op pong") << QByteArray(
        R"({"req_id":"test","op":"pong","args":["1675418560633"],"conn_id":"cfcb4ocsvfriu23r3er0-1b"})")
                                   << int(MessageKind::Pong);
    QTest::newRow("subscribed") << QByteArray(R"({"success":true,"ret_msg":"subscribe","conn_id":"2324d924",)"
                                              R"("req_id":"10001","op":"subscribe"})")
                                << int(MessageKind::Result);
    QTest::newRow("subscribed, linear") << QByteArray(R"({"success":true,"ret_msg":"","op":"subscribe","conn_id":"c"})")
                                        << int(MessageKind::Result);
    QTest::newRow("refused") << QByteArray(R"({"success":false,"ret_msg":"error:handler not found","conn_id":"c",)"
                                           R"("req_id":"","op":"subscribe"})")
                             << int(MessageKind::Error);
}

void TestBybitVenue::answersToldApart()
{
    QFETCH(QByteArray, message);
    QFETCH(int, kind);
    const DecodeSpec &spec = VenueRegistry::entryOf(Venue("bybit")).decodeSpec();
    QCOMPARE(int(HeadScanner::scan(message.constData(), message.size(), spec.head).kind), kind);
}

void TestBybitVenue::replayScenarioCountsExactly_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("subscription");
    QTest::addColumn<quint64>("gaps");
    QTest::addColumn<quint64>("resets");
    QTest::newRow("bybit_books") << QStringLiteral("bybit_books") << QStringLiteral("orderbook.50:BTCUSDT")
                                 << quint64(1) << quint64(1);
    QTest::newRow("bybit_trades") << QStringLiteral("bybit_trades") << QStringLiteral("publicTrade:BTCUSDT")
                                  << quint64(0) << quint64(0);
}

void TestBybitVenue::replayScenarioCountsExactly()
{
    QFETCH(QString, scenario);
    QFETCH(QString, subscription);
    QFETCH(quint64, gaps);
    QFETCH(quint64, resets);
    // 450 messages: a snapshot first (books), the snapshot re-sent with the same u at 100, the
    // gap at 200, the restart (u = 1) at 300; data only after the subscription.
    const StreamSnapshot s = runChannelScenario("bybit", scenario, subscription, 450, 450);
    QCOMPARE(s.dataMessages, quint64(450));
    QCOMPARE(s.messages, quint64(451)); // the subscription's answer and 450 data
    QCOMPARE(s.results, quint64(1));
    QCOMPARE(s.errors, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.gaps, gaps);
    QCOMPARE(s.sequenceResets, resets);
    QCOMPARE(s.duplicates, quint64(0));
    QCOMPARE(s.venueErrors, quint64(0));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.latency.count, std::uint64_t(450)); // every data message carried its "ts"
    if (gaps) {
        const GapRecord g = s.recentGaps.value(0);
        QCOMPARE(g.symbol, QStringLiteral("orderbook.50.BTCUSDT"));
        QCOMPARE(g.expectedFrom, kGapExpected);
        QCOMPARE(g.missingTo(), kGapExpected);
    }
}

void TestBybitVenue::replayAnswersThePing()
{
    // {"op":"ping"} every interval, answered as Bybit answers on public spot.
    QString why;
    QVERIFY2(
        keepAliveAnsweredByReplay("bybit", QStringLiteral("bybit_trades"), QStringLiteral("publicTrade:BTCUSDT"), &why),
        qPrintable(why));
}

void TestBybitVenue::subscribesAndDeclaresAMissedPongDead()
{
    BybitLikeServer server;
    server.onSubscribe = {QStringLiteral(R"({"success":true,"ret_msg":"","op":"subscribe","conn_id":"c1"})")};
    QVERIFY(server.listen());
    // Data keeps coming all along: the keep-alive goes every interval however busy the
    // connection, and only its answer keeps the connection.
    QTimer data;
    QObject::connect(&data, &QTimer::timeout, &server, [&server] {
        server.broadcast(
            QStringLiteral(R"({"topic":"publicTrade.BTCUSDT","type":"snapshot","ts":1672304486868,)"
                           R"("data":[{"T":1672304486865,"s":"BTCUSDT","S":"Buy","v":"0.001","p":"1"}]})"));
    });
    data.start(20);
    Engine engine;
    StreamConfig c =
        bybitConfig(server.url(), {QStringLiteral("orderbook.50:BTCUSDT"), QStringLiteral("publicTrade:BTCUSDT")});
    c.pingIntervalMs = 250;
    c.pongTimeoutMs = 60000; // only the missed pong may declare the connection dead
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(!server.requests().isEmpty(), scaledMs(10000));
    QCOMPARE(
        QJsonDocument::fromJson(server.requests().first().toUtf8()).object(),
        (QJsonObject{{QStringLiteral("op"), QStringLiteral("subscribe")},
                     {QStringLiteral("args"),
                      QJsonArray{QStringLiteral("orderbook.50.BTCUSDT"), QStringLiteral("publicTrade.BTCUSDT")}}}));
    QTRY_VERIFY_WITH_TIMEOUT(server.pings >= 4, scaledMs(15000));
    QCOMPARE(server.connections, 1);
    QVERIFY(snap(engine, id).dataMessages > 0);
    QCOMPARE(snap(engine, id).reconnects, quint64(0));
    QCOMPARE(snap(engine, id).parseErrors, quint64(0));
    // The server stops answering the keep-alive; data still comes: the connection is dead, and
    // the stream connects and subscribes again.
    server.answerPings = false;
    QTRY_VERIFY_WITH_TIMEOUT(server.connections >= 2, scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(snap(engine, id).reconnects >= 1, scaledMs(5000));
    QTRY_VERIFY_WITH_TIMEOUT(server.requests().count(server.requests().first()) >= 2, scaledMs(5000));
    data.stop();
}

void TestBybitVenue::subscriptionsSplitOverConnectionsAndRequests()
{
    // 23 topics, 20 a connection: two connections; spot's 10 topics a request: requests of
    // 10, 10 and 3.
    BybitLikeServer server;
    QVERIFY(server.listen());
    Engine engine;
    QStringList subscribe;
    for (int i = 0; i < 23; ++i)
        subscribe << QStringLiteral("publicTrade:SYM%1USDT").arg(i);
    StreamConfig c = bybitConfig(server.url(), subscribe);
    c.maxStreamsPerConnection = 20;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 3, scaledMs(10000));
    QCOMPARE(server.connections, 2);
    QList<int> perRequest;
    QStringList topics = topicsOf(server.requests(), &perRequest);
    std::sort(perRequest.begin(), perRequest.end());
    QCOMPARE(perRequest, (QList<int>{3, 10, 10}));
    topics.sort();
    QStringList expected;
    for (const QString &s : std::as_const(subscribe))
        expected << QString(s).replace(QLatin1Char(':'), QLatin1Char('.'));
    expected.sort();
    QCOMPARE(topics, expected);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).connections.size(), 2, scaledMs(5000));
    QCOMPARE(snap(engine, id).subscriptionCount, 23);
}

void TestBybitVenue::failedRequestShownEscaped()
{
    BybitLikeServer server;
    // The venue's words carry an escape sequence and a right-to-left override.
    server.onSubscribe = {QStringLiteral(
        R"({"success":false,"ret_msg":"error:\u001b[31mhandler not found\u202e","conn_id":"c1","req_id":"","op":"subscribe"})")};
    QVERIFY(server.listen());
    const StreamSnapshot s = afterVenueReplies("bybit", server, QStringLiteral("orderbook.50:BTCUSDT"), 1, 0);
    QCOMPARE(s.venueErrors, quint64(1));
    QCOMPARE(s.errors, quint64(1));
    QCOMPARE(s.venueErrorCode, QStringLiteral("subscribe")); // Bybit gives no code: the refused op
    QCOMPARE(s.venueErrorMessage, QStringLiteral("error:\\x1b[31mhandler not found\\u202e"));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.dataMessages, quint64(0));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBybitVenue)
#include "tst_bybitvenue.moc"
