// The Coinbase venue (docs/venues.md, "Coinbase"): sequence_num counted per connection, data and
// heartbeats alike, as rows through its handler (a jump is a gap, and the connection subscribes
// again); its messages decoded by its spec (RFC 3339 times with nanoseconds, in µs) and told
// apart by the head scan (heartbeats, subscriptions, errors); a run against the replay server's
// coinbase_level2 and coinbase_trades scenarios with exact counts (the gap, the resubscription);
// a loopback websocket server of this test's own that checks the subscribe requests (heartbeats
// first, one a channel, paced) and shows a refusal in the venue's words, escaped.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "protocol/HeadScanner.h"
#include "protocol/MessageDecoder.h"
#include "venues/VenueHandler.h"
#include "venues/VenueRegistry.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <memory>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

StreamConfig coinbaseConfig(const QUrl &url, const QStringList &subscribe)
{
    return channelStream("coinbase", url, subscribe);
}

const DecodeSpec &coinbaseSpec()
{
    return VenueRegistry::entryOf(Venue("coinbase")).decodeSpec();
}

QJsonObject json(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

} // namespace

class TestCoinbaseVenue : public QObject {
    Q_OBJECT
private slots:
    void sequencePerConnection_data();
    void sequencePerConnection();
    void gapResubscribes();
    void decodesCoinbaseMessages_data();
    void decodesCoinbaseMessages();
    void messagesToldApart_data();
    void messagesToldApart();
    void replayScenarioCountsExactly_data();
    void replayScenarioCountsExactly();
    void subscribesHeartbeatsFirstAndPaces();
    void refusalShownEscaped();
};

// Rows "link sequence_num" (a leading h: a heartbeat), ';'-separated, through the Coinbase
// handler; each row fails without the rule it names.
void TestCoinbaseVenue::sequencePerConnection_data()
{
    QTest::addColumn<QString>("messages");
    QTest::addColumn<quint64>("gaps");
    QTest::newRow("in order") << QStringLiteral("1 0; 1 1; 1 2") << quint64(0);
    QTest::newRow("the first message of a connection starts it") << QStringLiteral("1 57; 1 58") << quint64(0);
    QTest::newRow("heartbeats are in the sequence") << QStringLiteral("1 4; h1 5; 1 6") << quint64(0);
    QTest::newRow("a heartbeat missed is a gap") << QStringLiteral("1 4; h1 6; 1 7") << quint64(1);
    QTest::newRow("connections count apart") << QStringLiteral("1 4; 2 0; 1 5; 2 1; 2 2; 1 6") << quint64(0);
    QTest::newRow("a jump is a gap") << QStringLiteral("1 4; 1 5; 1 9; 1 10") << quint64(1);
    QTest::newRow("going back is a gap") << QStringLiteral("1 4; 1 5; 1 3") << quint64(1);
}

void TestCoinbaseVenue::sequencePerConnection()
{
    QFETCH(QString, messages);
    QFETCH(quint64, gaps);
    StreamConfig c = coinbaseConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> coinbase = VenueHandler::create(c, host);
    quint64 data = 0;
    for (const QString &m : messages.split(QLatin1Char(';'))) {
        QString linkText = m.trimmed().section(QLatin1Char(' '), 0, 0);
        const bool heartbeat = linkText.startsWith(QLatin1Char('h'));
        if (heartbeat)
            linkText.remove(0, 1);
        DecodedFields f;
        f.eventType = heartbeat ? "heartbeats" : "l2_data";
        f.finalUpdateId = m.trimmed().section(QLatin1Char(' '), 1, 1).toLongLong();
        if (heartbeat) {
            coinbase->onHeartbeat(linkText.toInt(), &f);
        } else {
            coinbase->onData(linkText.toInt(), f, true);
            ++data;
        }
    }
    const StreamSnapshot s = snapshotOf(host);
    QCOMPARE(s.gaps, gaps);
    QCOMPARE(s.updates, data);
    QCOMPARE(s.sequenceResets, quint64(0));
}

void TestCoinbaseVenue::gapResubscribes()
{
    StreamConfig c = coinbaseConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> coinbase = VenueHandler::create(c, host);
    QVERIFY(coinbase->onConnected(
        3, 0, false,
        {QStringLiteral("level2:BTC-USD"), QStringLiteral("level2:ETH-USD"), QStringLiteral("market_trades:BTC-USD")}));
    QCOMPARE(host.sent.size(), 3);
    QCOMPARE(json(host.sent[0]),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("subscribe")},
                          {QStringLiteral("channel"), QStringLiteral("heartbeats")}}));
    QCOMPARE(json(host.sent[1]),
             (QJsonObject{
                 {QStringLiteral("type"), QStringLiteral("subscribe")},
                 {QStringLiteral("channel"), QStringLiteral("level2")},
                 {QStringLiteral("product_ids"), QJsonArray{QStringLiteral("BTC-USD"), QStringLiteral("ETH-USD")}}}));
    DecodedFields f;
    f.eventType = "l2_data";
    for (const qint64 n : {1, 2, 5}) {
        f.finalUpdateId = n;
        coinbase->onData(3, f, true);
    }
    const StreamSnapshot s = snapshotOf(host);
    QCOMPARE(s.gaps, quint64(1));
    const GapRecord g = s.recentGaps.value(0);
    QCOMPARE(g.symbol, QStringLiteral("connection 3"));
    QCOMPARE(g.expectedFrom, qint64(3));
    QCOMPARE(g.missingTo(), qint64(4));
    // The recovery: the connection's subscriptions, unsubscribed and subscribed again.
    QCOMPARE(host.sent.size(), 7);
    QCOMPARE(json(host.sent[3]).value(QStringLiteral("type")).toString(), QStringLiteral("unsubscribe"));
    QCOMPARE(json(host.sent[4]).value(QStringLiteral("type")).toString(), QStringLiteral("unsubscribe"));
    QCOMPARE(json(host.sent[5]).value(QStringLiteral("type")).toString(), QStringLiteral("subscribe"));
    QCOMPARE(json(host.sent[6]), json(host.sent[2]));
    QVERIFY2(host.events.last().second.contains(QLatin1String("subscribing again")),
             qPrintable(host.events.last().second));
}

void TestCoinbaseVenue::decodesCoinbaseMessages_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("channel");
    QTest::addColumn<QByteArray>("product");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<qint64>("sequence");
    QTest::newRow("l2_data (Coinbase's example)")
        << QByteArray(R"({"channel":"l2_data","client_id":"","timestamp":"2023-02-09T20:32:50.714964855Z",)"
                      R"("sequence_num":0,"events":[{"type":"snapshot","product_id":"BTC-USD","updates":[{"side":)"
                      R"("bid","event_time":"1970-01-01T00:00:00Z","price_level":"21921.73","new_quantity":)"
                      R"("0.06317902"}]}]})")
        << QByteArray("l2_data") << QByteArray("BTC-USD") << qint64(1675974770714964) << qint64(0);
    QTest::newRow("heartbeats") << QByteArray(R"({"channel":"heartbeats","client_id":"","timestamp":)"
                                              R"("2023-06-23T20:31:26.122969572Z","sequence_num":12,"events":[{)"
                                              R"("current_time":"2023-06-23 20:31:56.121961769 +0000 UTC",)"
                                              R"("heartbeat_counter":"3049"}]})")
                                << QByteArray("heartbeats") << QByteArray() << qint64(1687552286122969) << qint64(12);
}

void TestCoinbaseVenue::decodesCoinbaseMessages()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, channel);
    QFETCH(QByteArray, product);
    QFETCH(qint64, time);
    QFETCH(qint64, sequence);
    MessageDecoder decoder;
    ReceiveBuffer buffer;
    DecodedFields f;
    QVERIFY2(decoder.decode(buffer.copy(message.constData(), message.size()), {}, f, coinbaseSpec()),
             qPrintable(decoder.lastError()));
    QCOMPARE(QByteArray(f.eventType.data(), qsizetype(f.eventType.size())), channel);
    QCOMPARE(QByteArray(f.symbol.data(), qsizetype(f.symbol.size())), product);
    QCOMPARE(f.eventTime, time);
    QCOMPARE(f.finalUpdateId, sequence);
    // Heartbeats are told by their decoded channel (the stream's decoder reads it anyway).
    const HeadInfo head = HeadScanner::scan(message.constData(), message.size(), coinbaseSpec().head,
                                            HeadScanner::Heartbeats::LeaveToDecoder);
    QCOMPARE(head.kind, MessageKind::Data);
    QCOMPARE(head.heartbeatCandidate && coinbaseSpec().heartbeat.matches(f), channel == "heartbeats");
}

void TestCoinbaseVenue::messagesToldApart_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("kind");
    QTest::newRow("subscriptions") << QByteArray(R"({"channel":"subscriptions","client_id":"","timestamp":)"
                                                 R"("2023-02-09T20:32:50.714964855Z","sequence_num":1,"events":[{)"
                                                 R"("subscriptions":{"level2":["BTC-USD"]}}]})")
                                   << int(MessageKind::Result);
    QTest::newRow("error") << QByteArray(R"({"type":"error","message":"failure to subscribe"})")
                           << int(MessageKind::Error);
    QTest::newRow("heartbeats, raw: found by the head scan")
        << QByteArray(R"({"channel":"heartbeats","client_id":"","timestamp":"2023-06-23T20:31:26.122969572Z"})")
        << int(MessageKind::Heartbeat);
    QTest::newRow("market_trades") << QByteArray(R"({"channel":"market_trades","client_id":"","timestamp":)"
                                                 R"("2023-02-09T20:19:35.39625135Z","sequence_num":0,"events":[]})")
                                   << int(MessageKind::Data);
}

void TestCoinbaseVenue::messagesToldApart()
{
    QFETCH(QByteArray, message);
    QFETCH(int, kind);
    QCOMPARE(int(HeadScanner::scan(message.constData(), message.size(), coinbaseSpec().head).kind), kind);
}

void TestCoinbaseVenue::replayScenarioCountsExactly_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("subscription");
    QTest::newRow("coinbase_level2") << QStringLiteral("coinbase_level2") << QStringLiteral("level2:BTC-USD");
    QTest::newRow("coinbase_trades") << QStringLiteral("coinbase_trades") << QStringLiteral("market_trades:BTC-USD");
}

void TestCoinbaseVenue::replayScenarioCountsExactly()
{
    QFETCH(QString, scenario);
    QFETCH(QString, subscription);
    // 450 messages: heartbeats at 50, 150, 250, 350 (in the sequence, not data), the gap at
    // 200; the gap makes the connection unsubscribe and subscribe again: four answers in all
    // (the heartbeats and the channel, then the resubscription's two).
    replay::ReplayServer server;
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = coinbaseConfig(
        QUrl(QStringLiteral("ws://127.0.0.1:%1/%2?count=450&wait_subscribe=1").arg(server.port()).arg(scenario)),
        {subscription});
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(446), scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).results, quint64(4), scaledMs(10000));
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.messages, quint64(454));
    QCOMPARE(s.heartbeats, quint64(4));
    QCOMPARE(s.gaps, quint64(1));
    QVERIFY(s.recentGaps.value(0).symbol.startsWith(QLatin1String("connection ")));
    QCOMPARE(s.recentGaps.value(0).expectedFrom, qint64(201)); // message 200 says 202
    QCOMPARE(s.recentGaps.value(0).missingTo(), qint64(201));
    QCOMPARE(s.errors, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.venueErrors, quint64(0));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.outgoingMessages, quint64(4));      // heartbeats, the channel; unsubscribe, subscribe
    QCOMPARE(s.latency.count, std::uint64_t(446)); // every data message carried its "timestamp"
}

void TestCoinbaseVenue::subscribesHeartbeatsFirstAndPaces()
{
    LoopbackVenueServer server(QString(), QStringLiteral("-"), QString());
    QVERIFY(server.listen());
    Engine engine;
    // 12 products on 6 channels: the heartbeats, then one request a channel, paced to 8 a
    // second (7 a window of 1.1 s: one slot stays free).
    QStringList subscribe;
    for (const char *channel : {"level2", "market_trades", "ticker", "ticker_batch", "candles", "status"})
        subscribe << QStringLiteral("%1:BTC-USD").arg(QLatin1String(channel))
                  << QStringLiteral("%1:ETH-USD").arg(QLatin1String(channel));
    const StreamId id = engine.addStream(coinbaseConfig(server.url(), subscribe));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 7, scaledMs(15000));
    QCOMPARE(json(server.requests().at(0)).value(QStringLiteral("channel")).toString(), QStringLiteral("heartbeats"));
    QCOMPARE(json(server.requests().at(1)),
             (QJsonObject{
                 {QStringLiteral("type"), QStringLiteral("subscribe")},
                 {QStringLiteral("channel"), QStringLiteral("level2")},
                 {QStringLiteral("product_ids"), QJsonArray{QStringLiteral("BTC-USD"), QStringLiteral("ETH-USD")}}}));
    QCOMPARE(snap(engine, id).outgoingLimitPerS, 8);
    QVERIFY2(snap(engine, id).outgoingPeakPerS <= 7, qPrintable(QString::number(snap(engine, id).outgoingPeakPerS)));
}

void TestCoinbaseVenue::refusalShownEscaped()
{
    LoopbackVenueServer server(QString(), QStringLiteral("-"), QString());
    server.onSubscribe = {QStringLiteral(R"({"type":"error","message":"failure to subscribe \u001b[31m\u202e"})")};
    QVERIFY(server.listen());
    const StreamSnapshot s = afterVenueReplies("coinbase", server, QStringLiteral("level2:NOPE-USD"), 1, 0);
    QVERIFY(s.venueErrors >= 1); // the heartbeats' request is refused too
    QCOMPARE(s.venueErrorCode, QString());
    QCOMPARE(s.venueErrorMessage, QStringLiteral("failure to subscribe \\x1b[31m\\u202e"));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.dataMessages, quint64(0));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestCoinbaseVenue)
#include "tst_coinbasevenue.moc"
