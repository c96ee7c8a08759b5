// promtool, Prometheus's own checker, on what we export and ship: the live /metrics of a
// headless agent on the replay server in the classic text format (`promtool check metrics`),
// the alerting rules (`promtool check rules`) and their unit tests (`promtool test rules`);
// and the Grafana dashboard's model (a datasource variable, panels with targets, the
// topics an operator looks for).

#include "../common/TestRegistry.h"
#include "FleetProcesses.h"

#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>

using namespace fleet;

namespace {

const QString kRulesTest = QStringLiteral(STREAMSCOPE_SOURCE_DIR "/packaging/prometheus/streamscope-rules.test.yml");

struct ToolRun {
    int exitCode = -1;
    QByteArray output; // standard output and error together
};

ToolRun runTool(const QString &program, const QStringList &args, const QByteArray &input = {})
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    ToolRun r;
    if (!p.waitForStarted())
        return r;
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(streamscope::testing::scaledMs(30000))) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.output = p.readAll();
    return r;
}

// Every panel, those inside rows included.
QList<QJsonObject> allPanels(const QJsonArray &panels)
{
    QList<QJsonObject> out;
    for (const QJsonValue &v : panels) {
        out << v.toObject();
        out += allPanels(v.toObject().value(QStringLiteral("panels")).toArray());
    }
    return out;
}

} // namespace

class TestPromtool : public QObject {
    Q_OBJECT
private slots:
    void checkMetricsOnALiveAgent();
    void checkRules();
    void testRules();
    void dashboardModel();
};

void TestPromtool::checkMetricsOnALiveAgent()
{
    FLEET_REQUIRE_TOOL(promtool, "promtool");
    ReplayProcess replay;
    QVERIFY(replay.port());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString base = QStringLiteral("ws://127.0.0.1:%1/").arg(replay.port());
    const QString workspace = dir.filePath(QStringLiteral("w.json"));
    // Names that need escaping in a label value, latency, a gap, and a raw stream.
    QJsonObject raw = binanceStream(QStringLiteral("raw kline"), base + QStringLiteral("medium_kline?count=200"));
    raw.insert(QStringLiteral("mode"), QStringLiteral("raw"));
    QVERIFY(writeFile(
        workspace,
        workspaceJson({binanceStream(QStringLiteral("trades \"quoted\" \\ back"),
                                     base + QStringLiteral("small_aggtrade?count=500")),
                       binanceStream(QStringLiteral("depth"),
                                     base + QStringLiteral("xlarge_depth_diff?count=100&misbehave=gap&after=20&gap=3")),
                       raw})));
    Agent agent({QStringLiteral("--workspace"), workspace, QStringLiteral("--metrics-port"), QStringLiteral("0"),
                 QStringLiteral("--quiet")});
    const QUrl url(agent.metricsUrl());
    QVERIFY2(!url.isEmpty(), qPrintable(agent.errors()));
    QByteArray body;
    QVERIFY2(waitFor(
                 [&] {
                     return httpGet(url, &body, "text/plain;version=0.0.4")
                         && sampleValue(body, "streamscope_messages_total{stream=\"raw kline\"}") == 200
                         && sampleValue(body, "streamscope_gaps_total{stream=\"depth\"}") >= 1;
                 },
                 30000),
             body.constData());
    QVERIFY(!body.contains("# EOF"));
    QVERIFY(body.contains("# TYPE streamscope_messages_total counter"));
    QVERIFY(body.contains("streamscope_messages_total{stream=\"trades \\\"quoted\\\" \\\\ back\"} 500"));
    const ToolRun check = runTool(promtool, {QStringLiteral("check"), QStringLiteral("metrics")}, body);
    // promtool prints nothing for a clean exposition, and one line per problem or lint finding.
    QVERIFY2(check.exitCode == 0 && check.output.trimmed().isEmpty(), check.output.constData());
    QCOMPARE(agent.stop(), 0);
}

void TestPromtool::checkRules()
{
    FLEET_REQUIRE_TOOL(promtool, "promtool");
    const ToolRun r = runTool(promtool, {QStringLiteral("check"), QStringLiteral("rules"), kRules});
    QVERIFY2(r.exitCode == 0, r.output.constData());
    QVERIFY2(r.output.contains("SUCCESS: 9 rules found"), r.output.constData());
}

void TestPromtool::testRules()
{
    FLEET_REQUIRE_TOOL(promtool, "promtool");
    const ToolRun r = runTool(promtool, {QStringLiteral("test"), QStringLiteral("rules"), kRulesTest});
    QVERIFY2(r.exitCode == 0, r.output.constData());
    QVERIFY2(r.output.contains("SUCCESS") && !r.output.contains("FAILED"), r.output.constData());
    // Every alert of the rules file has a test.
    QFile rules(kRules);
    QFile tests(kRulesTest);
    QVERIFY(rules.open(QIODevice::ReadOnly) && tests.open(QIODevice::ReadOnly));
    const QByteArray testText = tests.readAll();
    const QRegularExpression alert(QStringLiteral("^\\s*- alert: (\\w+)\\s*$"), QRegularExpression::MultilineOption);
    int alerts = 0;
    for (auto it = alert.globalMatch(QString::fromUtf8(rules.readAll())); it.hasNext(); ++alerts) {
        const QString name = it.next().captured(1);
        QVERIFY2(testText.contains("alertname: " + name.toUtf8()), qPrintable(name + QStringLiteral(" has no test")));
    }
    QCOMPARE(alerts, 9);
}

void TestPromtool::dashboardModel()
{
    QFile f(kDashboard);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonObject d = QJsonDocument::fromJson(f.readAll(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(d.value(QStringLiteral("schemaVersion")).toInt() >= 36);
    QVERIFY(!d.value(QStringLiteral("title")).toString().isEmpty());
    QVERIFY(!d.value(QStringLiteral("uid")).toString().isEmpty());

    // A datasource variable, which every panel and target uses: the dashboard imports into
    // any Grafana whatever its Prometheus data source is called.
    QSet<QString> variables;
    bool datasourceVariable = false;
    for (const QJsonValue &v :
         d.value(QStringLiteral("templating")).toObject().value(QStringLiteral("list")).toArray()) {
        const QJsonObject var = v.toObject();
        variables.insert(var.value(QStringLiteral("name")).toString());
        if (var.value(QStringLiteral("type")).toString() == QLatin1String("datasource")
            && var.value(QStringLiteral("query")).toString() == QLatin1String("prometheus"))
            datasourceVariable = var.value(QStringLiteral("name")).toString() == QLatin1String("datasource");
    }
    QVERIFY(datasourceVariable);
    const QJsonObject datasource{{QStringLiteral("type"), QStringLiteral("prometheus")},
                                 {QStringLiteral("uid"), QStringLiteral("${datasource}")}};

    QSet<int> ids;
    QString titles;
    int targets = 0;
    for (const QJsonObject &p : allPanels(d.value(QStringLiteral("panels")).toArray())) {
        const QString title = p.value(QStringLiteral("title")).toString();
        QVERIFY2(!title.isEmpty(), "a panel without a title");
        const int id = p.value(QStringLiteral("id")).toInt();
        QVERIFY2(id > 0 && !ids.contains(id), qPrintable(title));
        ids.insert(id);
        const QJsonObject grid = p.value(QStringLiteral("gridPos")).toObject();
        for (const char *key : {"x", "y", "w", "h"})
            QVERIFY2(grid.contains(QLatin1String(key)), qPrintable(title));
        QVERIFY2(grid.value(QStringLiteral("x")).toInt() + grid.value(QStringLiteral("w")).toInt() <= 24,
                 qPrintable(title));
        if (p.value(QStringLiteral("type")).toString() == QLatin1String("row"))
            continue;
        titles += title.toLower() + QLatin1Char('\n');
        QCOMPARE(p.value(QStringLiteral("datasource")).toObject(), datasource);
        const QJsonArray ts = p.value(QStringLiteral("targets")).toArray();
        QVERIFY2(!ts.isEmpty(), qPrintable(title));
        for (const QJsonValue &t : ts) {
            const QString expr = t.toObject().value(QStringLiteral("expr")).toString();
            QVERIFY2(expr.contains(QLatin1String("streamscope_")) || expr.contains(QLatin1String("up{")),
                     qPrintable(title));
            QCOMPARE(t.toObject().value(QStringLiteral("datasource")).toObject(), datasource);
            if (expr.contains(QLatin1String("histogram_quantile")))
                QVERIFY2(expr.contains(QLatin1String("streamscope_latency_seconds_bucket"))
                             && expr.contains(QLatin1String("le)")),
                         qPrintable(expr));
            // Variables the dashboard defines, or Grafana's own.
            const QRegularExpression var(QStringLiteral("\\$\\{?(\\w+)"));
            for (auto it = var.globalMatch(expr); it.hasNext();) {
                const QString name = it.next().captured(1);
                QVERIFY2(name.startsWith(QLatin1String("__")) || variables.contains(name), qPrintable(expr));
            }
            ++targets;
        }
    }
    QVERIFY(targets >= 10);
    for (const char *topic :
         {"messages per second", "bytes per second", "latency p50", "latency p99", "states", "reconnects", "gaps"})
        QVERIFY2(titles.contains(QLatin1String(topic)), topic);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestPromtool)
#include "tst_promtool.moc"
