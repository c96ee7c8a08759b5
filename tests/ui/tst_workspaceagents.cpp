// Agents saved in the workspace (issue 26, item 18): the window saves the agents it watches,
// with their passwords as references (env:, keychain:) and never the secret; opening the file
// in another window reconnects to them, against a fake agent on loopback that checks the
// password. A malformed agent entry is refused with the file, the field and what was
// expected, and nothing changes. The window's --report has the headless report's alert fields.

#include "../common/ReadFile.h"
#include "../common/TestRegistry.h"
#include "ConnectAgentDialog.h"
#include "Engine.h"
#include "MainWindow.h"
#include "RemoteAgent.h"
#include "StreamTableModel.h"
#include "WindowRows.h"

#include "../common/TimeFactor.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>

using namespace streamscope;
using streamscope::testing::readAll;
using streamscope::testing::rowNamed;
using namespace streamscope::ui;
using streamscope::testing::scaledMs;

namespace {

const QByteArray kUser = "viewer";
const QByteArray kPassword = "s3cret-Agent";

// GET /api/v1/streams of an agent with one live stream, "btc", that wants kUser:kPassword;
// anything else is answered 401.
class PasswordAgent : public QObject {
public:
    PasswordAgent()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    QByteArray &request = m_requests[socket];
                    request += socket->readAll();
                    if (!request.contains("\r\n\r\n"))
                        return;
                    const bool authorized =
                        request.contains("Authorization: Basic " + (kUser + ':' + kPassword).toBase64() + "\r\n");
                    m_requests.remove(socket);
                    const QByteArray body = authorized ? answer() : QByteArray("{}");
                    socket->write((authorized ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 401 Unauthorized\r\n")
                                  + QByteArray("Content-Type: application/json\r\nConnection: close\r\n"
                                               "Content-Length: ")
                                  + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }

private:
    QByteArray answer()
    {
        const QJsonObject stream{{QStringLiteral("name"), QStringLiteral("btc")},
                                 {QStringLiteral("venue"), QStringLiteral("binance")},
                                 {QStringLiteral("mode"), QStringLiteral("parsed")},
                                 {QStringLiteral("state"), QStringLiteral("live")},
                                 {QStringLiteral("url"), QStringLiteral("ws://127.0.0.1:1/x")},
                                 {QStringLiteral("messages"), 10 * ++m_answers}};
        return QJsonDocument(QJsonObject{{QStringLiteral("version"), 1},
                                         {QStringLiteral("duration_s"), double(m_answers)},
                                         {QStringLiteral("streams"), QJsonArray{stream}}})
            .toJson(QJsonDocument::Compact);
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_requests;
    int m_answers = 0;
};

QString writeFileIn(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

} // namespace

class tst_WorkspaceAgents : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void agentsRoundTripAndReconnect();
    void malformedAgentRows_data();
    void malformedAgentRows();
    void guiReportHasAlertFields();
};

void tst_WorkspaceAgents::initTestCase()
{
    qputenv("STREAMSCOPE_TEST_AGENT_PASSWORD", kPassword);
}

void tst_WorkspaceAgents::agentsRoundTripAndReconnect()
{
    PasswordAgent agent;
    QVERIFY(agent.url().port() > 0);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("agents.json"));
    {
        Engine engine;
        MainWindow w(&engine);
        w.setWorkspace(Workspace(), QString());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // File → Connect to agent…, twice: a password given as a reference, and one typed in.
        const auto connectThroughDialog = [&](const QString &name, const QString &password) {
            // Filled in once it shows; one that stays open (its check failed) is cancelled.
            auto *poll = new QTimer(&w);
            poll->setInterval(10);
            connect(poll, &QTimer::timeout, &w, [&, poll, name, password] {
                auto *d = qobject_cast<ConnectAgentDialog *>(QApplication::activeModalWidget());
                if (!d)
                    return;
                poll->deleteLater();
                poll->stop();
                d->urlEdit()->setText(agent.url().toString());
                d->nameEdit()->setText(name);
                d->userEdit()->setText(QString::fromUtf8(kUser));
                d->passwordEdit()->setText(password);
                d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
                if (d->isVisible())
                    d->reject();
            });
            poll->start();
            w.findChild<QAction *>(QStringLiteral("connectAgent"))->trigger();
        };
        connectThroughDialog(QStringLiteral("alpha"), QStringLiteral("env:STREAMSCOPE_TEST_AGENT_PASSWORD"));
        connectThroughDialog(QStringLiteral("beta"), QString::fromUtf8(kPassword));
        QCOMPARE(w.hub()->agents().size(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, QStringLiteral("btc @ alpha"))
                                     && rowNamed(w, QStringLiteral("btc @ alpha"))->snap.state == StreamState::Live,
                                 scaledMs(10000));
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, QStringLiteral("btc @ beta"))
                                     && rowNamed(w, QStringLiteral("btc @ beta"))->snap.state == StreamState::Live,
                                 scaledMs(10000));
        QVERIFY(w.isModified());
        QString error;
        QVERIFY2(w.saveWorkspace(path, &error), qPrintable(error));
    }

    // Saved as references: the typed password went to the keychain, the file names its entry.
    const QByteArray bytes = readAll(path);
    QVERIFY(!bytes.contains(kPassword));
    const QJsonArray agents = QJsonDocument::fromJson(bytes).object().value(QStringLiteral("agents")).toArray();
    QCOMPARE(agents.size(), 2);
    const QJsonObject alpha = agents.at(0).toObject();
    QCOMPARE(alpha.value(QStringLiteral("name")).toString(), QStringLiteral("alpha"));
    QCOMPARE(alpha.value(QStringLiteral("url")).toString(), agent.url().toString());
    QCOMPARE(alpha.value(QStringLiteral("user")).toString(), QString::fromUtf8(kUser));
    QCOMPARE(alpha.value(QStringLiteral("password")).toString(), QStringLiteral("env:STREAMSCOPE_TEST_AGENT_PASSWORD"));
    QCOMPARE(agents.at(1).toObject().value(QStringLiteral("password")).toString(),
             QStringLiteral("keychain:agent.beta"));

    // Opened in another window: the agents reconnect, with their passwords, unmodified.
    Engine engine;
    MainWindow w(&engine);
    QString error;
    QVERIFY2(w.openWorkspace(path, &error), qPrintable(error));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.hub()->agents().size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, QStringLiteral("btc @ alpha"))
                                 && rowNamed(w, QStringLiteral("btc @ alpha"))->snap.state == StreamState::Live,
                             scaledMs(10000));
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, QStringLiteral("btc @ beta"))
                                 && rowNamed(w, QStringLiteral("btc @ beta"))->snap.state == StreamState::Live,
                             scaledMs(10000));
    QVERIFY(!w.isModified());
    QCOMPARE(w.currentWorkspace().agents, w.agentConfigs());
    QCOMPARE(w.agentConfigs().size(), 2);
    QCOMPARE(w.agentConfigs().at(0).password, QStringLiteral("env:STREAMSCOPE_TEST_AGENT_PASSWORD"));

    // A reference that is not set is told, naming the reference and never a value.
    qunsetenv("STREAMSCOPE_TEST_AGENT_PASSWORD");
    RemoteAgent *first = w.hub()->agents().at(0);
    QTRY_VERIFY_WITH_TIMEOUT(first->status().contains(QLatin1String("env:STREAMSCOPE_TEST_AGENT_PASSWORD")),
                             scaledMs(10000));
    QVERIFY(!first->isConnected());
    qputenv("STREAMSCOPE_TEST_AGENT_PASSWORD", kPassword);

    // A new workspace drops them.
    w.setWorkspace(Workspace(), QString());
    QVERIFY(w.hub()->agents().isEmpty());
}

void tst_WorkspaceAgents::malformedAgentRows_data()
{
    QTest::addColumn<QByteArray>("agents");
    QTest::addColumn<QString>("expected"); // after "FILE: "

    QTest::newRow("not an array") << QByteArray(R"({})")
                                  << QStringLiteral("agents: expected an array, found an object");
    QTest::newRow("not an object") << QByteArray(R"([1])")
                                   << QStringLiteral("agents[0]: expected an object, found a number");
    QTest::newRow("no name") << QByteArray(R"([{"url": "http://127.0.0.1:9464"}])")
                             << QStringLiteral("agents[0].name: missing, expected a string");
    QTest::newRow("no url") << QByteArray(R"([{"name": "a"}])")
                            << QStringLiteral("agents[0].url: missing, expected a string");
    QTest::newRow("url a number") << QByteArray(R"([{"name": "a", "url": 9464}])")
                                  << QStringLiteral("agents[0].url: expected a string, found a number");
    QTest::newRow("websocket url") << QByteArray(R"([{"name": "a", "url": "ws://127.0.0.1:9464"}])")
                                   << QStringLiteral("agents[0].url: expected http://HOST:PORT or https://HOST:PORT, "
                                                     "found \"ws://127.0.0.1:9464\"");
    QTest::newRow("no port") << QByteArray(R"([{"name": "a", "url": "http://127.0.0.1"}])")
                             << QStringLiteral("agents[0].url: expected http://HOST:PORT or https://HOST:PORT, "
                                               "found \"http://127.0.0.1\"");
    QTest::newRow("password in url") << QByteArray(R"([{"name": "a", "url": "http://u:p@127.0.0.1:9464"}])")
                                     << QStringLiteral("agents[0].url: expected a URL without a user or password");
    QTest::newRow("token in url") << QByteArray(R"([{"name": "a", "url": "http://127.0.0.1:9464/?token=abc"}])")
                                  << QStringLiteral("agents[0].url: expected a URL without a credential");
    QTest::newRow("literal password")
        << QByteArray(R"([{"name": "a", "url": "http://127.0.0.1:9464", "user": "u", "password": "hunter2"}])")
        << QStringLiteral("agents[0].password: expected a reference such as \"env:NAME\" or \"keychain:NAME\"; "
                          "secrets are never stored in a workspace");
    QTest::newRow("user without password")
        << QByteArray(R"([{"name": "a", "url": "http://127.0.0.1:9464", "user": "u"}])")
        << QStringLiteral("agents[0].password: missing, expected a reference such as \"env:NAME\"");
    QTest::newRow("password without user")
        << QByteArray(R"([{"name": "a", "url": "http://127.0.0.1:9464", "password": "env:X"}])")
        << QStringLiteral("agents[0].user: missing, expected a string");
    QTest::newRow("user a number") << QByteArray(
        R"([{"name": "a", "url": "http://127.0.0.1:9464", "user": 5, "password": "env:X"}])")
                                   << QStringLiteral("agents[0].user: expected a string, found a number");
    QTest::newRow("same name twice") << QByteArray(
        R"([{"name": "a", "url": "http://127.0.0.1:9464"}, {"name": "a", "url": "http://127.0.0.1:9465"}])")
                                     << QStringLiteral("agents[1].name: expected a unique name, \"a\" is used twice");
    QTest::newRow("missing ca file") << QByteArray(
        R"([{"name": "a", "url": "https://127.0.0.1:9464", "tls": {"ca_file": "none.pem"}}])")
                                     << QStringLiteral("agents[0].tls.ca_file: expected a readable PEM file");
}

void tst_WorkspaceAgents::malformedAgentRows()
{
    QFETCH(QByteArray, agents);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path =
        writeFileIn(dir, QStringLiteral("bad.json"), R"({"version": 1, "streams": [], "agents": )" + agents + "}");
    QVERIFY(!path.isEmpty());
    Engine engine;
    MainWindow w(&engine);
    w.setWorkspace(Workspace(), QString());
    w.connectAgent(QStringLiteral("kept"), QUrl(QStringLiteral("http://127.0.0.1:9")));
    QString error;
    QVERIFY(!w.openWorkspace(path, &error));
    QVERIFY2(error.startsWith(path + QStringLiteral(": ") + expected), qPrintable(error));
    // Nothing changed: the agent watched before is still there.
    QCOMPARE(w.hub()->agents().size(), 1);
    QCOMPARE(w.hub()->agents().at(0)->settings().name, QStringLiteral("kept"));
}

void tst_WorkspaceAgents::guiReportHasAlertFields()
{
    // A stream that cannot connect (nothing listens on port 1) and a rule that fires after 1 s.
    QTemporaryDir dir;
    const QString path = writeFileIn(dir, QStringLiteral("alerts.json"),
                                     R"({"version": 1,
            "streams": [{"name": "down", "venue": "generic", "url": "ws://127.0.0.1:1/feed",
                         "reconnect_base_ms": 100, "reconnect_max_ms": 200}],
            "alerts": [{"stream": "*", "silent_s": 1, "clear_after_s": 0}],
            "notify": [{"type": "webhook", "url": "http://127.0.0.1:9/hook"}]})");
    QVERIFY(!path.isEmpty());
    Engine engine;
    MainWindow w(&engine);
    QString error;
    QVERIFY2(w.openWorkspace(path, &error), qPrintable(error));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    QJsonObject report = w.report(1.0);
    // What the headless report has (HeadlessRunner::finish, docs/report.md): per stream and in all.
    QVERIFY(report.value(QStringLiteral("alerts")).isObject());
    QVERIFY(report.value(QStringLiteral("alerts")).toObject().value(QStringLiteral("raised")).isDouble());
    QVERIFY(report.value(QStringLiteral("alerts")).toObject().value(QStringLiteral("active")).isArray());
    QCOMPARE(report.value(QStringLiteral("notify")).toArray().size(), 1);
    const QJsonObject hook = report.value(QStringLiteral("notify")).toArray().at(0).toObject();
    for (const char *key : {"destination", "sent", "failures", "suppressed"})
        QVERIFY2(hook.contains(QLatin1String(key)), key);
    const QJsonArray streams = report.value(QStringLiteral("streams")).toArray();
    QCOMPARE(streams.size(), 1);
    QVERIFY(streams.at(0).toObject().value(QStringLiteral("alerts_raised")).isDouble());
    QVERIFY(streams.at(0).toObject().value(QStringLiteral("alerts_active")).isArray());

    // Once the rule fires, the report names the alert as the headless one would.
    QTRY_VERIFY_WITH_TIMEOUT(
        w.report(1.0).value(QStringLiteral("alerts")).toObject().value(QStringLiteral("raised")).toInt() >= 1,
        scaledMs(15000));
    report = w.report(1.0);
    const QJsonArray active =
        report.value(QStringLiteral("alerts")).toObject().value(QStringLiteral("active")).toArray();
    QVERIFY(!active.isEmpty());
    QCOMPARE(active.at(0).toObject().value(QStringLiteral("stream")).toString(), QStringLiteral("down"));
    const QJsonObject down = report.value(QStringLiteral("streams")).toArray().at(0).toObject();
    QVERIFY(down.value(QStringLiteral("alerts_raised")).toInt() >= 1);
    QCOMPARE(down.value(QStringLiteral("alerts_active")).toArray().at(0).toObject().value(QStringLiteral("condition")),
             active.at(0).toObject().value(QStringLiteral("condition")));
}

STREAMSCOPE_TEST_MAIN(tst_WorkspaceAgents)
#include "tst_workspaceagents.moc"
