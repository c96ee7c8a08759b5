// WebSocketHandshake: the client's opening handshake (RFC 6455 §4.1), fed the server's answer
// directly, whole and cut at every byte: the request it writes, what it accepts, and the
// error a user reads for each answer it refuses.

#include "../common/TestRegistry.h"
#include "transport/WebSocketHandshake.h"

#include <QtCore/QUrl>
#include <QtTest/QtTest>

using namespace streamscope;
using HandshakeResult = WebSocketHandshake::Result;
using Headers = QList<QPair<QByteArray, QByteArray>>;

namespace {

QByteArray keyOf(const QByteArray &request)
{
    for (const QByteArray &line : request.split('\n'))
        if (line.toLower().startsWith("sec-websocket-key:"))
            return line.mid(18).trimmed();
    return {};
}

QByteArray switching(const QByteArray &accept, const QByteArray &extra = {})
{
    return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
        + accept + "\r\n" + extra + "\r\n";
}

} // namespace

class TestWebSocketHandshake : public QObject {
    Q_OBJECT
private slots:
    void requestCarriesKeyHostAndHeaders();
    void requestRefusesHeadersItCannotSend_data();
    void requestRefusesHeadersItCannotSend();
    void keyIsFreshAndAcceptIsTheRfcs();
    void answer_data();
    void answer();
    void headOverItsBoundFails();
};

void TestWebSocketHandshake::requestCarriesKeyHostAndHeaders()
{
    WebSocketHandshake h;
    QString error;
    const QByteArray request = h.request(QUrl(QStringLiteral("ws://127.0.0.1:9000/stream?streams=a@b&x=%20y")),
                                         Headers{{"X-Token", "abc"}, {"Sec-WebSocket-Protocol", "v1, v2"}}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(request.startsWith("GET /stream?streams=a@b&x=%20y HTTP/1.1\r\n"));
    QVERIFY(request.contains("\r\nHost: 127.0.0.1:9000\r\n"));
    QVERIFY(request.contains("\r\nUpgrade: websocket\r\n"));
    QVERIFY(request.contains("\r\nConnection: Upgrade\r\n"));
    QVERIFY(request.contains("\r\nSec-WebSocket-Version: 13\r\n"));
    QVERIFY(request.contains("\r\nX-Token: abc\r\n"));
    QVERIFY(request.contains("\r\nSec-WebSocket-Protocol: v1, v2\r\n"));
    QVERIFY(request.endsWith("\r\n\r\n"));
    QCOMPARE(QByteArray::fromBase64(keyOf(request)).size(), 16);

    // The default port is left out; no path is "/"; IPv6 in brackets.
    QVERIFY(h.request(QUrl(QStringLiteral("wss://example.com:443")), {}, &error)
                .startsWith("GET / HTTP/1.1\r\nHost: example.com\r\n"));
    QVERIFY(h.request(QUrl(QStringLiteral("ws://[::1]:8080/x")), {}, &error).contains("\r\nHost: [::1]:8080\r\n"));
}

void TestWebSocketHandshake::requestRefusesHeadersItCannotSend_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("error");
    QTest::newRow("CR LF in a value") << QByteArray("X-A") << QByteArray("1\r\nHost: evil")
                                      << QStringLiteral("header \"X-A\" has a value with CR, LF or NUL");
    QTest::newRow("NUL in a value") << QByteArray("X-A") << QByteArray("a\0b", 3)
                                    << QStringLiteral("header \"X-A\" has a value with CR, LF or NUL");
    QTest::newRow("name with a colon") << QByteArray("X:A") << QByteArray("1")
                                       << QStringLiteral("header name \"X:A\" is not an HTTP token");
    QTest::newRow("the handshake's own") << QByteArray("sec-websocket-key") << QByteArray("x")
                                         << QStringLiteral(
                                                "header \"sec-websocket-key\" is written by the websocket handshake "
                                                "itself");
}

void TestWebSocketHandshake::requestRefusesHeadersItCannotSend()
{
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, value);
    QFETCH(QString, error);
    WebSocketHandshake h;
    QString got;
    QVERIFY(h.request(QUrl(QStringLiteral("ws://127.0.0.1:1/")), Headers{{name, value}}, &got).isEmpty());
    QCOMPARE(got, error);
}

void TestWebSocketHandshake::keyIsFreshAndAcceptIsTheRfcs()
{
    // RFC 6455 §1.3's example.
    QCOMPARE(WebSocketHandshake::acceptFor("dGhlIHNhbXBsZSBub25jZQ=="), QByteArray("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="));
    WebSocketHandshake h;
    QString error;
    const QUrl url(QStringLiteral("ws://127.0.0.1:1/"));
    QVERIFY(keyOf(h.request(url, {}, &error)) != keyOf(h.request(url, {}, &error)));
}

void TestWebSocketHandshake::answer_data()
{
    // "%A" in an answer stands for the Sec-WebSocket-Accept of the request's key.
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<Headers>("headers");
    QTest::addColumn<bool>("done");
    QTest::addColumn<QString>("error"); // Failed: the error, after "websocket handshake: "
    QTest::addColumn<QByteArray>("rest");

    const Headers none;
    const QByteArray frame("\x81\x02{}", 4);
    QTest::newRow("101") << switching("%A") << none << true << QString() << QByteArray();
    QTest::newRow("first frame in the same read") << switching("%A") + frame << none << true << QString() << frame;
    QTest::newRow("header names in any case, repeated Connection")
        << QByteArray("HTTP/1.1 101 x\r\nupgrade: WebSocket\r\nCONNECTION: keep-alive\r\nconnection: upgrade\r\n"
                      "sec-websocket-accept: %A\r\n\r\n")
        << none << true << QString() << QByteArray();
    QTest::newRow("no reason phrase") << QByteArray("HTTP/1.1 101\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                                    "Sec-WebSocket-Accept: %A\r\n\r\n")
                                      << none << true << QString() << QByteArray();
    QTest::newRow("wrong accept") << switching("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") << none << false
                                  << QStringLiteral("the server's Sec-WebSocket-Accept does not match the key sent")
                                  << QByteArray();
    QTest::newRow("two accepts") << switching("%A", "Sec-WebSocket-Accept: %A\r\n") << none << false
                                 << QStringLiteral("the server's Sec-WebSocket-Accept does not match the key sent")
                                 << QByteArray();
    QTest::newRow("no accept") << QByteArray("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
                               << none << false << QStringLiteral("the server's answer has no Sec-WebSocket-Accept")
                               << QByteArray();
    QTest::newRow("no upgrade") << QByteArray(
        "HTTP/1.1 101 OK\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %A\r\n\r\n")
                                << none << false << QStringLiteral("the server's answer has no \"Upgrade: websocket\"")
                                << QByteArray();
    QTest::newRow("no connection") << QByteArray(
        "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: %A\r\n\r\n")
                                   << none << false
                                   << QStringLiteral("the server's answer has no \"Connection: Upgrade\"")
                                   << QByteArray();
    QTest::newRow("redirect") << QByteArray("HTTP/1.1 301 Moved\r\nLocation: wss://other.example/ws\r\n\r\n") << none
                              << false
                              << QStringLiteral("the server redirects (HTTP 301) to wss://other.example/ws; redirects "
                                                "are not followed, put the new URL in the stream")
                              << QByteArray();
    QTest::newRow("redirect with a token")
        << QByteArray("HTTP/1.1 307 x\r\nLocation: wss://o.example/ws?token=s3cr3t\r\n\r\n") << none << false
        << QStringLiteral("the server redirects (HTTP 307) to "
                          "wss://o.example/ws; redirects are not followed, put "
                          "the new URL in the stream")
        << QByteArray();
    QTest::newRow("404, escaped") << QByteArray("HTTP/1.1 404 Not \x1b[2JFound\r\n\r\n") << none << false
                                  << QStringLiteral("the server answered HTTP 404 instead of switching to websocket "
                                                    "(\"Not \\x1b[2JFound\")")
                                  << QByteArray();
    QTest::newRow("HTTP/1.0") << QByteArray("HTTP/1.0 101 OK\r\n\r\n") << none << false
                              << QStringLiteral("the server did not answer in HTTP/1.1 (\"HTTP/1.0 101 OK\")")
                              << QByteArray();
    QTest::newRow("malformed header") << switching("%A", "no colon here\r\n") << none << false
                                      << QStringLiteral("the server sent a malformed header line (\"no colon here\")")
                                      << QByteArray();
    QTest::newRow("subprotocol not asked") << switching("%A", "Sec-WebSocket-Protocol: chat\r\n") << none << false
                                           << QStringLiteral("the server chose the subprotocol \"chat\", which was not "
                                                             "asked for")
                                           << QByteArray();
    QTest::newRow("subprotocol asked") << switching("%A", "Sec-WebSocket-Protocol: v2\r\n")
                                       << Headers{{"Sec-WebSocket-Protocol", "v1, v2"}} << true << QString()
                                       << QByteArray();
    QTest::newRow("subprotocol other than asked")
        << switching("%A", "Sec-WebSocket-Protocol: v3\r\n") << Headers{{"Sec-WebSocket-Protocol", "v1, v2"}} << false
        << QStringLiteral("the server chose the subprotocol \"v3\", which "
                          "was not asked for")
        << QByteArray();
    QTest::newRow("extension not asked") << switching("%A", "Sec-WebSocket-Extensions: permessage-deflate\r\n") << none
                                         << false
                                         << QStringLiteral("the server chose the extension \"permessage-deflate\", "
                                                           "which was not asked for")
                                         << QByteArray();
    QTest::newRow("extension asked") << switching("%A", "Sec-WebSocket-Extensions: x-test; a=1\r\n")
                                     << Headers{{"Sec-WebSocket-Extensions", "x-test"}} << true << QString()
                                     << QByteArray();
}

// Whole and cut at every byte: the same verdict and the same bytes after the head.
void TestWebSocketHandshake::answer()
{
    QFETCH(QByteArray, answer);
    QFETCH(Headers, headers);
    QFETCH(bool, done);
    QFETCH(QString, error);
    QFETCH(QByteArray, rest);
    for (qsizetype cut = 0; cut < answer.size(); ++cut) {
        WebSocketHandshake h;
        QString requestError;
        const QByteArray request = h.request(QUrl(QStringLiteral("ws://127.0.0.1:1/")), headers, &requestError);
        QVERIFY(requestError.isEmpty());
        QByteArray bytes = answer;
        bytes.replace("%A", WebSocketHandshake::acceptFor(keyOf(request)));
        const qsizetype at = std::min(cut, bytes.size());
        HandshakeResult r = at > 0 ? h.read(bytes.constData(), at) : HandshakeResult::NeedMore;
        if (r == HandshakeResult::NeedMore)
            r = h.read(bytes.constData() + at, bytes.size() - at);
        QCOMPARE(r, done ? HandshakeResult::Done : HandshakeResult::Failed);
        if (done) {
            QCOMPARE(h.takeRest(), rest);
            QVERIFY(h.takeRest().isEmpty()); // handed over once, not kept
        } else {
            QCOMPARE(h.errorText(), QStringLiteral("websocket handshake: ") + error);
        }
    }
}

void TestWebSocketHandshake::headOverItsBoundFails()
{
    WebSocketHandshake h;
    QString error;
    h.request(QUrl(QStringLiteral("ws://127.0.0.1:1/")), {}, &error);
    const QByteArray line = "X-Filler: " + QByteArray(100, 'f') + "\r\n";
    QByteArray head = "HTTP/1.1 101 OK\r\n";
    HandshakeResult r = h.read(head.constData(), head.size());
    while (r == HandshakeResult::NeedMore && h.room() > 0) {
        const qsizetype n = std::min(h.room(), line.size());
        r = h.read(line.constData(), n);
    }
    QCOMPARE(r, HandshakeResult::Failed);
    QCOMPARE(h.errorText(), QStringLiteral("websocket handshake: the server's answer has a head over 16384 bytes"));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestWebSocketHandshake)
#include "tst_websockethandshake.moc"
