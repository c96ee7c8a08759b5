// The Kraken venue (docs/venues.md, "Kraken"): its messages decoded by its spec (the event time
// RFC 3339 text, in µs; a malformed one a counted decode error) and its own messages told apart
// by the head scan (heartbeat, status, pong, answers); a run against the replay server's
// kraken_book and kraken_trades scenarios with exact counts (heartbeats and the status are no
// data) and the keep-alive answered; a loopback websocket server of this test's own that checks
// the subscribe requests (one a channel), answers {"method":"ping"} and then stops answering (the
// stream reconnects); a refused request and a status other than online shown in the venue's
// words, escaped.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "protocol/HeadScanner.h"
#include "protocol/MessageDecoder.h"
#include "venues/VenueRegistry.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

StreamConfig krakenConfig(const QUrl &url, const QStringList &subscribe)
{
    return channelStream("kraken", url, subscribe);
}

class KrakenLikeServer : public LoopbackVenueServer {
public:
    KrakenLikeServer()
        : LoopbackVenueServer(QStringLiteral("/v2"), QStringLiteral(R"({"method":"ping"})"),
                              QStringLiteral(R"({"method":"pong","time_in":"2023-11-14T22:13:20.000000Z",)"
                                             R"("time_out":"2023-11-14T22:13:20.000051Z"})"))
    {
    }
};

const DecodeSpec &krakenSpec()
{
    return VenueRegistry::entryOf(Venue("kraken")).decodeSpec();
}

} // namespace

class TestKrakenVenue : public QObject {
    Q_OBJECT
private slots:
    void decodesKrakenMessages_data();
    void decodesKrakenMessages();
    void ownMessagesToldApart_data();
    void ownMessagesToldApart();
    void replayScenarioCountsExactly_data();
    void replayScenarioCountsExactly();
    void replayAnswersThePing();
    void subscribesByChannelAndKeepsAlive();
    void refusalAndStatusShownEscaped();
};

void TestKrakenVenue::decodesKrakenMessages_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("channel");
    QTest::addColumn<QByteArray>("symbol");
    QTest::addColumn<qint64>("time");
    const qint64 none = DecodedFields::kNone;
    QTest::newRow("book update") << QByteArray(
        R"({"channel":"book","type":"update","data":[{"symbol":"MATIC/USD","bids":[{"price":0.5657,"qty":1098.3947558}],)"
        R"("asks":[],"checksum":2114181697,"timestamp":"2023-10-06T17:35:55.440295Z"}]})")
                                 << true << QByteArray("book") << QByteArray("MATIC/USD") << qint64(1696613755440295);
    QTest::newRow("book snapshot, no timestamp")
        << QByteArray(R"({"channel":"book","type":"snapshot","data":[{"symbol":"BTC/USD","bids":[],"asks":[],)"
                      R"("checksum":2439117997}]})")
        << true << QByteArray("book") << QByteArray("BTC/USD") << none;
    QTest::newRow("trade") << QByteArray(
        R"({"channel":"trade","type":"update","data":[{"symbol":"MATIC/USD","side":"sell","price":0.5117,"qty":40.0,)"
        R"("ord_type":"market","trade_id":4665906,"timestamp":"2023-09-25T07:49:37.708706Z"}]})")
                           << true << QByteArray("trade") << QByteArray("MATIC/USD") << qint64(1695628177708706);
    QTest::newRow("a timestamp that is no RFC 3339 time is a decode error")
        << QByteArray(R"({"channel":"trade","type":"update","data":[{"symbol":"BTC/USD","timestamp":"yesterday"}]})")
        << false << QByteArray() << QByteArray() << none;
    QTest::newRow("a numeric timestamp is a decode error")
        << QByteArray(R"({"channel":"trade","type":"update","data":[{"symbol":"BTC/USD","timestamp":1695628177}]})")
        << false << QByteArray() << QByteArray() << none;
}

void TestKrakenVenue::decodesKrakenMessages()
{
    QFETCH(QByteArray, message);
    QFETCH(bool, ok);
    QFETCH(QByteArray, channel);
    QFETCH(QByteArray, symbol);
    QFETCH(qint64, time);
    QCOMPARE(HeadScanner::scan(message.constData(), message.size(), krakenSpec().head).kind, MessageKind::Data);
    QCOMPARE(krakenSpec().timeUnit, LatencyUnit::Microseconds);
    MessageDecoder decoder;
    ReceiveBuffer buffer;
    DecodedFields f;
    QCOMPARE(decoder.decode(buffer.copy(message.constData(), message.size()), {}, f, krakenSpec()), ok);
    if (!ok) {
        QVERIFY2(decoder.lastError().contains(QLatin1String("timestamp")), qPrintable(decoder.lastError()));
        return;
    }
    QCOMPARE(QByteArray(f.eventType.data(), qsizetype(f.eventType.size())), channel);
    QCOMPARE(QByteArray(f.symbol.data(), qsizetype(f.symbol.size())), symbol);
    QCOMPARE(f.eventTime, time);
}

void TestKrakenVenue::ownMessagesToldApart_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("kind");
    QTest::newRow("heartbeat") << QByteArray(R"({"channel":"heartbeat"})") << int(MessageKind::Heartbeat);
    QTest::newRow("status") << QByteArray(
        R"({"channel":"status","data":[{"api_version":"v2","connection_id":)"
        R"(12393906104898154338,"system":"online","version":"2.0.0"}],"type":"update"})")
                            << int(MessageKind::Connection);
    QTest::newRow("pong") << QByteArray(R"({"method":"pong","req_id":101,"time_in":"2023-09-24T14:10:23.799685Z",)"
                                        R"("time_out":"2023-09-24T14:10:23.799703Z"})")
                          << int(MessageKind::Pong);
    QTest::newRow("subscribed") << QByteArray(
        R"({"method":"subscribe","result":{"channel":"ticker","snapshot":true,)"
        R"("symbol":"ALGO/USD"},"success":true,"time_in":"2023-09-25T09:04:31.742599Z",)"
        R"("time_out":"2023-09-25T09:04:31.742648Z"})")
                                << int(MessageKind::Result);
    QTest::newRow("refused") << QByteArray(
        R"({"error":"Currency pair not supported","method":"subscribe",)"
        R"("success":false,"symbol":"ABC/USD","time_in":"2023-09-25T09:04:31.742599Z"})")
                             << int(MessageKind::Error);
}

void TestKrakenVenue::ownMessagesToldApart()
{
    QFETCH(QByteArray, message);
    QFETCH(int, kind);
    QCOMPARE(int(HeadScanner::scan(message.constData(), message.size(), krakenSpec().head).kind), kind);
}

void TestKrakenVenue::replayScenarioCountsExactly_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("subscription");
    QTest::addColumn<quint64>("timed");
    QTest::newRow("kraken_book") << QStringLiteral("kraken_book") << QStringLiteral("book:BTC/USD") << quint64(444);
    QTest::newRow("kraken_trades") << QStringLiteral("kraken_trades") << QStringLiteral("trade:BTC/USD")
                                   << quint64(445);
}

void TestKrakenVenue::replayScenarioCountsExactly()
{
    QFETCH(QString, scenario);
    QFETCH(QString, subscription);
    QFETCH(quint64, timed);
    // 450 messages: heartbeats at 50, 150, 250 and 350, the status "maintenance" at 400 (none of
    // them data); the book's snapshot first, without a timestamp.
    const StreamSnapshot s = runChannelScenario("kraken", scenario, subscription, 450, 445);
    QCOMPARE(s.dataMessages, quint64(445));
    QCOMPARE(s.messages, quint64(451)); // the answer, 445 data, 4 heartbeats, the status
    QCOMPARE(s.heartbeats, quint64(4));
    QCOMPARE(s.results, quint64(1));
    QCOMPARE(s.errors, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.gaps, quint64(0));
    QCOMPARE(s.venueErrors, quint64(0));
    QCOMPARE(s.venueNotices, quint64(1));
    QCOMPARE(s.venueNotice, QStringLiteral("system maintenance"));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.latency.count, std::uint64_t(timed)); // every timestamp read (RFC 3339, µs)
}

void TestKrakenVenue::replayAnswersThePing()
{
    // Once the data ends the connection is quiet: {"method":"ping"} after ping_interval_ms of
    // silence, answered {"method":"pong",..}; the connection stays.
    QString why;
    QVERIFY2(
        keepAliveAnsweredByReplay("kraken", QStringLiteral("kraken_trades"), QStringLiteral("trade:BTC/USD"), &why),
        qPrintable(why));
}

void TestKrakenVenue::subscribesByChannelAndKeepsAlive()
{
    KrakenLikeServer server;
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c =
        krakenConfig(server.url(),
                     {QStringLiteral("book:BTC/USD"), QStringLiteral("trade:BTC/USD"), QStringLiteral("book:ETH/USD")});
    c.pingIntervalMs = 200;
    c.pongTimeoutMs = 60000; // only the text keep-alive's own rule may declare the connection dead
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 2, scaledMs(10000));
    QCOMPARE(QJsonDocument::fromJson(server.requests().at(0).toUtf8()).object(),
             (QJsonObject{{QStringLiteral("method"), QStringLiteral("subscribe")},
                          {QStringLiteral("params"),
                           QJsonObject{{QStringLiteral("channel"), QStringLiteral("book")},
                                       {QStringLiteral("symbol"),
                                        QJsonArray{QStringLiteral("BTC/USD"), QStringLiteral("ETH/USD")}}}}}));
    QCOMPARE(QJsonDocument::fromJson(server.requests().at(1).toUtf8()).object(),
             (QJsonObject{{QStringLiteral("method"), QStringLiteral("subscribe")},
                          {QStringLiteral("params"),
                           QJsonObject{{QStringLiteral("channel"), QStringLiteral("trade")},
                                       {QStringLiteral("symbol"), QJsonArray{QStringLiteral("BTC/USD")}}}}}));
    // Pings after each silence, answered: the connection stays.
    QTRY_VERIFY_WITH_TIMEOUT(server.pings >= 4, scaledMs(15000));
    QCOMPARE(server.connections, 1);
    QCOMPARE(snap(engine, id).reconnects, quint64(0));
    QCOMPARE(snap(engine, id).parseErrors, quint64(0));
    // The server stops answering: the connection is dead; the stream connects and subscribes
    // again.
    server.answerPings = false;
    QTRY_VERIFY_WITH_TIMEOUT(server.connections >= 2, scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(snap(engine, id).reconnects >= 1, scaledMs(5000));
    QTRY_VERIFY_WITH_TIMEOUT(server.requests().count(server.requests().first()) >= 2, scaledMs(10000));
}

void TestKrakenVenue::refusalAndStatusShownEscaped()
{
    KrakenLikeServer server;
    server.onSubscribe = {
        QStringLiteral(R"({"error":"Currency pair not supported \u001b[31m","method":"subscribe","success":false,)"
                       R"("symbol":"ABC/USD\u202e","time_in":"2023-09-25T09:04:31.742599Z"})"),
        QStringLiteral(R"({"channel":"status","type":"update","data":[{"system":"cancel_only\u0007"}]})")};
    QVERIFY(server.listen());
    const StreamSnapshot s = afterVenueReplies("kraken", server, QStringLiteral("book:ABC/USD"), 1, 1);
    QCOMPARE(s.venueErrors, quint64(1));
    QCOMPARE(s.venueNotices, quint64(1));
    QCOMPARE(s.errors, quint64(1));
    QCOMPARE(s.venueErrorCode, QStringLiteral("subscribe"));
    QCOMPARE(s.venueErrorMessage, QStringLiteral("Currency pair not supported \\x1b[31m (ABC/USD\\u202e)"));
    QCOMPARE(s.venueNotice, QStringLiteral("system cancel_only\\x07"));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.dataMessages, quint64(0));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestKrakenVenue)
#include "tst_krakenvenue.moc"
