// HeadScanner: classification of venue messages from their first 256 bytes.

#include "../common/TestRegistry.h"
#include "protocol/DecodeSpec.h"
#include "protocol/HeadScanner.h"
#include "venues/VenueRegistry.h"

#include <QtTest/QtTest>

using streamscope::HeadInfo;
using streamscope::HeadScanner;
using streamscope::HeadSpec;
using streamscope::MessageKind;

namespace {

// The generic venue's head spec: it knows the shapes of every venue StreamScope started with
// (Binance's responses and envelope, Betfair's op messages).
const HeadSpec &genericHead()
{
    return streamscope::VenueRegistry::entryOf(streamscope::Venue::Generic).decodeSpec().head;
}

QByteArray kindName(MessageKind kind)
{
    switch (kind) {
    case MessageKind::Unknown: return "Unknown";
    case MessageKind::Data: return "Data";
    case MessageKind::Result: return "Result";
    case MessageKind::Error: return "Error";
    case MessageKind::Connection: return "Connection";
    case MessageKind::Heartbeat: return "Heartbeat";
    case MessageKind::Pong: return "Pong";
    }
    return "invalid " + QByteArray::number(int(kind));
}

// A depth snapshot whose bids fill the head, so that whatever is appended lies after byte 256.
QByteArray longDepthPrefix()
{
    QByteArray m = "{\"lastUpdateId\":160,\"bids\":[";
    for (int i = 0; i < 20; ++i)
        m += (i ? "," : "") + QByteArray("[\"0.00240000\",\"10.00000000\"]");
    m += "]";
    return m;
}

} // namespace

class tst_HeadScanner : public QObject {
    Q_OBJECT

private slots:
    void classify_data();
    void classify();
    void onlyTheHeadIsRead();
    void keyFoundAtEveryOffset();
    void heartbeatsLeftToTheDecoder();
    void specGivenAsData_data();
    void specGivenAsData();
    void keyedKinds_data();
    void keyedKinds();
};

void tst_HeadScanner::classify_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QByteArray>("id");
    QTest::addColumn<bool>("idIsString");

    // Binance market streams: control responses.
    QTest::newRow("Binance subscribe result")
        << QByteArray("{\"result\":null,\"id\":1}") << QByteArray("Result") << QByteArray("1") << false;
    QTest::newRow("Binance list subscriptions result") << QByteArray("{\"result\":[\"btcusdt@aggTrade\"],\"id\":3}")
                                                       << QByteArray("Result") << QByteArray("3") << false;
    QTest::newRow("Binance result, id first")
        << QByteArray("{\"id\":42,\"result\":null}") << QByteArray("Result") << QByteArray("42") << false;
    QTest::newRow("Binance result with whitespace")
        << QByteArray(" { \"result\" : null , \"id\" : 12 }") << QByteArray("Result") << QByteArray("12") << false;
    QTest::newRow("Binance error with id") << QByteArray("{\"error\":{\"code\":2,\"msg\":\"x\"},\"id\":7}")
                                           << QByteArray("Error") << QByteArray("7") << false;
    QTest::newRow("Binance error, long message")
        << QByteArray("{\"error\":{\"code\":2,\"msg\":\"Invalid request: unknown property\"},\"id\":8}")
        << QByteArray("Error") << QByteArray("8") << false;
    QTest::newRow("Binance code/msg error without id")
        << QByteArray("{\"code\":3,\"msg\":\"Invalid JSON\"}") << QByteArray("Error") << QByteArray() << false;

    // Binance websocket API envelope: string ids.
    QTest::newRow("websocket API result")
        << QByteArray("{\"id\":\"e2a85d9f-07a5-4f94-8d5f-789dc3deb097\",\"status\":200,"
                      "\"result\":{\"serverTime\":1656400526260},\"rateLimits\":[]}")
        << QByteArray("Result") << QByteArray("e2a85d9f-07a5-4f94-8d5f-789dc3deb097") << true;
    QTest::newRow("websocket API error status 400")
        << QByteArray("{\"id\":\"e2a85d9f-07a5-4f94-8d5f-789dc3deb097\",\"status\":400,"
                      "\"error\":{\"code\":-2010,\"msg\":\"Account has insufficient balance.\"},\"rateLimits\":[]}")
        << QByteArray("Error") << QByteArray("e2a85d9f-07a5-4f94-8d5f-789dc3deb097") << true;
    QTest::newRow("websocket API status 429 without error body")
        << QByteArray("{\"id\":\"abc\",\"status\":429,\"rateLimits\":[]}") << QByteArray("Error") << QByteArray("abc")
        << true;
    // Found by fuzz_headscanner: the status's digits overflowed an int (undefined; in practice
    // 2^32 + 1 wrapped to 1, a success).
    QTest::newRow("status beyond int is an error") << QByteArray("{\"id\":8,\"status\":4294967297,\"result\":null}")
                                                   << QByteArray("Error") << QByteArray("8") << false;
    QTest::newRow("status of 200 digits is an error")
        << (QByteArray("{\"id\":9,\"status\":") + QByteArray(200, '9') + "}") << QByteArray("Error") << QByteArray("9")
        << false;

    // Betfair.
    QTest::newRow("Betfair connection") << QByteArray(
        "{\"op\":\"connection\",\"connectionId\":\"002-051134157842-432409\"}")
                                        << QByteArray("Connection") << QByteArray() << false;
    QTest::newRow("Betfair status SUCCESS")
        << QByteArray("{\"op\":\"status\",\"id\":1,\"statusCode\":\"SUCCESS\",\"connectionClosed\":false,"
                      "\"connectionsAvailable\":9}")
        << QByteArray("Result") << QByteArray("1") << false;
    QTest::newRow("Betfair status FAILURE")
        << QByteArray("{\"op\":\"status\",\"id\":6,\"statusCode\":\"FAILURE\",\"errorCode\":\"TIMEOUT\","
                      "\"errorMessage\":\"...\",\"connectionClosed\":true}")
        << QByteArray("Error") << QByteArray("6") << false;
    QTest::newRow("Betfair heartbeat") << QByteArray(
        "{\"op\":\"mcm\",\"id\":2,\"clk\":\"AIEBAJ4BAIEB\",\"pt\":1449855402068,\"ct\":\"HEARTBEAT\"}")
                                       << QByteArray("Heartbeat") << QByteArray() << false;
    QTest::newRow("Betfair order heartbeat")
        << QByteArray("{\"op\":\"ocm\",\"id\":3,\"clk\":\"AAAAAAAA\",\"pt\":1449855402068,\"ct\":\"HEARTBEAT\"}")
        << QByteArray("Heartbeat") << QByteArray() << false;
    QTest::newRow("Betfair mcm delta") << QByteArray(
        "{\"op\":\"mcm\",\"id\":2,\"clk\":\"AEYAVAA7\",\"pt\":1449855401068,"
        "\"mc\":[{\"id\":\"1.120684740\",\"rc\":[{\"id\":47972,\"ltp\":2.52}]}]}")
                                       << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("Betfair mcm SUB_IMAGE")
        << QByteArray("{\"op\":\"mcm\",\"id\":2,\"initialClk\":\"xAeGqeqzBsQHkdq8uQbEB9jygrkG\",\"clk\":\"AAAAAAAA\","
                      "\"conflateMs\":0,\"heartbeatMs\":5000,\"pt\":1449855400048,\"ct\":\"SUB_IMAGE\","
                      "\"mc\":[{\"id\":\"1.120684740\",\"img\":true}]}")
        << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("Betfair mcm with status 503 stays data")
        << QByteArray("{\"op\":\"mcm\",\"id\":2,\"clk\":\"AAAA\",\"pt\":1449855401068,\"status\":503,\"mc\":[]}")
        << QByteArray("Data") << QByteArray() << false;

    // Market data.
    QTest::newRow("Binance raw aggTrade")
        << QByteArray("{\"e\":\"aggTrade\",\"E\":1672515782136,\"s\":\"BTCUSDT\",\"a\":12345,\"p\":\"0.001\","
                      "\"q\":\"100\",\"f\":100,\"l\":105,\"T\":1672515782136,\"m\":true,\"M\":true}")
        << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("Binance combined stream")
        << QByteArray("{\"stream\":\"btcusdt@aggTrade\",\"data\":{\"e\":\"aggTrade\",\"E\":1672515782136,"
                      "\"s\":\"BTCUSDT\",\"a\":12345}}")
        << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("Binance combined stream, result in data")
        << QByteArray("{\"stream\":\"x@y\",\"data\":{\"result\":1,\"id\":4,\"E\":1}}") << QByteArray("Data")
        << QByteArray() << false;
    QTest::newRow("Binance partial depth")
        << QByteArray("{\"lastUpdateId\":160,\"bids\":[[\"0.0024\",\"10\"]],\"asks\":[[\"0.0026\",\"100\"]]}")
        << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("Binance array stream")
        << QByteArray("[{\"e\":\"24hrTicker\",\"E\":123456789}]") << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("generic data with id and string status")
        << QByteArray("{\"id\":5,\"status\":\"open\",\"price\":\"101.5\"}") << QByteArray("Data") << QByteArray()
        << false;
    QTest::newRow("generic data with status but no id")
        << QByteArray("{\"type\":\"tick\",\"status\":200,\"px\":1}") << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("word result as a value")
        << QByteArray("{\"type\":\"result\",\"lastError\":\"none\"}") << QByteArray("Data") << QByteArray() << false;

    const QByteArray prefix = longDepthPrefix();
    QVERIFY(prefix.size() > HeadScanner::kHeadBytes);
    QTest::newRow("error and result keys only after the head")
        << prefix + ",\"error\":{\"code\":1,\"msg\":\"x\"},\"result\":null,\"id\":9,\"status\":500}"
        << QByteArray("Data") << QByteArray() << false;
    QTest::newRow("code and msg keys only after the head")
        << QByteArray("{\"code\":0,\"data\":\"") + QByteArray(300, 'a') + "\",\"msg\":\"x\"}" << QByteArray("Data")
        << QByteArray() << false;

    // The key "error" starts inside the head but its ':' lies just past it.
    QByteArray straddle = "{\"pad\":\"";
    straddle += QByteArray(HeadScanner::kHeadBytes - straddle.size() - 9, 'p');
    straddle += "\",\"error\":1}";
    QCOMPARE(straddle.indexOf(':', straddle.indexOf("\"error\"")), HeadScanner::kHeadBytes);
    QTest::newRow("error key cut by the head end") << straddle << QByteArray("Data") << QByteArray() << false;

    // A numeric id that runs up to the end of the head may be cut: it is not reported.
    QByteArray cutId = "{\"result\":\"";
    cutId += QByteArray(HeadScanner::kHeadBytes - cutId.size() - 9, 'r');
    cutId += "\",\"id\":1234567}";
    QCOMPARE(cutId.indexOf("\"id\":") + 5, HeadScanner::kHeadBytes - 2);
    QTest::newRow("numeric id cut by the head end") << cutId << QByteArray("Result") << QByteArray() << false;
    // A long LIST_SUBSCRIPTIONS result puts its id after the head: a result without an id.
    QTest::newRow("result whose id lies after the head")
        << QByteArray("{\"result\":[\"") + QByteArray(300, 's') + "\"],\"id\":3}" << QByteArray("Result")
        << QByteArray() << false;
}

void tst_HeadScanner::classify()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, kind);
    QFETCH(QByteArray, id);
    QFETCH(bool, idIsString);

    const HeadInfo info = HeadScanner::scan(message.constData(), message.size(), genericHead());
    QCOMPARE(kindName(info.kind), kind);
    QCOMPARE(QByteArray(info.id.data(), qsizetype(info.id.size())), id);
    QCOMPARE(info.idIsString, idIsString);
    if (!info.id.empty()) { // the id is a view into the message's head
        QVERIFY(info.id.data() >= message.constData());
        QVERIFY(info.id.data() + info.id.size() <= message.constData() + HeadScanner::kHeadBytes);
    }
}

void tst_HeadScanner::onlyTheHeadIsRead()
{
    // Bytes past the head are never touched: a buffer of 256 valid bytes followed by bytes the
    // scanner must not need gives the same answer as the 256 bytes alone.
    QByteArray message = longDepthPrefix() + ",\"result\":null,\"id\":1}";
    const HeadInfo whole = HeadScanner::scan(message.constData(), message.size(), genericHead());
    const HeadInfo head = HeadScanner::scan(message.constData(), HeadScanner::kHeadBytes, genericHead());
    QCOMPARE(kindName(whole.kind), QByteArray("Data"));
    QCOMPARE(kindName(head.kind), QByteArray("Data"));

    const QByteArray result = "{\"result\":null,\"id\":1}";
    const HeadInfo shortScan = HeadScanner::scan(result.constData(), result.size(), genericHead());
    QCOMPARE(kindName(shortScan.kind), QByteArray("Result"));
    QCOMPARE(QByteArray(shortScan.id.data(), qsizetype(shortScan.id.size())), QByteArray("1"));
    QCOMPARE(kindName(HeadScanner::scan(result.constData(), 0, genericHead()).kind), QByteArray("Data"));
}

void tst_HeadScanner::keyFoundAtEveryOffset()
{
    // The key search tests sixteen positions at a time: the key must be found wherever it
    // starts, up to the head's last byte, and near-misses before it must not match.
    for (int pad = 0; pad <= 220; ++pad) {
        const QByteArray filler = "\"c\":\"ct\",\"cts\":1,\"x\":\"" + QByteArray(pad, 'c') + "\",";
        const QByteArray heartbeat = "{\"op\":\"mcm\"," + filler + "\"ct\":\"HEARTBEAT\"}";
        const QByteArray delta = "{\"op\":\"mcm\"," + filler + "\"ct\":\"RESUB_DELTA\"}";
        const QByteArray expected =
            heartbeat.indexOf("\"ct\":\"HEARTBEAT\"") + 16 <= HeadScanner::kHeadBytes ? "Heartbeat" : "Data";
        QCOMPARE(kindName(HeadScanner::scan(heartbeat.constData(), heartbeat.size(), genericHead()).kind), expected);
        QCOMPARE(kindName(HeadScanner::scan(delta.constData(), delta.size(), genericHead()).kind), QByteArray("Data"));
        // The message ends exactly after the value: the key is at the very end of the head.
        const QByteArray shortHead = heartbeat.left(heartbeat.indexOf("HEARTBEAT") + 10);
        QCOMPARE(kindName(HeadScanner::scan(shortHead.constData(), shortHead.size(), genericHead()).kind), expected);
    }
}

void tst_HeadScanner::heartbeatsLeftToTheDecoder()
{
    // A decoder that reads "ct" anyway gets every change message as data, marked as one.
    const QByteArray heartbeat = R"({"op":"mcm","id":2,"clk":"AIEB","pt":1449855402068,"ct":"HEARTBEAT"})";
    const QByteArray delta = R"({"op":"mcm","id":2,"clk":"AEYA","pt":1449855401068,"mc":[]})";
    const QByteArray status = R"({"op":"status","id":1,"statusCode":"SUCCESS"})";
    using H = HeadScanner::Heartbeats;
    const HeadInfo found = HeadScanner::scan(heartbeat.constData(), heartbeat.size(), genericHead(), H::Find);
    QCOMPARE(kindName(found.kind), QByteArray("Heartbeat"));
    QVERIFY(found.heartbeatCandidate);
    for (const QByteArray &m : {heartbeat, delta}) {
        const HeadInfo left = HeadScanner::scan(m.constData(), m.size(), genericHead(), H::LeaveToDecoder);
        QCOMPARE(kindName(left.kind), QByteArray("Data"));
        QVERIFY(left.heartbeatCandidate);
    }
    const HeadInfo other = HeadScanner::scan(status.constData(), status.size(), genericHead(), H::LeaveToDecoder);
    QCOMPARE(kindName(other.kind), QByteArray("Result"));
    QVERIFY(!other.heartbeatCandidate);
}

// A head spec given as data (a venue that does not exist): its data keys, its kind key and
// values, and no JSON-RPC responses. The scanner classifies by it alone.
void tst_HeadScanner::specGivenAsData_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QByteArray>("id");

    QTest::newRow("data key") << QByteArray(R"({"arg":{"channel":"books"},"data":[]})") << QByteArray("Data")
                              << QByteArray();
    QTest::newRow("error event") << QByteArray(R"({"event":"error","code":"60012","msg":"bad","id":"r1"})")
                                 << QByteArray("Error") << QByteArray("r1");
    QTest::newRow("subscribed event") << QByteArray(R"({"event":"subscribed","arg":{},"id":5})") << QByteArray("Result")
                                      << QByteArray("5");
    QTest::newRow("refined: a failed subscription")
        << QByteArray(R"({"event":"subscribed","success":"no","id":6})") << QByteArray("Error") << QByteArray("6");
    QTest::newRow("an event value it does not list is data")
        << QByteArray(R"({"event":"notice","msg":"maintenance"})") << QByteArray("Data") << QByteArray();
    QTest::newRow("JSON-RPC shapes mean nothing to it")
        << QByteArray(R"({"result":null,"id":1})") << QByteArray("Data") << QByteArray();
    QTest::newRow("the keep-alive answer, the whole message")
        << QByteArray("pong") << QByteArray("Pong") << QByteArray();
    QTest::newRow("longer than the keep-alive answer") << QByteArray("pongs") << QByteArray("Data") << QByteArray();
    QTest::newRow("shorter than the keep-alive answer") << QByteArray("pon") << QByteArray("Data") << QByteArray();
    QTest::newRow("the answer quoted is data") << QByteArray("\"pong\"") << QByteArray("Data") << QByteArray();
}

void tst_HeadScanner::specGivenAsData()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, kind);
    QFETCH(QByteArray, id);
    HeadSpec spec;
    spec.dataKeys = {"arg"};
    spec.kindKey = "event";
    spec.kinds = {
        HeadSpec::KindValue{.value = "error", .kind = MessageKind::Error, .readId = true},
        HeadSpec::KindValue{.value = "subscribed",
                            .kind = MessageKind::Result,
                            .readId = true,
                            .refineKey = "success",
                            .refineValue = "no",
                            .refinedKind = MessageKind::Error},
    };
    spec.rpcResponses = false;
    spec.pongText = "pong";
    const HeadInfo info = HeadScanner::scan(message.constData(), message.size(), spec);
    QCOMPARE(kindName(info.kind), kind);
    QCOMPARE(QByteArray(info.id.data(), qsizetype(info.id.size())), id);
}

// Kinds found by a key anywhere in the head (HeadSpec::keyedKinds), for answers whose keys come
// in no fixed order (Bybit's), with literal and string values.
void tst_HeadScanner::keyedKinds_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("kind");
    QTest::newRow("data by its first key") << QByteArray(R"({"topic":"x","success":false})") << QByteArray("Data");
    QTest::newRow("a pong by ret_msg") << QByteArray(R"({"success":true,"ret_msg":"pong","conn_id":"a","op":"ping"})")
                                       << QByteArray("Pong");
    QTest::newRow("a pong by op") << QByteArray(R"({"req_id":"7","op":"pong","args":["1"]})") << QByteArray("Pong");
    QTest::newRow("true, a literal") << QByteArray(R"({"success":true,"ret_msg":"","op":"subscribe"})")
                                     << QByteArray("Result");
    QTest::newRow("false, a literal, spaced")
        << QByteArray(R"({ "success" : false , "ret_msg":"error"})") << QByteArray("Error");
    QTest::newRow("false at the end") << QByteArray(R"({"op":"subscribe","success":false})") << QByteArray("Error");
    QTest::newRow("a longer literal is not it") << QByteArray(R"({"success":falsey})") << QByteArray("Data");
    QTest::newRow("none of them") << QByteArray(R"({"op":"subscribe"})") << QByteArray("Data");
}

void tst_HeadScanner::keyedKinds()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, kind);
    HeadSpec spec;
    spec.dataKeys = {"topic"};
    spec.keyedKinds = {
        HeadSpec::KeyedKind{.key = "ret_msg", .value = "pong", .kind = MessageKind::Pong},
        HeadSpec::KeyedKind{.key = "op", .value = "pong", .kind = MessageKind::Pong},
        HeadSpec::KeyedKind{.key = "success", .value = "false", .kind = MessageKind::Error},
        HeadSpec::KeyedKind{.key = "success", .value = "true", .kind = MessageKind::Result},
    };
    spec.rpcResponses = false;
    QCOMPARE(kindName(HeadScanner::scan(message.constData(), message.size(), spec).kind), kind);
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_HeadScanner)
#include "tst_headscanner.moc"
