// A secret in a URL's query string is a reference (env:/keychain:) resolved only for the
// request that goes on the wire: the server receives the value, while the snapshot, the
// state reasons and the events show the reference. A reference that is not set fails the
// stream with a message that names the parameter, without connecting.

#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include <QtCore/QUrlQuery>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

constexpr char kVariable[] = "STREAMSCOPE_TEST_QUERY_TOKEN";
const QString kSecret = QStringLiteral("s3cr&t=+/value");

// Records the URL of every websocket request it accepts and keeps the connection open.
class RecordingServer : public QObject {
public:
    RecordingServer()
        : m_server(QStringLiteral("recording"), QWebSocketServer::NonSecureMode)
    {
        connect(&m_server, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket *s = m_server.nextPendingConnection()) {
                s->setParent(this);
                requests << s->requestUrl();
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    quint16 port() const { return m_server.serverPort(); }
    QList<QUrl> requests;

private:
    QWebSocketServer m_server;
};

StreamConfig streamWithQueryToken(quint16 port)
{
    StreamConfig c;
    c.name = QStringLiteral("token-in-query");
    c.url = QUrl(
        QStringLiteral("ws://127.0.0.1:%1/feed?streams=a@trade&token=env:%2").arg(port).arg(QLatin1String(kVariable)));
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    return c;
}

} // namespace

class TestSecrets : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { qunsetenv(kVariable); }
    void queryReferenceResolvedOnlyOnTheWire();
    void unsetQueryReferenceFailsWithoutConnecting();
};

void TestSecrets::queryReferenceResolvedOnlyOnTheWire()
{
    qputenv(kVariable, kSecret.toUtf8());
    RecordingServer server;
    QVERIFY(server.listen());
    Engine engine;
    QSignalSpy events(&engine, &Engine::eventOccurred);
    const StreamId id = engine.addStream(streamWithQueryToken(server.port()));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests.size(), 1, scaledMs(10000));
    const QUrlQuery sent(server.requests.first());
    QCOMPARE(sent.queryItemValue(QStringLiteral("token"), QUrl::FullyDecoded), kSecret);
    QCOMPARE(sent.queryItemValue(QStringLiteral("streams"), QUrl::FullyDecoded), QStringLiteral("a@trade"));

    WAIT_STATE(engine, id, StreamState::Live, 10000);
    const StreamSnapshot s = engine.snapshot(id);
    QVERIFY2(s.url.toString().endsWith(QStringLiteral("token=env:%1").arg(QLatin1String(kVariable))),
             qPrintable(s.url.toString()));
    QVERIFY(!s.url.toString().contains(QLatin1String("s3cr")));
    QVERIFY(!s.stateReason.contains(QLatin1String("s3cr")));
    for (const ConnectionInfo &c : std::as_const(s.connections))
        QVERIFY2(!c.url.toString().contains(QLatin1String("s3cr")), qPrintable(c.url.toString()));
    for (const auto &args : std::as_const(events))
        QVERIFY(!args.at(0).value<StreamEvent>().text.contains(QLatin1String("s3cr")));
}

void TestSecrets::unsetQueryReferenceFailsWithoutConnecting()
{
    RecordingServer server;
    QVERIFY(server.listen());
    Engine engine;
    const StreamId id = engine.addStream(streamWithQueryToken(server.port()));
    WAIT_STATE(engine, id, StreamState::Failed, 10000);
    QCOMPARE(engine.snapshot(id).stateReason,
             QStringLiteral("URL query parameter token (env:%1): the secret is not set").arg(QLatin1String(kVariable)));
    QTest::qWait(200);
    QCOMPARE(server.requests.size(), 0);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
