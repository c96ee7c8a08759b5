// The OKX venue (docs/venues.md, "OKX"): its order-book continuity rules as rows through its
// handler; its messages decoded by its spec (a seqId beyond int64 is a counted decode error);
// a run against the replay server's okx_books and okx_trades scenarios with exact counts and
// the text keep-alive answered; a loopback websocket server of this test's own that checks
// the subscribe request, answers "ping" with "pong" and then stops answering (the stream
// reconnects); a venue error and a notice shown in the venue's words, escaped.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "protocol/MessageDecoder.h"
#include "venues/VenueHandler.h"
#include "venues/VenueRegistry.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <climits>
#include <memory>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

StreamConfig okxConfig(const QUrl &url, const QStringList &subscribe)
{
    return channelStream("okx", url, subscribe);
}

// The replay pool's quirks (engine/venues/okx/OkxScenarios.cpp): seqIds step by 3 from 1000;
// message 200 says prevSeqId = seqId of 199, + 1.
constexpr qint64 kGapExpectedPrev = 1000 + 3 * 199;

// A websocket server of this test's own on 127.0.0.1 that answers OKX's "ping" with "pong".
class OkxLikeServer : public LoopbackVenueServer {
public:
    OkxLikeServer()
        : LoopbackVenueServer(QStringLiteral("/ws/v5/public"), QStringLiteral("ping"), QStringLiteral("pong"))
    {
    }
};

} // namespace

class TestOkxVenue : public QObject {
    Q_OBJECT
private slots:
    void continuity_data();
    void continuity();
    void gapRecordNamesTheChain();
    void decodesOkxMessages_data();
    void decodesOkxMessages();
    void tradeIdTellsPushesApartInAnOverlap();
    void replayScenarioCountsExactly_data();
    void replayScenarioCountsExactly();
    void replayAnswersTheTextPing();
    void subscribesAndKeepsAliveWithTextPings();
    void subscriptionsSplitOverConnections();
    void requestsStayWithinTheHourlyLimit();
    void venueErrorAndNoticeShownEscaped();
};

// Rows of book messages "channel instId prevSeqId seqId", ';'-separated, through the OKX
// handler; each row fails without the rule it names.
void TestOkxVenue::continuity_data()
{
    QTest::addColumn<QString>("messages");
    QTest::addColumn<quint64>("gaps");
    QTest::addColumn<quint64>("resets");
    QTest::newRow("in order (seqIds need not be consecutive)")
        << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC 13 20") << quint64(0) << quint64(0);
    QTest::newRow("a keep-alive update (seqId == prevSeqId) is in order, no reset")
        << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC 13 13; books BTC 13 16") << quint64(0)
        << quint64(0);
    QTest::newRow("a legal reset (seqId below prevSeqId) is a reset, not a gap")
        << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC 13 5; books BTC 5 8") << quint64(0)
        << quint64(1);
    QTest::newRow("a reset whose prevSeqId breaks the chain too is a reset only")
        << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC 40 5; books BTC 5 8") << quint64(0)
        << quint64(1);
    QTest::newRow("a snapshot (prevSeqId -1) starts the chain again")
        << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC -1 500; books BTC 500 503") << quint64(0)
        << quint64(0);
    QTest::newRow("a gap") << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC 16 19; books BTC 19 22")
                           << quint64(1) << quint64(0);
    QTest::newRow("a prevSeqId that went back is a gap")
        << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC 11 19") << quint64(1) << quint64(0);
    QTest::newRow("a keep-alive after a missed update is a gap")
        << QStringLiteral("books BTC -1 10; books BTC 10 13; books BTC 16 16") << quint64(1) << quint64(0);
    QTest::newRow("the first update without a snapshot starts the chain")
        << QStringLiteral("books BTC 10 13; books BTC 13 16") << quint64(0) << quint64(0);
    QTest::newRow("instruments are chains of their own")
        << QStringLiteral("books BTC -1 10; books ETH -1 100; books BTC 10 13; books ETH 100 103; books BTC 13 16")
        << quint64(0) << quint64(0);
    QTest::newRow("channels of one instrument are chains of their own")
        << QStringLiteral("books BTC -1 10; bbo-tbt BTC -1 50; books BTC 10 13; bbo-tbt BTC 50 60") << quint64(0)
        << quint64(0);
    QTest::newRow("int64 limits are a chain like any other")
        << QStringLiteral("books BTC -1 9223372036854775806; books BTC 9223372036854775806 9223372036854775807; "
                          "books BTC 9223372036854775807 9223372036854775807")
        << quint64(0) << quint64(0);
    QTest::newRow("a gap after INT64_MAX, and a reset to 0")
        << QStringLiteral("books BTC -1 9223372036854775807; books BTC 9223372036854775806 9223372036854775807; "
                          "books BTC 9223372036854775807 0")
        << quint64(1) << quint64(1);
}

void TestOkxVenue::continuity()
{
    QFETCH(QString, messages);
    QFETCH(quint64, gaps);
    QFETCH(quint64, resets);
    StreamConfig c = okxConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> okx = VenueHandler::create(c, host);
    QCOMPARE(&okx->decodeSpec(), &VenueRegistry::entryOf(Venue("okx")).decodeSpec());
    // The views must outlive the calls: keep the texts.
    QList<QByteArray> texts;
    for (const QString &m : messages.split(QLatin1Char(';'))) {
        const QStringList parts = m.trimmed().split(QLatin1Char(' '));
        QCOMPARE(parts.size(), 4);
        texts << parts[0].toLatin1() << parts[1].toLatin1();
        DecodedFields f;
        f.eventType =
            std::string_view(texts[texts.size() - 2].constData(), std::size_t(texts[texts.size() - 2].size()));
        f.symbol = std::string_view(texts.last().constData(), std::size_t(texts.last().size()));
        bool ok1 = false;
        bool ok2 = false;
        f.prevFinalUpdateId = parts[2].toLongLong(&ok1);
        f.finalUpdateId = parts[3].toLongLong(&ok2);
        QVERIFY(ok1 && ok2);
        okx->onData(1, f, true);
    }
    const StreamSnapshot s = snapshotOf(host);
    QCOMPARE(s.gaps, gaps);
    QCOMPARE(s.sequenceResets, resets);
    QCOMPARE(quint64(s.recentGaps.size()), gaps);
    QCOMPARE(s.updates, quint64(messages.count(QLatin1Char(';')) + 1));
}

void TestOkxVenue::gapRecordNamesTheChain()
{
    StreamConfig c = okxConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> okx = VenueHandler::create(c, host);
    DecodedFields f;
    f.eventType = "books";
    f.symbol = "BTC-\x1b-USDT";
    for (const auto &[prev, seq] : {std::pair<qint64, qint64>{-1, 10}, {10, 13}, {20, 25}}) {
        f.prevFinalUpdateId = prev;
        f.finalUpdateId = seq;
        okx->onData(1, f, true);
    }
    // During a rollover's overlap continuity is not checked.
    f.prevFinalUpdateId = 99;
    okx->onData(1, f, false);
    const StreamSnapshot s = snapshotOf(host);
    QCOMPARE(s.gaps, quint64(1));
    const GapRecord g = s.recentGaps.value(0);
    QCOMPARE(g.symbol, QStringLiteral("books:BTC-\\x1b-USDT")); // the peer's text, escaped
    QCOMPARE(g.expectedFrom, qint64(14));                       // after the last seqId
    QCOMPARE(g.missingTo(), qint64(20));                        // up to the prevSeqId received
    QCOMPARE(g.timeMs, qint64(1700000000000));
    QCOMPARE(host.events.size(), 1);
    QCOMPARE(host.events[0].first, EventKind::Gap);
    QCOMPARE(host.events[0].second,
             QStringLiteral("sequence gap in books:BTC-\\x1b-USDT: expected prevSeqId 13, got 20 (seqId 25)"));
}

void TestOkxVenue::decodesOkxMessages_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("channel");
    QTest::addColumn<QByteArray>("instId");
    QTest::addColumn<qint64>("ts");
    QTest::addColumn<qint64>("prevSeqId");
    QTest::addColumn<qint64>("seqId");
    const qint64 none = DecodedFields::kNone;
    QTest::newRow("book update") << QByteArray(
        R"({"arg":{"channel":"books","instId":"BTC-USDT"},"action":"update","data":[{"asks":)"
        R"([["8476.98","415","0","13"]],"bids":[],"ts":"1597026383085","checksum":-855196043,)"
        R"("prevSeqId":123456,"seqId":123457}]})")
                                 << true << QByteArray("books") << QByteArray("BTC-USDT") << qint64(1597026383085)
                                 << qint64(123456) << qint64(123457);
    QTest::newRow("book snapshot") << QByteArray(
        R"({"arg":{"channel":"books","instId":"ETH-USDT"},"action":"snapshot","data":[{"asks":[],)"
        R"("bids":[],"ts":"1597026383085","checksum":0,"prevSeqId":-1,"seqId":5}]})")
                                   << true << QByteArray("books") << QByteArray("ETH-USDT") << qint64(1597026383085)
                                   << qint64(-1) << qint64(5);
    QTest::newRow("trade") << QByteArray(
        R"({"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT",)"
        R"("tradeId":"130639474","px":"42219.9","sz":"0.12060306","side":"buy","ts":"1630048897897"}]})")
                           << true << QByteArray("trades") << QByteArray("BTC-USDT") << qint64(1630048897897) << none
                           << none;
    QTest::newRow("a seqId beyond int64 is a decode error")
        << QByteArray(R"({"arg":{"channel":"books","instId":"BTC-USDT"},"action":"update","data":[{"asks":[],)"
                      R"("bids":[],"ts":"1597026383085","prevSeqId":1,"seqId":9223372036854775808}]})")
        << false << QByteArray() << QByteArray() << none << none << none;
    QTest::newRow("a prevSeqId below int64 is a decode error")
        << QByteArray(R"({"arg":{"channel":"books","instId":"BTC-USDT"},"data":[{"ts":"1597026383085",)"
                      R"("prevSeqId":-9223372036854775809,"seqId":1}]})")
        << false << QByteArray() << QByteArray() << none << none << none;
    QTest::newRow("a seqId of the wrong type is a decode error")
        << QByteArray(R"({"arg":{"channel":"books","instId":"BTC-USDT"},"data":[{"ts":"1597026383085",)"
                      R"("prevSeqId":1,"seqId":"2"}]})")
        << false << QByteArray() << QByteArray() << none << none << none;
}

void TestOkxVenue::decodesOkxMessages()
{
    QFETCH(QByteArray, message);
    QFETCH(bool, ok);
    QFETCH(QByteArray, channel);
    QFETCH(QByteArray, instId);
    QFETCH(qint64, ts);
    QFETCH(qint64, prevSeqId);
    QFETCH(qint64, seqId);
    const DecodeSpec &spec = VenueRegistry::entryOf(Venue("okx")).decodeSpec();
    QCOMPARE(HeadScanner::scan(message.constData(), message.size(), spec.head).kind, MessageKind::Data);
    MessageDecoder decoder;
    ReceiveBuffer buffer;
    DecodedFields f;
    QCOMPARE(decoder.decode(buffer.copy(message.constData(), message.size()), {}, f, spec), ok);
    if (!ok) {
        QVERIFY2(decoder.lastError().contains(QLatin1String("seqid"), Qt::CaseInsensitive),
                 qPrintable(decoder.lastError()));
        return;
    }
    QCOMPARE(QByteArray(f.eventType.data(), qsizetype(f.eventType.size())), channel);
    QCOMPARE(QByteArray(f.symbol.data(), qsizetype(f.symbol.size())), instId);
    QCOMPARE(f.eventTime, ts);
    QCOMPARE(f.prevFinalUpdateId, prevSeqId);
    QCOMPARE(f.finalUpdateId, seqId);
}

// A trade's id, a string of digits, is read as the push's event id while a rollover's two
// connections overlap (the de-duplication's key), and not otherwise.
void TestOkxVenue::tradeIdTellsPushesApartInAnOverlap()
{
    const QByteArray trade = R"({"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT",)"
                             R"("tradeId":"130639474","px":"42219.9","sz":"0.1","side":"buy","ts":"1630048897897",)"
                             R"("count":"1"}]})";
    const DecodeSpec &spec = VenueRegistry::entryOf(Venue("okx")).decodeSpec();
    MessageDecoder decoder;
    ReceiveBuffer buffer;
    DecodedFields f;
    QVERIFY(decoder.decode(buffer.copy(trade.constData(), trade.size()), {}, f, spec, true));
    QCOMPARE(f.tradeId, qint64(130639474));
    QCOMPARE(f.eventTime, qint64(1630048897897));
    DecodedFields g;
    QVERIFY(decoder.decode(buffer.copy(trade.constData(), trade.size()), {}, g, spec, false));
    QCOMPARE(g.tradeId, DecodedFields::kNone);
}

void TestOkxVenue::replayScenarioCountsExactly_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("subscription");
    QTest::addColumn<quint64>("gaps");
    QTest::addColumn<quint64>("resets");
    QTest::newRow("okx_books") << QStringLiteral("okx_books") << QStringLiteral("books:BTC-USDT") << quint64(1)
                               << quint64(1);
    QTest::newRow("okx_trades") << QStringLiteral("okx_trades") << QStringLiteral("trades:BTC-USDT") << quint64(0)
                                << quint64(0);
}

void TestOkxVenue::replayScenarioCountsExactly()
{
    QFETCH(QString, scenario);
    QFETCH(QString, subscription);
    QFETCH(quint64, gaps);
    QFETCH(quint64, resets);
    // 450 messages: a snapshot first (books), the keep-alive update at 100, the gap at 200, the
    // reset at 300, the notice at 400 (not data); data only after the subscription. The notice
    // (64008) rolls the connection over: the replacement joins the scenario where it is
    // (market=1), as a second connection to OKX would, and the overlap is counted once.
    replay::ReplayServer server;
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = okxConfig(QUrl(QStringLiteral("ws://127.0.0.1:%1/%2?count=450&wait_subscribe=1&market=1&rate=200")
                                        .arg(server.port())
                                        .arg(scenario)),
                               {subscription});
    c.pingIntervalMs = 60000;      // no keep-alive within the run: the message counts stay exact
    c.rolloverOverlapMaxMs = 1000; // a replacement that joins after the last message takes over soon
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(449), scaledMs(20000));

    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).rollovers, quint64(1), scaledMs(10000));
    // Both connections' subscriptions answered (a books stream's book, which the scenario's gap
    // breaks, resubscribes too).
    QTRY_VERIFY_WITH_TIMEOUT(snap(engine, id).results >= 2, scaledMs(5000));
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.dataMessages, quint64(449));
    // Every message is an answer to a request, data, a duplicate of the overlap or the notice
    // (a books stream may still be resubscribing its book, which the scenario's gap broke).
    if (!gaps)
        QCOMPARE(s.messages, s.results + s.dataMessages + s.duplicates + s.controlMessages);
    QCOMPARE(s.controlMessages, quint64(1)); // the notice
    QCOMPARE(s.errors, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.gaps, gaps);
    QCOMPARE(s.sequenceResets, resets);
    QCOMPARE(s.venueErrors, quint64(0));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.rollovers, quint64(1));
    QCOMPARE(s.venueNotices, quint64(1));
    QVERIFY2(s.venueNotice.startsWith(QLatin1String("64008: The connection will soon be closed for a service upgrade")),
             qPrintable(s.venueNotice));
    QCOMPARE(s.latency.count, std::uint64_t(449)); // every data message carried its "ts"
    if (gaps) {
        const GapRecord g = s.recentGaps.value(0);
        QCOMPARE(g.symbol, QStringLiteral("books:BTC-USDT"));
        QCOMPARE(g.expectedFrom, kGapExpectedPrev + 1);
        QCOMPARE(g.missingTo(), kGapExpectedPrev + 1);
    }
}

void TestOkxVenue::replayAnswersTheTextPing()
{
    // Once the data ends the connection is quiet: the stream pings after ping_interval_ms of
    // silence, the replay server answers "pong", and the connection stays.
    QString why;
    QVERIFY2(keepAliveAnsweredByReplay("okx", QStringLiteral("okx_trades"), QStringLiteral("trades:BTC-USDT"), &why),
             qPrintable(why));
}

void TestOkxVenue::subscribesAndKeepsAliveWithTextPings()
{
    OkxLikeServer server;
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = okxConfig(server.url(), {QStringLiteral("books:BTC-USDT"), QStringLiteral("trades:BTC-USDT")});
    c.pingIntervalMs = 200;
    c.pongTimeoutMs = 60000; // only a missed pong may declare the connection dead
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(!server.received.isEmpty(), scaledMs(10000));
    const QJsonObject subscribe = QJsonDocument::fromJson(server.received.first().toUtf8()).object();
    QCOMPARE(subscribe,
             (QJsonObject{{QStringLiteral("op"), QStringLiteral("subscribe")},
                          {QStringLiteral("args"),
                           QJsonArray{QJsonObject{{QStringLiteral("channel"), QStringLiteral("books")},
                                                  {QStringLiteral("instId"), QStringLiteral("BTC-USDT")}},
                                      QJsonObject{{QStringLiteral("channel"), QStringLiteral("trades")},
                                                  {QStringLiteral("instId"), QStringLiteral("BTC-USDT")}}}}}));
    // Pings after each silence, answered: the connection stays.
    QTRY_VERIFY_WITH_TIMEOUT(server.pings >= 4, scaledMs(15000));
    QCOMPARE(server.connections, 1);
    QCOMPARE(snap(engine, id).reconnects, quint64(0));
    QCOMPARE(snap(engine, id).parseErrors, quint64(0));
    // The server stops answering: the stream declares the connection dead and connects again,
    // and subscribes again.
    server.answerPings = false;
    QTRY_VERIFY_WITH_TIMEOUT(server.connections >= 2, scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(snap(engine, id).reconnects >= 1, scaledMs(5000));
    QTRY_VERIFY_WITH_TIMEOUT(server.received.count(server.received.first()) >= 2, scaledMs(5000));
}

void TestOkxVenue::subscriptionsSplitOverConnections()
{
    // Three subscriptions, two a connection: two connections of one stream, each subscribing
    // its own share.
    OkxLikeServer server;
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = okxConfig(
        server.url(),
        {QStringLiteral("books:BTC-USDT"), QStringLiteral("books:ETH-USDT"), QStringLiteral("trades:BTC-USDT")});
    c.maxStreamsPerConnection = 2;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(server.received.size(), 2, scaledMs(10000));
    QCOMPARE(server.connections, 2);
    QStringList args;
    QList<int> perRequest;
    for (const QString &text : std::as_const(server.received)) {
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("op")).toString(), QStringLiteral("subscribe"));
        const QJsonArray a = o.value(QStringLiteral("args")).toArray();
        perRequest << int(a.size());
        for (const QJsonValue &v : a)
            args << v[QStringLiteral("channel")].toString() + QLatin1Char(':') + v[QStringLiteral("instId")].toString();
    }
    std::sort(perRequest.begin(), perRequest.end());
    QCOMPARE(perRequest, (QList<int>{1, 2}));
    args.sort();
    QCOMPARE(args,
             (QStringList{QStringLiteral("books:BTC-USDT"), QStringLiteral("books:ETH-USDT"),
                          QStringLiteral("trades:BTC-USDT")}));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).connections.size(), 2, scaledMs(5000));
    QCOMPARE(snap(engine, id).subscriptionCount, 3);
}

void TestOkxVenue::requestsStayWithinTheHourlyLimit()
{
    // OKX allows 480 subscribe/unsubscribe requests a connection an hour: the 481st is not
    // sent, and an event says so. (The host's clock stands still: all within one hour.)
    StreamConfig c = okxConfig(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {QStringLiteral("books:BTC-USDT")});
    RecordingHost host;
    const std::unique_ptr<VenueHandler> okx = VenueHandler::create(c, host);
    QVERIFY(okx->onConnected(1, 0, false, c.subscribe));
    for (int i = 1; i < 480; ++i) // the connection's own subscription was the first
        okx->sendControl(1, i % 2 ? QStringLiteral("UNSUBSCRIBE") : QStringLiteral("SUBSCRIBE"),
                         {QStringLiteral("trades:BTC-USDT")}, i);
    QCOMPARE(host.sent.size(), 480);
    QVERIFY(host.events.isEmpty());
    QVERIFY(host.sent.last().contains(QLatin1String(R"("op":"unsubscribe")")));
    QCOMPARE(host.sent.first(),
             QStringLiteral(R"({"args":[{"channel":"books","instId":"BTC-USDT"}],"op":"subscribe"})"));
    // A new connection has a budget of its own; an entry that is no pair is not sent.
    QVERIFY(okx->onConnected(2, 1, false, {QStringLiteral("books:ETH-USDT"), QStringLiteral("ETH-USDT")}));
    QCOMPARE(host.sent.size(), 481);
    QCOMPARE(host.events.size(), 1);
    QVERIFY2(host.events.last().second.contains(QLatin1String("ETH-USDT")), qPrintable(host.events.last().second));
    okx->sendControl(1, QStringLiteral("SUBSCRIBE"), {QStringLiteral("trades:ETH-USDT")}, 999);
    QCOMPARE(host.sent.size(), 481);
    QCOMPARE(host.events.size(), 2);
    QVERIFY2(host.events.last().second.contains(QLatin1String("480 requests")), qPrintable(host.events.last().second));
}

void TestOkxVenue::venueErrorAndNoticeShownEscaped()
{
    OkxLikeServer server;
    // The venue's words carry an escape sequence and a right-to-left override.
    server.onSubscribe = {
        QStringLiteral(R"({"event":"error","code":"60012","msg":"Invalid request: \u001b[31mred\u202e","connId":"a"})"),
        QStringLiteral(R"({"event":"notice","code":"64008","msg":"upgrade\u0007 soon","connId":"a"})")};
    QVERIFY(server.listen());
    const StreamSnapshot s = afterVenueReplies("okx", server, QStringLiteral("books:BTC-USDT"), 1, 1);
    QCOMPARE(s.venueErrors, quint64(1));
    QCOMPARE(s.venueNotices, quint64(1));
    QCOMPARE(s.errors, quint64(1));
    QCOMPARE(s.venueErrorCode, QStringLiteral("60012"));
    QCOMPARE(s.venueErrorMessage, QStringLiteral("Invalid request: \\x1b[31mred\\u202e"));
    QCOMPARE(s.venueNotice, QStringLiteral("64008: upgrade\\x07 soon"));
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.dataMessages, quint64(0));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestOkxVenue)
#include "tst_okxvenue.moc"
