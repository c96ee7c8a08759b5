// The hostile-peer suite: one server (HostilePeer) sends every bad input of docs/security.md and
// of the hardening issue, on websocket and on line streams, each after a few good messages;
// every websocket row runs against both websocket clients ("qt: ..." and "native: ...", the
// stream's "transport"), with the same outcome except where a row says otherwise;
// the test says what StreamScope must do with it (count it and keep the connection, close
// with the RFC's code and reconnect, declare a silent connection dead, call a quiet line
// stream Stalled) and checks that the attacked stream's counts are exact and that a neighbour
// stream on the same worker thread is untouched: every message counted, nothing else.

#include "../common/TestRegistry.h"
#include "HostilePeer.h"
#include "IntegrationSupport.h"

#include <limits>

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;
using replay::ReplayServer;

namespace {

constexpr int kGood = 5;                   // good messages before the attack, and after it when kept
constexpr qint64 kMaxMessageBytes = 65536; // the attacked stream's limit
constexpr quint64 kNeighbourMessages = 1000;
constexpr qint64 kInt64Max = std::numeric_limits<qint64>::max();

enum class Outcome {
    Kept,         // counted as said; the connection stays and the good messages after it arrive
    Closed,       // the connection closes with `closeCode`; the stream reconnects once
    Dead,         // nothing complete arrives any more: the watchdog ends the connection; reconnects
    Stalled,      // a line stream gone quiet is Stalled, not reconnected (reconnect_on_stall off)
    KeptOrClosed, // masked server frames: Qt 6.4 unmasks them (docs/security.md); a Qt that checks closes (1002)
};

// What the native websocket client does where the Qt one differs: it refuses masked server
// frames (1002), so the attack's messages never count.
Outcome nativeOutcome(Outcome qt)
{
    return qt == Outcome::KeptOrClosed ? Outcome::Closed : qt;
}

QByteArray aggTrade(qint64 id)
{
    return QStringLiteral(R"({"e":"aggTrade","E":1700000000000,"s":"BTCUSDT","a":%1,"p":"1.5","q":"2",)"
                          R"("f":%1,"l":%1,"T":1700000000000,"m":true,"M":true})")
        .arg(id)
        .toUtf8();
}

QByteArray depthUpdate(qint64 first, qint64 last)
{
    return QStringLiteral(R"({"e":"depthUpdate","E":1700000000000,"s":"BTCUSDT","U":%1,"u":%2,"b":[],"a":[]})")
        .arg(first)
        .arg(last)
        .toUtf8();
}

QByteArray repeated(const QByteArray &part, int times)
{
    QByteArray out;
    out.reserve(part.size() * times);
    for (int i = 0; i < times; ++i)
        out += part;
    return out;
}

// Websocket attacks.
QByteArray maskedFrames()
{
    QByteArray out;
    for (quint32 i = 0; i < 3; ++i)
        out += wsframe::encode({wsframe::Text, aggTrade(100 + i), true, 0, 0x9e3779b9u + i});
    return out;
}
QByteArray invalidUtf8()
{
    return wsframe::text("{\"s\":\"\xff\xfe\"}");
}
QByteArray invalidUtf8AcrossFragments()
{
    return wsframe::encode({wsframe::Text, "{\"s\":\"\xe2\x82", false}) // a 3-byte character cut ...
        + wsframe::encode({wsframe::Continuation, "\"}"});              // ... and never finished
}
QByteArray reservedDataOpcode()
{
    return wsframe::encode({0x3, "x"});
}
QByteArray reservedControlOpcode()
{
    return wsframe::encode({0xb, "x"});
}
QByteArray rsvBit()
{
    return wsframe::encode({wsframe::Text, aggTrade(100), true, wsframe::kRsv1});
}
QByteArray orphanContinuation()
{
    return wsframe::encode({wsframe::Continuation, aggTrade(100)});
}
QByteArray fragmentedPing()
{
    return wsframe::encode({wsframe::Ping, "x", false});
}
QByteArray oversizedPing()
{
    return wsframe::encode({wsframe::Ping, QByteArray(126, 'p')});
}
QByteArray oneByteClose()
{
    return wsframe::encode({wsframe::Close, "\x03"});
}
QByteArray closeCode999()
{
    return wsframe::close(999, "below the range");
}
QByteArray closeCode1005()
{
    return wsframe::close(1005, "a code no peer may send");
}
QByteArray closeCode5000()
{
    return wsframe::close(5000, "above the range");
}
QByteArray closeReasonInvalidUtf8()
{
    return wsframe::close(1000, "bye \xff");
}
QByteArray declaredLengthInt64Max()
{
    return wsframe::header(wsframe::Text, quint64(kInt64Max));
}
QByteArray declaredLengthTopBit()
{
    return wsframe::header(wsframe::Text, quint64(1) << 63);
}
QByteArray declaredLengthOverLimit()
{
    return wsframe::header(wsframe::Text, quint64(kMaxMessageBytes) * 16) + QByteArray(1000, 'x');
}
QByteArray firstFragment()
{
    return wsframe::encode({wsframe::Text, QByteArray(1024, 'f'), false});
}
QByteArray nextFragment()
{
    return wsframe::encode({wsframe::Continuation, QByteArray(1024, 'f'), false});
}
QByteArray pingFlood()
{
    return repeated(wsframe::encode({wsframe::Ping, QByteArray(125, 'p')}), 20000);
}
QByteArray pongFlood()
{
    return repeated(wsframe::encode({wsframe::Pong, QByteArray(125, 'p')}), 20000);
}
QByteArray halfFrame()
{
    return wsframe::text(QByteArray(100, 'h')).left(20);
}
QByteArray httpGarbage()
{
    return "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>not a websocket</html>";
}
QByteArray badJson()
{
    return wsframe::text("{\"e\":\"aggTrade\",");
}
QByteArray terminalEscapes()
{
    return wsframe::text("\x1b[2J\x1b]0;owned\x07all streams OK\r\n\xc2\x9b" // C1 CSI
                         "31m");
}
QByteArray wrongFieldType()
{
    return wsframe::text(R"({"e":"aggTrade","E":"soon","s":"BTCUSDT","a":100})");
}
QByteArray binaryFrame()
{
    return wsframe::encode({wsframe::Binary, QByteArray("\x00\x01\x02\xff", 4)});
}
// Depth ids up to the int64 limit with three missing before it (one gap), then ids that went
// back (an overlap on spot, no gap); event times no clock can hold.
QByteArray int64Limits()
{
    return wsframe::text(depthUpdate(kInt64Max - 10, kInt64Max - 5))
        + wsframe::text(depthUpdate(kInt64Max - 1, kInt64Max)) + wsframe::text(depthUpdate(1, 2))
        + wsframe::text(R"({"e":"aggTrade","E":9223372036854775807,"s":"BTCUSDT","a":9223372036854775807})")
        + wsframe::text(R"({"e":"aggTrade","E":1e300,"s":"BTCUSDT","a":100})")
        + wsframe::text(R"({"e":"aggTrade","E":-9223372036854775808,"s":"BTCUSDT","a":101})");
}

// Line attacks.
QByteArray endlessLineStart()
{
    return "{\"e\":\"";
}
QByteArray endlessLinePart()
{
    return QByteArray(4096, 'x');
}
QByteArray nulInLine()
{
    return QByteArray("{\"e\":\"a\0b\"}\r\n", 13);
}
QByteArray invalidUtf8Line()
{
    return "{\"s\":\"\xff\xfe\"}\r\n";
}
QByteArray garbageLine()
{
    return QByteArray("\x00\xff\x80garbage\x01\x02", 12) + "\r\n";
}
QByteArray escapesLine()
{
    return "\x1b[2J\x1b]0;owned\x07all streams OK\r\n";
}
QByteArray halfLine()
{
    return "{\"e\":\"aggTrade\",\"E\":17";
}

struct HostileCase {
    const char *name;
    HostilePeer::Mode mode;
    QByteArray (*attack)();  // sent after kGood good messages, on the first connection only
    QByteArray (*endless)(); // then this, again and again (the endless attacks)
    Outcome outcome;
    int closeCode;       // Closed: the close code the stream reports (0: a line stream, no code)
    quint64 attackData;  // data messages the attack itself holds (a bad message is one too)
    quint64 parseErrors; // parse errors it causes
    quint64 gaps;
    quint64 invalidTimes; // event times counted invalid
};

constexpr auto WS = HostilePeer::Mode::WebSocket;
constexpr auto LINES = HostilePeer::Mode::Lines;

const HostileCase kCases[] = {
    // name, mode, attack, endless, outcome, close code, data, parse errors, gaps, invalid times
    {"masked frames", WS, maskedFrames, nullptr, Outcome::KeptOrClosed, 1002, 3, 0, 0, 0},
    {"invalid UTF-8", WS, invalidUtf8, nullptr, Outcome::Closed, 1007, 0, 0, 0, 0},
    {"invalid UTF-8 across fragments", WS, invalidUtf8AcrossFragments, nullptr, Outcome::Closed, 1007, 0, 0, 0, 0},
    {"reserved data opcode", WS, reservedDataOpcode, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"reserved control opcode", WS, reservedControlOpcode, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"RSV1 without an extension", WS, rsvBit, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"orphan continuation", WS, orphanContinuation, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"fragmented ping", WS, fragmentedPing, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"ping payload over 125 bytes", WS, oversizedPing, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"one-byte close payload", WS, oneByteClose, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"close code 999", WS, closeCode999, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"close code 1005 on the wire", WS, closeCode1005, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"close code 5000", WS, closeCode5000, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"close reason not UTF-8", WS, closeReasonInvalidUtf8, nullptr, Outcome::Closed, 1007, 0, 0, 0, 0},
    {"declared length 2^63-1", WS, declaredLengthInt64Max, nullptr, Outcome::Closed, 1009, 0, 0, 0, 0},
    {"declared length with the top bit", WS, declaredLengthTopBit, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"declared length over the limit", WS, declaredLengthOverLimit, nullptr, Outcome::Closed, 1009, 0, 0, 0, 0},
    {"endless fragments", WS, firstFragment, nextFragment, Outcome::Closed, 1009, 0, 0, 0, 0},
    {"ping flood", WS, pingFlood, nullptr, Outcome::Kept, 0, 0, 0, 0, 0},
    {"pong flood", WS, pongFlood, nullptr, Outcome::Kept, 0, 0, 0, 0, 0},
    {"half a frame, then silence", WS, halfFrame, nullptr, Outcome::Dead, 0, 0, 0, 0, 0},
    {"HTTP garbage after the handshake", WS, httpGarbage, nullptr, Outcome::Closed, 1002, 0, 0, 0, 0},
    {"bad JSON", WS, badJson, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"terminal escape sequences", WS, terminalEscapes, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"a field of the wrong type", WS, wrongFieldType, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"binary frame", WS, binaryFrame, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"int64-limit ids and times", WS, int64Limits, nullptr, Outcome::Kept, 0, 6, 0, 1, 3},
    {"endless line", LINES, endlessLineStart, endlessLinePart, Outcome::Closed, 0, 0, 0, 0, 0},
    {"NUL in a line", LINES, nulInLine, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"invalid UTF-8 in a line", LINES, invalidUtf8Line, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"binary garbage line", LINES, garbageLine, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"terminal escapes in a line", LINES, escapesLine, nullptr, Outcome::Kept, 0, 1, 1, 0, 0},
    {"half a line, then silence", LINES, halfLine, nullptr, Outcome::Stalled, 0, 0, 0, 0, 0},
};

// What the peer sends on connection `n`: good messages, on the first connection the attack,
// and when the attack is one the connection survives, good messages after it.
PeerScript scriptFor(const HostileCase &c, int connection)
{
    const bool lines = c.mode == HostilePeer::Mode::Lines;
    qint64 nextId = connection == 1 ? 1 : qint64(100) * connection;
    const auto good = [&] {
        QByteArray out;
        for (int i = 0; i < kGood; ++i)
            out += lines ? aggTrade(nextId++) + "\r\n" : wsframe::text(aggTrade(nextId++));
        return out;
    };
    PeerScript s;
    s.bytes = good();
    if (connection > 1)
        return s;
    s.bytes += c.attack();
    if (c.outcome == Outcome::Kept || c.outcome == Outcome::KeptOrClosed)
        s.bytes += good();
    if (c.endless)
        s.more = c.endless;
    return s;
}

// A character a terminal or a text view would act on rather than show.
bool hasControl(const QString &text)
{
    return std::any_of(text.begin(), text.end(), [](QChar ch) {
        const char16_t u = ch.unicode();
        return u < 0x20 || (u >= 0x7f && u <= 0x9f);
    });
}

} // namespace

class TestHostilePeer : public QObject {
    Q_OBJECT
private slots:
    void attackIsHandledAndNeighbourExact_data();
    void attackIsHandledAndNeighbourExact();
};

void TestHostilePeer::attackIsHandledAndNeighbourExact_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<WebSocketClient>("client");
    for (int i = 0; i < int(std::size(kCases)); ++i) {
        if (kCases[i].mode == HostilePeer::Mode::Lines) {
            QTest::newRow(kCases[i].name) << i << WebSocketClient::Qt;
            continue;
        }
        for (WebSocketClient client : {WebSocketClient::Qt, WebSocketClient::Native})
            QTest::newRow(
                qPrintable(webSocketClientName(client) + QStringLiteral(": ") + QLatin1String(kCases[i].name)))
                << i << client;
    }
}

void TestHostilePeer::attackIsHandledAndNeighbourExact()
{
    QFETCH(int, index);
    QFETCH(WebSocketClient, client);
    HostileCase c = kCases[index];
    if (client == WebSocketClient::Native) {
        c.outcome = nativeOutcome(c.outcome);
        if (kCases[index].outcome == Outcome::KeptOrClosed)
            c.attackData = 0;
    }
    HostilePeer peer(c.mode, [&c](int connection) { return scriptFor(c, connection); });
    QVERIFY(peer.listen());
    ReplayOptions neighbourOptions;
    neighbourOptions.rate = 2000; // spread over the attack (half a second)
    ReplayServer neighbourServer{neighbourOptions};
    QVERIFY(neighbourServer.listen());

    Engine engine(Engine::Options{1}); // both streams on the same worker
    StreamConfig attacked;
    attacked.name = QStringLiteral("attacked");
    attacked.transport = client;
    if (c.mode == HostilePeer::Mode::WebSocket) {
        attacked.venue = Venue("binance");
        attacked.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/ws").arg(peer.port()));
        // The server time (docs/clock.md) and the order books' snapshots (docs/books.md) from the
        // neighbour: the peer counts every connection.
        attacked.serverTimeUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/api/v3/time").arg(neighbourServer.port()));
        attacked.restUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(neighbourServer.port()));
    } else {
        attacked.url = QUrl(QStringLiteral("tcp://127.0.0.1:%1").arg(peer.port()));
    }
    attacked.maxMessageBytes = kMaxMessageBytes;
    attacked.reconnectBaseMs = 50;
    attacked.reconnectMaxMs = 200;
    if (c.outcome == Outcome::Dead) {
        attacked.pingIntervalMs = 200;
        attacked.pongTimeoutMs = 1000;
    }
    if (c.outcome == Outcome::Stalled)
        attacked.stallTimeoutMs = 500;
    const StreamId id = engine.addStream(attacked);
    const StreamId neighbour =
        engine.addStream(wsStream(QStringLiteral("neighbour"), neighbourServer.port(),
                                  QStringLiteral("small_aggtrade?count=%1").arg(kNeighbourMessages)));

    const quint64 expectedData = quint64(kGood) * 2 + c.attackData;
    switch (c.outcome) {
    case Outcome::Kept:
    case Outcome::KeptOrClosed:
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).dataMessages >= expectedData
                                     || engine.snapshot(id).lastCloseCode != 0,
                                 scaledMs(20000));
        if (c.outcome == Outcome::KeptOrClosed && engine.snapshot(id).lastCloseCode != 0) {
            qInfo("Qt %s closes the connection", qVersion());
            QCOMPARE(engine.snapshot(id).lastCloseCode, c.closeCode);
            QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(kGood) * 2, scaledMs(20000));
            break;
        }
        QTest::qWait(100); // nothing more may come
        QCOMPARE(engine.snapshot(id).dataMessages, expectedData);
        QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
        QCOMPARE(engine.snapshot(id).state, StreamState::Live);
        QCOMPARE(peer.connections(), 1);
        break;
    case Outcome::Closed:
    case Outcome::Dead:
        // The second connection only sends good messages: the stream is back and exact.
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, expectedData, scaledMs(20000));
        QCOMPARE(engine.snapshot(id).reconnects, quint64(1));
        QCOMPARE(peer.connections(), 2);
        if (c.outcome == Outcome::Closed && c.closeCode != 0)
            QCOMPARE(engine.snapshot(id).lastCloseCode, c.closeCode);
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Live, scaledMs(5000));
        break;
    case Outcome::Stalled:
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Stalled, scaledMs(20000));
        QTest::qWait(500);
        QCOMPARE(engine.snapshot(id).state, StreamState::Stalled);
        QCOMPARE(engine.snapshot(id).dataMessages, quint64(kGood));
        QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
        QCOMPARE(peer.connections(), 1);
        break;
    }
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.parseErrors, c.parseErrors);
    QCOMPARE(s.gaps, c.gaps);
    QCOMPARE(s.latency.invalid, c.invalidTimes);
    QVERIFY2(!hasControl(s.stateReason), qPrintable(s.stateReason));
    QVERIFY2(!hasControl(s.lastParseError), qPrintable(s.lastParseError));

    // The neighbour: every message counted once, nothing else.
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(neighbour).dataMessages, kNeighbourMessages, scaledMs(20000));
    QTest::qWait(50);
    const StreamSnapshot n = engine.snapshot(neighbour, true);
    QCOMPARE(n.messages, kNeighbourMessages);
    QCOMPARE(n.dataMessages, kNeighbourMessages);
    QCOMPARE(n.latency.count, kNeighbourMessages);
    QCOMPARE(n.parseErrors, quint64(0));
    QCOMPARE(n.gaps, quint64(0));
    QCOMPARE(n.reconnects, quint64(0));
    QCOMPARE(n.state, StreamState::Live);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestHostilePeer)
#include "tst_hostilepeer.moc"
