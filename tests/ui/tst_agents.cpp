// The desktop application watching two headless agents on loopback (File → Connect to
// agent…): their streams appear beside the local ones, named after the agent, read-only,
// with rates, latency and states; a wrong password and an agent that goes away are told, and
// the other agent's rows are not disturbed.

#include "../common/TestRegistry.h"
#include "ConnectAgentDialog.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "MainWindow.h"
#include "RemoteAgent.h"
#include "ReplayServerThread.h"
#include "StreamActionDelegate.h"
#include "StreamDetails.h"
#include "StreamTableModel.h"
#include "WindowRows.h"

#include "../common/TimeFactor.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTemporaryDir>
#include <QtGui/QAction>
#include <QtTest/QTest>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTableView>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace streamscope;
using streamscope::testing::rowNamed;
using namespace streamscope::ui;
using streamscope::testing::scaledMs;

namespace {

// `streamscope --headless` on a workspace, its metrics endpoint on a port of its choosing.
class Agent {
public:
    Agent(const QString &workspace, const QStringList &extra = {})
    {
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral(STREAMSCOPE_BIN),
                        QStringList{QStringLiteral("--headless"), QStringLiteral("--quiet"),
                                    QStringLiteral("--workspace"), workspace, QStringLiteral("--metrics-port"),
                                    QStringLiteral("0")}
                            + extra);
        QByteArray out;
        (void)QTest::qWaitFor( // url() stays invalid when it did not start: the test checks
            [&] {
                out += m_process.readAllStandardOutput();
                const qsizetype at = out.indexOf("metrics: ");
                if (at < 0 || out.indexOf('\n', at) < 0)
                    return false;
                const QUrl url(QString::fromUtf8(out.mid(at + 9, out.indexOf('\n', at) - at - 9)).trimmed());
                m_url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(url.port()));
                return true;
            },
            scaledMs(15000));
    }
    ~Agent() { stop(); }
    void stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(10000))
                m_process.kill();
            m_process.waitForFinished();
        }
    }
    QUrl url() const { return m_url; }

private:
    QProcess m_process;
    QUrl m_url;
};

QString writeWorkspace(const QTemporaryDir &dir, const QString &file, quint16 port, const QStringList &names)
{
    QJsonArray streams;
    for (const QString &n : names)
        streams.append(
            QJsonObject{{QStringLiteral("name"), n},
                        {QStringLiteral("venue"), QStringLiteral("binance")},
                        {QStringLiteral("url"), QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?rate=50").arg(port)}});
    const QString path = dir.filePath(file);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), streams}}).toJson());
    return path;
}

} // namespace

class tst_Agents : public QObject {
    Q_OBJECT
private slots:
    void twoAgentsBesideLocalStreams();
    void dialogChecksWhatItCan();
    void hostileAnswerIsEscaped();
    void agentsClockOffsetReachesTheWindow();
};

void tst_Agents::twoAgentsBesideLocalStreams()
{
    replay::ReplayServerThread replay;
    replay::ReplayOptions options;
    options.loop = true;
    const quint16 port = replay.start(options);
    QVERIFY2(port, qPrintable(replay.errorString()));
    QTemporaryDir dir;
    const QString auth = dir.filePath(QStringLiteral("auth"));
    {
        QFile f(auth);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("viewer:s3cret\n");
    }
    Agent alpha(writeWorkspace(dir, QStringLiteral("a.json"), port, {QStringLiteral("btc"), QStringLiteral("eth")}));
    Agent beta(writeWorkspace(dir, QStringLiteral("b.json"), port, {QStringLiteral("btc")}),
               {QStringLiteral("--metrics-auth-file"), auth});
    QVERIFY(alpha.url().isValid() && beta.url().isValid());

    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    StreamConfig local;
    local.name = QStringLiteral("local");
    local.venue = Venue("binance");
    local.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?rate=50").arg(port));
    ws.streams = {local};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.connectAgent(QStringLiteral("alpha"), alpha.url());
    w.connectAgent(QStringLiteral("beta"), beta.url(), "viewer:s3cret");
    RemoteAgent *wrong = w.connectAgent(QStringLiteral("gamma"), beta.url(), "viewer:nope");

    // Local and remote side by side, named after their agent, live, with rates and latency.
    QTRY_COMPARE_WITH_TIMEOUT(w.streamModel()->rowCount(), 4, scaledMs(15000));
    for (const QString &name :
         {QStringLiteral("btc @ alpha"), QStringLiteral("eth @ alpha"), QStringLiteral("btc @ beta")}) {
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, name) && rowNamed(w, name)->snap.state == StreamState::Live,
                                 scaledMs(15000));
        QVERIFY(isRemoteStream(rowNamed(w, name)->snap.id));
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, name)->msgsPerSec > 10.0, scaledMs(15000));
        QTRY_VERIFY_WITH_TIMEOUT(!std::isnan(rowNamed(w, name)->p99Ms), scaledMs(15000));
    }
    QVERIFY(!isRemoteStream(rowNamed(w, QStringLiteral("local"))->snap.id));
    // The wrong password is told, and shows nothing.
    QTRY_VERIFY_WITH_TIMEOUT(wrong->status().contains(QLatin1String("401")), scaledMs(10000));
    QVERIFY(!wrong->isConnected());

    // Read-only: a remote row has no buttons, and Stop does not apply to it.
    const StreamId remote = rowNamed(w, QStringLiteral("btc @ beta"))->snap.id;
    const QModelIndex source = w.streamModel()->index(w.streamModel()->rowOf(remote), StreamTableModel::ColActions);
    const QModelIndex index = w.streamProxy()->mapFromSource(source);
    w.streamTable()->selectRow(index.row());
    QVERIFY(w.selectedStreams().isEmpty());
    QCOMPARE(w.selectedRows(), QList<StreamId>{remote});
    QVERIFY(!w.findChild<QAction *>(QStringLiteral("stopStreams"))->isEnabled());
    const QRect cell = w.streamTable()->visualRect(index);
    QCOMPARE(StreamActionDelegate::actionAt(cell, StreamActionDelegate::buttonRect(cell, 0).center(), index),
             StreamActionDelegate::Action::None);

    // Alpha goes away: its rows turn failed and say why; beta's and the local one go on.
    alpha.stop();
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, QStringLiteral("btc @ alpha"))->snap.state == StreamState::Failed,
                             scaledMs(15000));
    QVERIFY(
        rowNamed(w, QStringLiteral("btc @ alpha"))->snap.stateReason.contains(QLatin1String("alpha not answering")));
    QTRY_COMPARE(rowNamed(w, QStringLiteral("btc @ alpha"))->msgsPerSec, 0.0);
    QCOMPARE(rowNamed(w, QStringLiteral("btc @ beta"))->snap.state, StreamState::Live);
    QCOMPARE(rowNamed(w, QStringLiteral("local"))->snap.state, StreamState::Live);
    bool logged = false;
    for (int r = 0; r < w.eventLog()->rowCount(); ++r)
        logged = logged
            || (w.eventLog()->entryAt(r)->stream == QStringLiteral("alpha")
                && w.eventLog()->entryAt(r)->text.startsWith(QStringLiteral("agent not answering")));
    QVERIFY(logged);

    // Disconnected: only the local stream stays.
    w.disconnectAgents();
    QTRY_COMPARE(w.streamModel()->rowCount(), 1);
    QCOMPARE(w.streamModel()->rows().first().snap.name, QStringLiteral("local"));
}

void tst_Agents::dialogChecksWhatItCan()
{
    ConnectAgentDialog d({QStringLiteral("alpha")});
    const auto check = [&d](const QString &url, const QString &name, const QString &user, const QString &password,
                            const QString &expect) {
        d.urlEdit()->setText(url);
        d.nameEdit()->setText(name);
        d.userEdit()->setText(user);
        d.passwordEdit()->setText(password);
        const bool ok = d.validate();
        if (expect.isEmpty())
            return ok;
        return !ok && d.error().contains(expect);
    };
    QVERIFY(check(QStringLiteral("ftp://127.0.0.1:9464"), {}, {}, {}, QStringLiteral("expected http://HOST:PORT")));
    QVERIFY(check(QStringLiteral("http://127.0.0.1"), {}, {}, {}, QStringLiteral("expected http://HOST:PORT")));
    QVERIFY(check(QStringLiteral("http://u:p@127.0.0.1:9464"), {}, {}, {}, QStringLiteral("not in the URL")));
    QVERIFY(check(QStringLiteral("http://127.0.0.1:9464"), QStringLiteral("alpha"), {}, {},
                  QStringLiteral("another agent's")));
    QVERIFY(check(QStringLiteral("http://127.0.0.1:9464"), {}, QStringLiteral("u"), {}, QStringLiteral("both")));
    QVERIFY(check(QStringLiteral("https://127.0.0.1:9464"), QStringLiteral("beta"), QStringLiteral("u"),
                  QStringLiteral("p:w"), {}));
    QCOMPARE(d.settings().name, QStringLiteral("beta"));
    QCOMPARE(d.settings().basicAuth, QByteArray("u:p:w"));
    QVERIFY(check(QStringLiteral("http://127.0.0.1:9464"), {}, {}, {}, {}));
    QCOMPARE(d.settings().name, QStringLiteral("127.0.0.1")); // no name: the host's
    d.caEdit()->setText(QStringLiteral("/nonexistent/ca.pem"));
    QVERIFY(check(QStringLiteral("https://127.0.0.1:9464"), {}, {}, {}, QStringLiteral("CA certificate")));
#ifdef Q_OS_UNIX
    // Read by the opener of every outside file: a device is refused, never read.
    d.caEdit()->setText(QStringLiteral("/dev/zero"));
    QVERIFY(check(QStringLiteral("https://127.0.0.1:9464"), {}, {}, {},
                  QStringLiteral("CA certificate: /dev/zero: expected a regular file, found a character device")));
#endif
}

void tst_Agents::hostileAnswerIsEscaped()
{
    // Whatever an agent sends reaches tooltips and the details pane only with its control
    // characters escaped; numbers out of range count as nothing.
    RemoteAgent agent({QStringLiteral("evil"), QUrl(QStringLiteral("http://127.0.0.1:1")), {}, {}, {}, {}, {}}, 0);
    const QByteArray answer = "{\"version\":1,\"duration_s\":1,\"streams\":[{\"name\":\"a\\u001b[2Jb\","
                              "\"url\":\"ws://h/\\u001b]0;x\\u0007\",\"state\":\"live\","
                              "\"state_reason\":\"r\\u009b1m\",\"messages\":-5,"
                              "\"connections\":[{\"url\":\"ws://h/\\r\\nX\"}],"
                              "\"live\":{\"latency_buckets\":[[99999,5],[-1,2],[3,1e30]]}}]}";
    QVector<StreamSnapshot> out;
    QString error;
    QVERIFY2(agent.parse(answer, &out, &error), qPrintable(error));
    QCOMPARE(out.size(), 1);
    const StreamSnapshot &s = out.first();
    const auto clean = [](const QString &t) {
        return std::none_of(t.begin(), t.end(),
                            [](QChar c) { return c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() < 0xa0); });
    };
    QVERIFY2(clean(s.name), qPrintable(s.name));
    QVERIFY2(clean(s.url.toString()), qPrintable(s.url.toString()));
    QVERIFY2(clean(s.stateReason), qPrintable(s.stateReason));
    QVERIFY2(clean(s.connections.value(0).url.toString()), qPrintable(s.connections.value(0).url.toString()));
    QCOMPARE(s.messages, quint64(0));
    QCOMPARE(s.latency.count, quint64(0));
}

// A venue whose clock runs 700 ms ahead, seen through an agent: the agent's offset (from the
// venue's server time) and its corrected histogram reach the window, so the Details pane
// gives the offset and View → Corrected latency shows the true latency where the raw one is
// all negative.
void tst_Agents::agentsClockOffsetReachesTheWindow()
{
    replay::ReplayServerThread replay;
    replay::ReplayOptions options;
    options.loop = true;
    const quint16 port = replay.start(options);
    QVERIFY2(port, qPrintable(replay.errorString()));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("clock.json"));
    {
        const QJsonObject stream{
            {QStringLiteral("name"), QStringLiteral("clock-off")},
            {QStringLiteral("venue"), QStringLiteral("binance")},
            {QStringLiteral("url"),
             QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?rate=50&clock_offset_ms=700").arg(port)},
            {QStringLiteral("server_time_url"),
             QStringLiteral("http://127.0.0.1:%1/api/v3/time?clock_offset_ms=700").arg(port)}};
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), QJsonArray{stream}}})
                .toJson());
    }
    Agent agent(path);
    QVERIFY(agent.url().isValid());
    Engine engine;
    MainWindow w(&engine);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.connectAgent(QStringLiteral("alpha"), agent.url());
    const QString name = QStringLiteral("clock-off @ alpha");
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, name) && rowNamed(w, name)->snap.clock.source == ClockOffsetSource::ServerTime,
                             scaledMs(20000));
    QVERIFY2(std::abs(rowNamed(w, name)->snap.clock.offsetMs - 700.0) < 100.0,
             qPrintable(QString::number(rowNamed(w, name)->snap.clock.offsetMs)));
    const StreamId id = rowNamed(w, name)->snap.id;
    w.detailsDock()->show();
    w.selectStream(id);
    QTRY_VERIFY_WITH_TIMEOUT(
        w.details()->valueAt(QStringLiteral("clock_offset_ms")).startsWith(QLatin1String("7"))
            || w.details()->valueAt(QStringLiteral("clock_offset_ms")).startsWith(QLatin1String("6")),
        scaledMs(10000));
    w.findChild<QAction *>(QStringLiteral("correctedLatency"))->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w, name)->latencyCorrected && std::isfinite(rowNamed(w, name)->p50Ms)
                                 && rowNamed(w, name)->p50Ms < 100.0,
                             scaledMs(30000));
}

STREAMSCOPE_TEST_MAIN(tst_Agents)
#include "tst_agents.moc"
