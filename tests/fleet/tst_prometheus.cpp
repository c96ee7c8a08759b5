// A real Prometheus server (Debian's `prometheus`) on loopback scrapes a headless agent that
// reads finite replays, and evaluates our alerting rules. Its HTTP API must then give the
// counts the agent's report gives (messages, gaps, latency count) and a latency quantile
// (histogram_quantile over _bucket) in the report's p50 bucket; every rule must evaluate
// without error; and every PromQL expression of the Grafana dashboard, with Grafana's
// variables filled in, must run and return series.

#include "../common/TestRegistry.h"
#include "FleetProcesses.h"

#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>

#include <array>
#include <cmath>

using namespace fleet;

namespace {

// The histogram's bounds in seconds, as app/MetricsServer.cpp exports them.
constexpr std::array<double, 17> kBoundsS = {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                             0.05,    0.1,    0.25,    0.5,    1.0,   2.5,    5.0,   10.0};
int bucketOf(double seconds)
{
    int i = 0;
    while (i < int(kBoundsS.size()) && seconds > kBoundsS[size_t(i)])
        ++i;
    return i;
}

// Values for Grafana's variables in the dashboard's expressions.
QString substituteGrafanaVariables(QString expr)
{
    const QList<QPair<QString, QString>> values{{QStringLiteral("__rate_interval"), QStringLiteral("1m")},
                                                {QStringLiteral("__interval"), QStringLiteral("15s")},
                                                {QStringLiteral("__range"), QStringLiteral("5m")},
                                                {QStringLiteral("instance"), QStringLiteral(".+")},
                                                {QStringLiteral("stream"), QStringLiteral(".+")}};
    for (const auto &[name, value] : values) {
        expr.replace(QStringLiteral("${%1}").arg(name), value);
        expr.replace(QLatin1Char('$') + name, value);
    }
    return expr;
}

// Every PromQL expression of the dashboard: panel targets (rows included), and for the
// query variables the metric selector inside label_values(...).
QStringList dashboardExpressions(const QJsonArray &panels)
{
    QStringList out;
    for (const QJsonValue &v : panels) {
        const QJsonObject p = v.toObject();
        for (const QJsonValue &t : p.value(QStringLiteral("targets")).toArray())
            out << t.toObject().value(QStringLiteral("expr")).toString();
        out += dashboardExpressions(p.value(QStringLiteral("panels")).toArray());
    }
    return out;
}

class PrometheusServer {
public:
    ~PrometheusServer()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
    }
    // Starts it on a free loopback port; false when it does not become ready.
    bool start(const QString &program, const QString &config, const QString &storage)
    {
        for (int attempt = 0; attempt < 3; ++attempt) { // another process may take the port first
            m_port = freeLoopbackPort();
            m_process.setProcessChannelMode(QProcess::MergedChannels);
            m_process.start(
                program,
                {QStringLiteral("--config.file=") + config, QStringLiteral("--storage.tsdb.path=") + storage,
                 QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port), QStringLiteral("--log.level=warn")});
            if (!m_process.waitForStarted())
                return false;
            QByteArray body;
            if (waitFor(
                    [&] {
                        return m_process.state() == QProcess::NotRunning
                            || httpGet(QUrl(QStringLiteral("http://127.0.0.1:%1/-/ready").arg(m_port)), &body);
                    },
                    30000)
                && m_process.state() == QProcess::Running)
                return true;
            m_log += m_process.readAll();
            m_process.kill();
            m_process.waitForFinished();
        }
        return false;
    }
    QString log() { return QString::fromUtf8(m_log + m_process.readAll()); }

    // GET /api/v1/PATH?QUERY (QUERY percent-encoded); the "data" member, or an empty value
    // with `error` set.
    QJsonValue api(const QString &path, const QByteArray &query = {}, QString *error = nullptr)
    {
        QUrl url(QStringLiteral("http://127.0.0.1:%1/api/v1/%2").arg(m_port).arg(path));
        if (!query.isEmpty())
            url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
        QByteArray body;
        int status = 0;
        httpGet(url, &body, {}, &status);
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        if (o.value(QStringLiteral("status")).toString() != QLatin1String("success")) {
            if (error)
                *error = QStringLiteral("HTTP %1: %2").arg(status).arg(QString::fromUtf8(body));
            return {};
        }
        return o.value(QStringLiteral("data"));
    }
    // An instant query; its result vector (empty on error, with `error` set).
    QJsonArray query(const QString &promql, QString *error = nullptr)
    {
        // Every reserved character encoded: a '+' left as it is would reach PromQL as a space.
        return api(QStringLiteral("query"), "query=" + QUrl::toPercentEncoding(promql), error)
            .toObject()
            .value(QStringLiteral("result"))
            .toArray();
    }
    // The value of a query that gives one series; NaN when it gives none or several.
    double scalar(const QString &promql)
    {
        const QJsonArray r = query(promql);
        if (r.size() != 1)
            return std::nan("");
        return r.first().toObject().value(QStringLiteral("value")).toArray().at(1).toString().toDouble();
    }

private:
    QProcess m_process;
    QByteArray m_log;
    quint16 m_port = 0;
};

} // namespace

class TestPrometheus : public QObject {
    Q_OBJECT
private slots:
    void scrapedCountsMatchTheReport();
};

void TestPrometheus::scrapedCountsMatchTheReport()
{
    FLEET_REQUIRE_TOOL(prometheusBin, "prometheus");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ReplayProcess replay;
    QVERIFY(replay.port());
    const QString base = QStringLiteral("ws://127.0.0.1:%1/").arg(replay.port());
    const QString workspace = dir.filePath(QStringLiteral("agent.json"));
    const QString reportPath = dir.filePath(QStringLiteral("report.json"));
    constexpr int kTrades = 2000;
    QVERIFY(writeFile(
        workspace,
        workspaceJson(
            {binanceStream(QStringLiteral("trades"), base + QStringLiteral("small_aggtrade?count=%1").arg(kTrades)),
             binanceStream(QStringLiteral("depth"),
                           base
                               + QStringLiteral("xlarge_depth_diff?count=200&misbehave=gap&"
                                                "after=50&gap=3")),
             // Two venues' trades of one instrument: the cross-venue gauges.
             subscribed(
                 binanceStream(QStringLiteral("binance-trades"), base + QStringLiteral("small_aggtrade?rate=50")),
                 QStringLiteral("btcusdt@aggTrade")),
             subscribed(venueStream(QStringLiteral("bybit-trades"), QStringLiteral("bybit"),
                                    base + QStringLiteral("bybit_trades?rate=50&wait_subscribe=1")),
                        QStringLiteral("publicTrade:BTCUSDT"))})));
    Agent agent({QStringLiteral("--workspace"), workspace, QStringLiteral("--metrics-port"), QStringLiteral("0"),
                 QStringLiteral("--report"), reportPath, QStringLiteral("--quiet")});
    const QUrl metrics(agent.metricsUrl());
    QVERIFY2(!metrics.isEmpty(), qPrintable(agent.errors()));

    const QString config = dir.filePath(QStringLiteral("prometheus.yml"));
    QVERIFY(writeFile(config,
                      QStringLiteral("global:\n"
                                     "  scrape_interval: 1s\n"
                                     "  evaluation_interval: 1s\n"
                                     "rule_files:\n"
                                     "  - '%1'\n"
                                     "scrape_configs:\n"
                                     "  - job_name: streamscope\n"
                                     "    static_configs:\n"
                                     "      - targets: ['%2:%3']\n")
                          .arg(kRules, metrics.host())
                          .arg(metrics.port())
                          .toUtf8()));
    PrometheusServer prometheus;
    QVERIFY2(prometheus.start(prometheusBin, config, dir.filePath(QStringLiteral("data"))),
             qPrintable(prometheus.log()));

    // Both replays are finite: once Prometheus has scraped the final counts, nothing changes.
    QByteArray direct;
    const auto settled = [&] {
        if (!httpGet(metrics, &direct))
            return false;
        for (const char *series :
             {"streamscope_messages_total{stream=\"trades\"}", "streamscope_messages_total{stream=\"depth\"}",
              "streamscope_gaps_total{stream=\"depth\"}", "streamscope_latency_seconds_count{stream=\"trades\"}"}) {
            if (prometheus.scalar(QString::fromLatin1(series)) != sampleValue(direct, series))
                return false;
        }
        // Two scrapes at least, so that rate() and increase() have two samples.
        // The last trade prices of both venues compared, and scraped.
        for (const char *series : {"streamscope_cross_venue_last{instrument=\"BTC-USDT\",stream=\"binance-trades\"}",
                                   "streamscope_cross_venue_last{instrument=\"BTC-USDT\",stream=\"bybit-trades\"}"})
            if (std::isnan(prometheus.scalar(QString::fromLatin1(series))))
                return false;
        return sampleValue(direct, "streamscope_messages_total{stream=\"trades\"}") == kTrades
            && sampleValue(direct, "streamscope_messages_total{stream=\"depth\"}") > 0
            && prometheus.scalar(QStringLiteral("count_over_time(streamscope_messages_total{stream=\"trades\"}[1m])"))
            >= 2;
    };
    QVERIFY2(waitFor(settled, 30000), direct.constData());
    QCOMPARE(prometheus.scalar(QStringLiteral("up{job=\"streamscope\"}")), 1.0);
    // Prometheus scraped the OpenMetrics format (it asks for it first) without complaint.
    const QJsonArray targets =
        prometheus.api(QStringLiteral("targets")).toObject().value(QStringLiteral("activeTargets")).toArray();
    QCOMPARE(targets.size(), 1);
    QCOMPARE(targets.first().toObject().value(QStringLiteral("health")).toString(), QStringLiteral("up"));
    QCOMPARE(targets.first().toObject().value(QStringLiteral("lastError")).toString(), QString());

    const double p50 = prometheus.scalar(
        QStringLiteral("histogram_quantile(0.5, streamscope_latency_seconds_bucket{stream=\"trades\"})"));
    const double p99 = prometheus.scalar(
        QStringLiteral("histogram_quantile(0.99, sum by (le) "
                       "(streamscope_latency_seconds_bucket{job=\"streamscope\",stream=\"trades\"}))"));
    QVERIFY(!std::isnan(p50) && !std::isnan(p99));

    // Every rule loaded and evaluated (health "ok" after an evaluation), and each one's query
    // runs on its own too.
    QSet<QString> alerts;
    QStringList ruleQueries;
    QVERIFY2(waitFor(
                 [&] {
                     alerts.clear();
                     ruleQueries.clear();
                     const QJsonArray groups =
                         prometheus.api(QStringLiteral("rules")).toObject().value(QStringLiteral("groups")).toArray();
                     for (const QJsonValue &g : groups) {
                         for (const QJsonValue &r : g.toObject().value(QStringLiteral("rules")).toArray()) {
                             const QJsonObject rule = r.toObject();
                             if (rule.value(QStringLiteral("health")).toString() != QLatin1String("ok"))
                                 return false;
                             alerts.insert(rule.value(QStringLiteral("name")).toString());
                             ruleQueries << rule.value(QStringLiteral("query")).toString();
                         }
                     }
                     return !alerts.isEmpty();
                 },
                 20000),
             qPrintable(prometheus.log()));
    QCOMPARE(alerts.size(), 9);
    for (const QString &q : std::as_const(ruleQueries)) {
        QString error;
        prometheus.query(q, &error);
        QVERIFY2(error.isEmpty(), qPrintable(q + QStringLiteral(": ") + error));
    }

    // The dashboard's expressions: each runs, and each finds series (a misspelt metric or
    // label would run and find none).
    QFile dashboardFile(kDashboard);
    QVERIFY(dashboardFile.open(QIODevice::ReadOnly));
    const QJsonObject dashboard = QJsonDocument::fromJson(dashboardFile.readAll()).object();
    QStringList exprs = dashboardExpressions(dashboard.value(QStringLiteral("panels")).toArray());
    const QRegularExpression labelValues(QStringLiteral("^label_values\\((.+), *(\\w+)\\)$"));
    for (const QJsonValue &v :
         dashboard.value(QStringLiteral("templating")).toObject().value(QStringLiteral("list")).toArray()) {
        const QString definition = v.toObject().value(QStringLiteral("definition")).toString();
        if (const auto m = labelValues.match(definition); m.hasMatch())
            exprs << QStringLiteral("count by (%1) (%2)").arg(m.captured(2), m.captured(1));
    }
    QVERIFY(exprs.size() >= 10);
    for (const QString &raw : std::as_const(exprs)) {
        const QString expr = substituteGrafanaVariables(raw);
        QVERIFY2(!expr.contains(QLatin1Char('$')), qPrintable(expr));
        QString error;
        const QJsonArray result = prometheus.query(expr, &error);
        QVERIFY2(error.isEmpty(), qPrintable(expr + QStringLiteral(": ") + error));
        QVERIFY2(!result.isEmpty(), qPrintable(expr + QStringLiteral(": no series")));
    }

    // Every metric the rules and the dashboard name exists in what Prometheus scraped.
    const QJsonArray names = prometheus.api(QStringLiteral("label/__name__/values")).toArray();
    QFile rulesFile(kRules);
    QVERIFY(rulesFile.open(QIODevice::ReadOnly));
    const QString shipped = QString::fromUtf8(rulesFile.readAll()) + exprs.join(QLatin1Char('\n'));
    const QRegularExpression metricName(QStringLiteral("\\bstreamscope_[a-z0-9_]+"));
    for (auto it = metricName.globalMatch(shipped); it.hasNext();) {
        const QString name = it.next().captured(0);
        if (names.contains(QJsonValue(name)))
            continue;
        QFAIL(qPrintable(name + QStringLiteral(" is named in the rules or the dashboard but not exported")));
    }

    // The agent's own account on exit: the same counts, and its p50 in the quantile's bucket
    // (Prometheus interpolates inside the exported buckets; the report reads finer ones).
    QCOMPARE(agent.stop(), 0);
    const QJsonObject report = readJson(reportPath);
    for (const char *name : {"trades", "depth"}) {
        const QJsonObject s = streamNamed(report, QLatin1String(name));
        QVERIFY2(!s.isEmpty(), name);
        const QString sel = QStringLiteral("{stream=\"%1\"}").arg(QLatin1String(name));
        QCOMPARE(prometheus.scalar(QStringLiteral("streamscope_messages_total") + sel),
                 double(s.value(QStringLiteral("messages")).toInteger()));
        QCOMPARE(prometheus.scalar(QStringLiteral("streamscope_data_messages_total") + sel),
                 double(s.value(QStringLiteral("data_messages")).toInteger()));
        QCOMPARE(prometheus.scalar(QStringLiteral("streamscope_gaps_total") + sel),
                 double(s.value(QStringLiteral("gaps")).toInteger()));
        QCOMPARE(prometheus.scalar(QStringLiteral("streamscope_latency_seconds_count") + sel),
                 double(s.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("count")).toInteger()));
    }
    const QJsonObject trades = streamNamed(report, QStringLiteral("trades"));
    QCOMPARE(trades.value(QStringLiteral("messages")).toInteger(), qint64(kTrades));
    QVERIFY(streamNamed(report, QStringLiteral("depth")).value(QStringLiteral("gaps")).toInteger() >= 1);
    const QJsonObject latency = trades.value(QStringLiteral("latency_ms")).toObject();
    QCOMPARE(latency.value(QStringLiteral("count")).toInteger(), qint64(kTrades));
    const double reportP50 = latency.value(QStringLiteral("p50")).toDouble() / 1000.0;
    const double reportP99 = latency.value(QStringLiteral("p99")).toDouble() / 1000.0;
    QVERIFY2(std::abs(bucketOf(p50) - bucketOf(reportP50)) <= 1,
             qPrintable(QStringLiteral("Prometheus p50 %1 s, report p50 %2 s").arg(p50).arg(reportP50)));
    QVERIFY2(std::abs(bucketOf(p99) - bucketOf(reportP99)) <= 1,
             qPrintable(QStringLiteral("Prometheus p99 %1 s, report p99 %2 s").arg(p99).arg(reportP99)));
    qInfo("latency p50: Prometheus %.6f s, report %.6f s; p99: Prometheus %.6f s, report %.6f s", p50, reportP50, p99,
          reportP99);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
