// `streamscope --headless` as a service runs it: where /metrics listens (loopback unless told,
// a warning otherwise), SIGHUP reloading the workspace (added, removed and changed streams
// take effect; an unchanged one keeps its connection and counters; a broken file changes
// nothing), and the systemd unit the .deb installs (systemd-analyze verify and security).

#include "../common/TestRegistry.h"
#include "FleetProcesses.h"

#include <QtCore/QTemporaryDir>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/types.h>
#endif

using namespace fleet;

namespace {

// The highest overall exposure `systemd-analyze security` may give the unit, times ten
// (its --threshold scale): the unit measured 1.1 ("OK") with systemd 252 when this was written.
constexpr int kMaxExposureTimes10 = 20;

int scaledMsForExit()
{
    return streamscope::testing::scaledMs(20000);
}

QByteArray messagesSeries(const char *stream)
{
    return QByteArrayLiteral("streamscope_messages_total{stream=\"") + stream + "\"}";
}

} // namespace

class TestAgent : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void metricsListenOnLoopbackByDefault();
    void metricsAddressIpv6Loopback();
    void metricsAddressAnyIsWarnedAbout();
    void metricsAddressMustBeAnAddress();
    void sighupReloadsTheWorkspace();
    void systemdUnitVerifies();

private:
    QString emptyWorkspace();
    QTemporaryDir m_dir;
};

void TestAgent::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

QString TestAgent::emptyWorkspace()
{
    const QString path = m_dir.filePath(QStringLiteral("empty.json"));
    return writeFile(path, workspaceJson({})) ? path : QString();
}

void TestAgent::metricsListenOnLoopbackByDefault()
{
    const QString workspace = emptyWorkspace();
    QVERIFY(!workspace.isEmpty());
    Agent agent({QStringLiteral("--workspace"), workspace, QStringLiteral("--metrics-port"), QStringLiteral("0")});
    const QString url = agent.metricsUrl();
    QVERIFY2(url.startsWith(QLatin1String("http://127.0.0.1:")), qPrintable(agent.errors()));
    QByteArray body;
    QVERIFY(httpGet(QUrl(url), &body));
    QVERIFY(body.endsWith("# EOF\n"));
    QCOMPARE(agent.stop(), 0);
    QVERIFY2(!agent.errors().contains(QLatin1String("warning")), qPrintable(agent.errors()));
}

void TestAgent::metricsAddressIpv6Loopback()
{
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHostIPv6, 0))
            QSKIP("this machine has no IPv6 loopback");
    }
    const QString workspace = emptyWorkspace();
    Agent agent({QStringLiteral("--workspace"), workspace, QStringLiteral("--metrics-port"), QStringLiteral("0"),
                 QStringLiteral("--metrics-address"), QStringLiteral("::1")});
    const QString url = agent.metricsUrl();
    QVERIFY2(url.startsWith(QLatin1String("http://[::1]:")), qPrintable(url + agent.errors()));
    QByteArray body;
    QVERIFY(httpGet(QUrl(url), &body));
    QVERIFY(body.endsWith("# EOF\n"));
    // Bound to ::1 only: the same port on 127.0.0.1 is not ours.
    QUrl v4(url);
    v4.setHost(QStringLiteral("127.0.0.1"));
    QByteArray other;
    QVERIFY(!httpGet(v4, &other) || !other.endsWith("# EOF\n"));
    QCOMPARE(agent.stop(), 0);
    QVERIFY2(!agent.errors().contains(QLatin1String("warning")), qPrintable(agent.errors()));
}

// Every address (0.0.0.0) is allowed when asked for, and warned about; the test connects
// through loopback only.
void TestAgent::metricsAddressAnyIsWarnedAbout()
{
    const QString workspace = emptyWorkspace();
    Agent agent({QStringLiteral("--workspace"), workspace, QStringLiteral("--metrics-port"), QStringLiteral("0"),
                 QStringLiteral("--metrics-address"), QStringLiteral("0.0.0.0")});
    const QString url = agent.metricsUrl();
    QVERIFY2(url.startsWith(QLatin1String("http://0.0.0.0:")), qPrintable(url + agent.errors()));
    QVERIFY2(agent.errors().contains(QLatin1String("warning: the metrics endpoint listens on 0.0.0.0, not only on "
                                                   "this machine")),
             qPrintable(agent.errors()));
    QUrl local(url);
    local.setHost(QStringLiteral("127.0.0.1"));
    QByteArray body;
    QVERIFY(httpGet(local, &body));
    QVERIFY(body.endsWith("# EOF\n"));
    QCOMPARE(agent.stop(), 0);
}

void TestAgent::metricsAddressMustBeAnAddress()
{
    Agent agent({QStringLiteral("--metrics-port"), QStringLiteral("0"), QStringLiteral("--metrics-address"),
                 QStringLiteral("metrics.example")});
    QVERIFY(agent.process().waitForFinished(scaledMsForExit()));
    QCOMPARE(agent.process().exitCode(), 2);
    QVERIFY2(agent.errors().contains(QLatin1String("--metrics-address expects an IPv4 or IPv6 address such as "
                                                   "127.0.0.1 or ::1, got 'metrics.example'")),
             qPrintable(agent.errors()));
}

void TestAgent::sighupReloadsTheWorkspace()
{
#ifdef Q_OS_UNIX
    ReplayProcess replay;
    QVERIFY(replay.port());
    const auto url = [&replay](const char *scenario, int count) {
        return QStringLiteral("ws://127.0.0.1:%1/%2?count=%3")
            .arg(replay.port())
            .arg(QLatin1String(scenario))
            .arg(count);
    };
    // Finite replays: each connection gets exactly `count` messages and then stays open and
    // quiet, so a stream that reconnected would count its messages a second time.
    const QString workspace = m_dir.filePath(QStringLiteral("agent.json"));
    QVERIFY(writeFile(workspace,
                      workspaceJson({binanceStream(QStringLiteral("keep"), url("small_aggtrade", 300)),
                                     binanceStream(QStringLiteral("drop"), url("small_aggtrade", 100)),
                                     binanceStream(QStringLiteral("change"), url("medium_kline", 200))})));
    const QString report = m_dir.filePath(QStringLiteral("agent-report.json"));
    Agent agent({QStringLiteral("--workspace"), workspace, QStringLiteral("--metrics-port"), QStringLiteral("0"),
                 QStringLiteral("--report"), report, QStringLiteral("--quiet")});
    const QUrl metrics(agent.metricsUrl());
    QVERIFY2(metrics.isValid() && !metrics.isEmpty(), qPrintable(agent.errors()));
    QByteArray body;
    const auto counted = [&](const char *stream, double n) {
        return httpGet(metrics, &body) && sampleValue(body, messagesSeries(stream)) == n;
    };
    QVERIFY2(waitFor([&] { return counted("keep", 300) && counted("drop", 100) && counted("change", 200); }, 30000),
             body.constData());
    QVERIFY2(!agent.output().contains(QLatin1String("keep")), "--quiet prints no live lines");

    // Edit: keep as it was, drop removed, change pointed elsewhere, fresh added.
    QVERIFY(writeFile(workspace,
                      workspaceJson({binanceStream(QStringLiteral("keep"), url("small_aggtrade", 300)),
                                     binanceStream(QStringLiteral("change"), url("medium_kline", 250)),
                                     binanceStream(QStringLiteral("fresh"), url("large_depth20", 150))})));
    QCOMPARE(::kill(pid_t(agent.process().processId()), SIGHUP), 0);
    QVERIFY2(waitFor([&] { return counted("fresh", 150) && counted("change", 450); }, 30000), body.constData());
    QVERIFY2(!body.contains("stream=\"drop\""), body.constData());
    // The unchanged stream neither reconnected nor restarted: its one replay, counted once.
    QCOMPARE(sampleValue(body, messagesSeries("keep")), 300.0);
    QCOMPARE(sampleValue(body, "streamscope_reconnects_total{stream=\"keep\"}"), 0.0);
    QVERIFY2(agent.errors().contains(QLatin1String("1 added, 1 removed, 1 changed, 1 unchanged")),
             qPrintable(agent.errors()));

    // A broken file is refused and the streams run on as they were.
    QVERIFY(writeFile(workspace, "{\"version\":1,\"streams\":[{\"name\":\"keep\"}]}"));
    QCOMPARE(::kill(pid_t(agent.process().processId()), SIGHUP), 0);
    QVERIFY(waitFor([&] { return agent.errors().contains(QLatin1String("reload failed")); }, 20000));
    QVERIFY2(agent.errors().contains(QLatin1String("streams[0].url: missing, expected a string")),
             qPrintable(agent.errors()));
    QVERIFY(counted("keep", 300) && counted("fresh", 150) && counted("change", 450));

    QCOMPARE(agent.stop(), 0);
    const QJsonObject r = readJson(report);
    QCOMPARE(r.value(QStringLiteral("streams")).toArray().size(), 3);
    QCOMPARE(streamNamed(r, QStringLiteral("keep")).value(QStringLiteral("messages")).toInteger(), qint64(300));
    QCOMPARE(streamNamed(r, QStringLiteral("change")).value(QStringLiteral("messages")).toInteger(), qint64(450));
    QCOMPARE(streamNamed(r, QStringLiteral("fresh")).value(QStringLiteral("messages")).toInteger(), qint64(150));
    QVERIFY(streamNamed(r, QStringLiteral("drop")).isEmpty());
#else
    QSKIP("POSIX signals only");
#endif
}

// The unit the .deb installs, with its ExecStart pointed at this build's binary (verify wants
// the program to exist), must verify without a single message, and keep its hardening.
void TestAgent::systemdUnitVerifies()
{
#ifdef Q_OS_LINUX
    FLEET_REQUIRE_TOOL(analyze, "systemd-analyze");
    QFile unit(QStringLiteral(STREAMSCOPE_SOURCE_DIR "/packaging/linux/streamscope-agent@.service"));
    QVERIFY(unit.open(QIODevice::ReadOnly));
    QByteArray text = unit.readAll();
    QVERIFY(text.contains("ExecStart=/usr/bin/streamscope "));
    text.replace("/usr/bin/streamscope ", QByteArray(STREAMSCOPE_BIN " "));
    const QString copy = m_dir.filePath(QStringLiteral("streamscope-agent@verify.service"));
    QVERIFY(writeFile(copy, text));

    QProcess verify;
    verify.start(analyze, {QStringLiteral("verify"), QStringLiteral("--man=no"), copy});
    QVERIFY(verify.waitForFinished(scaledMsForExit()));
    const QByteArray said = verify.readAllStandardOutput() + verify.readAllStandardError();
    QVERIFY2(verify.exitCode() == 0 && said.trimmed().isEmpty(), said.constData());

    // "systemd-analyze security": exits non-zero above the threshold (exposure x 10).
    QProcess security;
    security.start(analyze,
                   {QStringLiteral("security"), QStringLiteral("--offline=true"),
                    QStringLiteral("--threshold=%1").arg(kMaxExposureTimes10), copy});
    QVERIFY(security.waitForFinished(scaledMsForExit()));
    const QByteArray table = security.readAllStandardOutput() + security.readAllStandardError();
    QVERIFY2(security.exitCode() == 0, table.constData());
    qInfo("%s", table.mid(table.lastIndexOf("Overall exposure")).trimmed().constData());
#else
    QSKIP("systemd units are Linux only");
#endif
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestAgent)
#include "tst_agent.moc"
