// Response routing on a live connection: results and errors matched to their requests by
// numeric and string ids; data that merely mentions "error" or "result" stays data.

#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

using namespace streamscope;
using namespace streamscope::testing;

class TestRouting : public QObject {
    Q_OBJECT
private slots:
    void responsesReachTheirRequests();
    void dataMentioningErrorOrResultIsData();
    void numericAndUuidIdsOverWebSocketServer();
    void rawModeReadsTheHeadOfLongMessages();
};

void TestRouting::responsesReachTheirRequests()
{
    replay::ReplayOptions o;
    o.idle = true;
    replay::ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    const StreamId id = engine.addStream(wsStream(QStringLiteral("control"), server.port(), QString()));
    WAIT_STATE(engine, id, StreamState::Live, 20000);

    const qint64 sub = engine.subscribe(id, {QStringLiteral("btcusdt@trade")});
    const qint64 list = engine.listSubscriptions(id);
    QVERIFY(sub > 0 && list > sub);
    QTRY_COMPARE(engine.results(id).size(), 2);
    const auto results = engine.results(id);
    QCOMPARE(results.at(0).requestId, QString::number(sub));
    QCOMPARE(results.at(0).method, QStringLiteral("SUBSCRIBE"));
    QCOMPARE(results.at(1).requestId, QString::number(list));
    QCOMPARE(results.at(1).method, QStringLiteral("LIST_SUBSCRIPTIONS"));
    QVERIFY(results.at(1).body.contains("btcusdt@trade"));
    QVERIFY(results.at(1).roundTripMs >= 0);

    // An unknown method is an endpoint error routed to the error ring, matched by id.
    QVERIFY(engine.sendMessage(id, QStringLiteral("{\"method\":\"NOPE\",\"id\":4242}")));
    QTRY_COMPARE(engine.errors(id).size(), 1);
    QCOMPARE(engine.errors(id).at(0).requestId, QStringLiteral("4242"));
    QCOMPARE(engine.errors(id).at(0).method, QStringLiteral("NOPE"));
    const StreamSnapshot s = engine.snapshot(id);
    QCOMPARE(s.results, quint64(2));
    QCOMPARE(s.errors, quint64(1));
    QCOMPARE(s.dataMessages, quint64(0));
}

namespace {
// A QWebSocketServer that sends each client the given messages, then answers every text
// message it receives with the reply the test queued for it.
class ScriptedServer : public QObject {
public:
    QWebSocketServer server{QStringLiteral("scripted"), QWebSocketServer::NonSecureMode};
    QStringList greeting;
    QStringList replies;
    QList<QWebSocket *> clients;

    bool listen()
    {
        connect(&server, &QWebSocketServer::newConnection, this, [this] {
            QWebSocket *ws = server.nextPendingConnection();
            ws->setParent(this);
            clients << ws;
            for (const QString &m : std::as_const(greeting))
                ws->sendTextMessage(m);
            connect(ws, &QWebSocket::textMessageReceived, ws, [this, ws](const QString &) {
                if (!replies.isEmpty())
                    ws->sendTextMessage(replies.takeFirst());
            });
        });
        return server.listen(QHostAddress::LocalHost, 0);
    }
};
} // namespace

void TestRouting::dataMentioningErrorOrResultIsData()
{
    ScriptedServer scripted;
    const QString padding(300, QLatin1Char('x'));
    scripted.greeting = {
        QStringLiteral("{\"stream\":\"btcusdt@trade\",\"data\":{\"e\":\"trade\",\"E\":1,\"pad\":\"%1\",\"error\":{"
                       "\"code\":1},\"result\":null,\"id\":5}}")
            .arg(padding),
        QStringLiteral("{\"note\":\"%1\",\"error\":\"late\",\"result\":1,\"id\":9}").arg(padding),
    };
    QVERIFY(scripted.listen());
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("data"), scripted.server.serverPort(), QString());
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE(engine.snapshot(id).dataMessages, quint64(2));
    const StreamSnapshot s = engine.snapshot(id);
    QCOMPARE(s.messages, quint64(2));
    QCOMPARE(s.results, quint64(0));
    QCOMPARE(s.errors, quint64(0));
    QVERIFY(engine.results(id).isEmpty());
    QVERIFY(engine.errors(id).isEmpty());
}

void TestRouting::numericAndUuidIdsOverWebSocketServer()
{
    ScriptedServer scripted;
    const QString uuid = QStringLiteral("e2a85d9f-07a5-4f94-8d5f-789dc3deb097");
    scripted.replies = {
        QStringLiteral("{\"id\":\"%1\",\"status\":200,\"result\":{\"serverTime\":1},\"rateLimits\":[]}").arg(uuid),
        QStringLiteral("{\"result\":null,\"id\":77}"),
        QStringLiteral(
            "{\"id\":\"abc-1\",\"status\":400,\"error\":{\"code\":-2010,\"msg\":\"rejected\"},\"rateLimits\":[]}"),
    };
    QVERIFY(scripted.listen());
    Engine engine;
    const StreamId id = engine.addStream(wsStream(QStringLiteral("api"), scripted.server.serverPort(), QString()));
    WAIT_STATE(engine, id, StreamState::Live, 20000);
    engine.sendMessage(id, QStringLiteral("{\"id\":\"%1\",\"method\":\"time\"}").arg(uuid));
    QTRY_COMPARE(engine.results(id).size(), 1);
    engine.sendMessage(id, QStringLiteral("{\"method\":\"SUBSCRIBE\",\"params\":[\"a@trade\"],\"id\":77}"));
    QTRY_COMPARE(engine.results(id).size(), 2);
    engine.sendMessage(id, QStringLiteral("{\"id\":\"abc-1\",\"method\":\"order.place\"}"));
    QTRY_COMPARE(engine.errors(id).size(), 1);

    const auto results = engine.results(id);
    QCOMPARE(results.at(0).requestId, uuid);
    QCOMPARE(results.at(0).method, QStringLiteral("time"));
    QCOMPARE(results.at(1).requestId, QStringLiteral("77"));
    QCOMPARE(results.at(1).method, QStringLiteral("SUBSCRIBE"));
    QCOMPARE(engine.errors(id).at(0).requestId, QStringLiteral("abc-1"));
    QCOMPARE(engine.errors(id).at(0).method, QStringLiteral("order.place"));
}

void TestRouting::rawModeReadsTheHeadOfLongMessages()
{
    // Raw mode converts only the head of a long ASCII text message: the counts, the byte
    // total (UTF-8) and a long response's text must be those of the whole messages.
    ScriptedServer scripted;
    const QString pad(600, QLatin1Char('x'));
    const QString ascii =
        QStringLiteral("{\"stream\":\"a@trade\",\"data\":{\"e\":\"trade\",\"E\":1,\"pad\":\"%1\"}}").arg(pad);
    const QString tailAccent = QStringLiteral("{\"stream\":\"a@trade\",\"data\":{\"pad\":\"%1\u00e9\"}}").arg(pad);
    const QString headAccent = QStringLiteral("{\"stream\":\"\u00e9@trade\",\"data\":{\"pad\":\"%1\"}}").arg(pad);
    const QString longResult = QStringLiteral("{\"result\":[\"%1\"],\"id\":1}").arg(pad);
    scripted.greeting = {ascii, tailAccent, headAccent};
    scripted.replies = {longResult};
    QVERIFY(scripted.listen());
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("raw"), scripted.server.serverPort(), QString());
    c.mode = DecodeMode::Raw;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE(engine.snapshot(id).dataMessages, quint64(3));
    const qint64 list = engine.listSubscriptions(id);
    QVERIFY(list > 0);
    QTRY_COMPARE(engine.results(id).size(), 1);
    QCOMPARE(engine.results(id).at(0).body, longResult.toUtf8());
    const StreamSnapshot s = engine.snapshot(id);
    QCOMPARE(s.messages, quint64(4));
    QCOMPARE(s.bytes,
             quint64(ascii.toUtf8().size() + tailAccent.toUtf8().size() + headAccent.toUtf8().size()
                     + longResult.toUtf8().size()));

    // With the inspector on, the whole text is kept.
    engine.setInspecting(id, true); // takes effect at once (an atomic the worker reads)
    scripted.clients.first()->sendTextMessage(ascii);
    QVector<InspectedMessage> seen;
    QTRY_VERIFY((seen += engine.takeInspected(id), !seen.isEmpty()));
    QCOMPARE(seen.last().text, ascii.toUtf8());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestRouting)
#include "tst_routing.moc"
