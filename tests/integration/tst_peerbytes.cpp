// What a server sends reaches no terminal, log or view unescaped, and a close code Qt
// replaces is reported honestly: the real engine against a QWebSocketServer on 127.0.0.1
// that sends escape sequences in a bad message and in its close reason. Each test runs with
// both websocket clients (the stream's "transport").

#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

// A character a terminal or a text view would act on rather than show.
bool hasControlOrBidi(const QString &text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        const char16_t u = c.unicode();
        return u < 0x20 || (u >= 0x7f && u <= 0x9f) || (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
    });
}

// On every connection: one message, then a close with `code` and `reason`.
class HostileServer : public QObject {
public:
    // `code` is a number, not the enum: application codes (4000-4999) and invalid ones are
    // outside QWebSocketProtocol::CloseCode's values, so the test never stores one in it.
    HostileServer(QString message, quint16 code, QString reason)
        : m_server(QStringLiteral("hostile"), QWebSocketServer::NonSecureMode)
        , m_message(std::move(message))
        , m_code(code)
        , m_reason(std::move(reason))
    {
        connect(&m_server, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QWebSocket::disconnected, s, &QObject::deleteLater);
                s->sendTextMessage(m_message);
                s->flush();
                s->close(static_cast<QWebSocketProtocol::CloseCode>(m_code), m_reason);
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }

private:
    QWebSocketServer m_server;
    QString m_message;
    quint16 m_code;
    QString m_reason;
};

StreamConfig genericStream(quint16 port, WebSocketClient client)
{
    StreamConfig c = wsStream(QStringLiteral("hostile"), port, QStringLiteral("feed"));
    c.venue = Venue::Generic;
    c.transport = client;
    return c;
}

void clientRows()
{
    QTest::addColumn<WebSocketClient>("client");
    QTest::newRow("qt") << WebSocketClient::Qt;
    QTest::newRow("native") << WebSocketClient::Native;
}

QVector<StreamEvent> eventsOf(const QSignalSpy &spy, EventKind kind)
{
    QVector<StreamEvent> out;
    for (const auto &args : spy) {
        const auto e = args.at(0).value<StreamEvent>();
        if (e.kind == kind)
            out << e;
    }
    return out;
}

} // namespace

class TestPeerBytes : public QObject {
    Q_OBJECT
private slots:
    void escapeSequencesAreShownEscaped_data() { clientRows(); }
    void escapeSequencesAreShownEscaped();
    void invalidCloseCodeIsReportedHonestly_data() { clientRows(); }
    void invalidCloseCodeIsReportedHonestly();
};

void TestPeerBytes::escapeSequencesAreShownEscaped()
{
    QFETCH(WebSocketClient, client);
    HostileServer server(QStringLiteral("{\"e\":\"\x1b[2J\x1b]0;pwned\x07\r\nall streams OK"), quint16(4000),
                         QStringLiteral("\x1b[2J\x1b[Hall streams OK"));
    QVERIFY(server.listen());
    Engine engine;
    QSignalSpy events(&engine, &Engine::eventOccurred);
    const StreamId id = engine.addStream(genericStream(server.port(), client));
    QTRY_VERIFY_WITH_TIMEOUT(!eventsOf(events, EventKind::ParseError).isEmpty()
                                 && !eventsOf(events, EventKind::Disconnected).isEmpty(),
                             scaledMs(20000));
    for (const auto &args : events) {
        const auto e = args.at(0).value<StreamEvent>();
        QVERIFY2(!hasControlOrBidi(e.text), e.text.toUtf8().toPercentEncoding(" :()[];,\\").constData());
    }
    const StreamEvent parseError = eventsOf(events, EventKind::ParseError).first();
    QVERIFY2(parseError.text.endsWith(QStringLiteral("\\x1b[2J\\x1b]0;pwned\\x07\\r\\nall streams OK")),
             qPrintable(parseError.text));
    const StreamEvent disconnect = eventsOf(events, EventKind::Disconnected).first();
    QCOMPARE(disconnect.closeCode, 4000);
    QCOMPARE(disconnect.text, QStringLiteral("\\x1b[2J\\x1b[Hall streams OK (close code 4000)"));

    const StreamSnapshot s = engine.snapshot(id);
    QVERIFY(s.parseErrors >= 1);
    QVERIFY2(!hasControlOrBidi(s.stateReason), qPrintable(s.stateReason));
    QVERIFY2(!hasControlOrBidi(s.lastParseError), qPrintable(s.lastParseError));
    QVERIFY(s.lastBadMessage.contains("\x1b[2J")); // kept as it came, for Copy
}

void TestPeerBytes::invalidCloseCodeIsReportedHonestly()
{
    QFETCH(WebSocketClient, client);
    // 999 is no close code (RFC 6455 7.4.2): both close with 1002; Qt drops the peer's code
    // (and the reason says so), the native client names it.
    HostileServer server(QStringLiteral("{\"e\":\"x\",\"E\":1}"), quint16(999), QStringLiteral("bye"));
    QVERIFY(server.listen());
    Engine engine;
    QSignalSpy events(&engine, &Engine::eventOccurred);
    engine.addStream(genericStream(server.port(), client));
    QTRY_VERIFY_WITH_TIMEOUT(!eventsOf(events, EventKind::Disconnected).isEmpty(), scaledMs(20000));
    const StreamEvent disconnect = eventsOf(events, EventKind::Disconnected).first();
    QCOMPARE(disconnect.closeCode, 1002);
    // STREAMSCOPE_WEBSOCKET=qt or =native runs both rows on that client.
    const WebSocketClient all = webSocketClientFromName(qEnvironmentVariable("STREAMSCOPE_WEBSOCKET"));
    if ((all == WebSocketClient::Unknown ? client : all) == WebSocketClient::Native)
        QVERIFY2(disconnect.text.startsWith(QStringLiteral("the server sent close code 999, which no peer may send")),
                 qPrintable(disconnect.text));
    else
        QVERIFY2(disconnect.text.startsWith(QStringLiteral("the peer sent an invalid close code")),
                 qPrintable(disconnect.text));
    QVERIFY2(!disconnect.text.contains(QLatin1String("close code 1002 detected")), qPrintable(disconnect.text));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestPeerBytes)
#include "tst_peerbytes.moc"
