#include "HeadlessRunner.h"

#include "AlertService.h"
#include "Console.h"
#include "Engine.h"
#include "MetricsServer.h"
#include "Report.h"
#include "ReportCsv.h"
#include "StatsFormat.h"
#include "TerminationSignals.h"
#include "WorkspaceReload.h"

#include <QtCore/QDateTime>
#include <QtCore/QUrl>

namespace streamscope::app {

namespace {
// Every line this runner writes holds text from outside (a workspace's names and values, a
// peer's words, a path): escaped whole, as one line.
void out(const QString &line)
{
    console::out(ConsoleText::escape(line));
}
void err(const QString &line)
{
    console::err(ConsoleText::escape(line));
}
} // namespace

HeadlessRunner::HeadlessRunner(const AppOptions &options, const Workspace &workspace, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_workspace(workspace)
{
}

HeadlessRunner::~HeadlessRunner() = default;

QVector<StreamConfig> HeadlessRunner::withRecordOption(QVector<StreamConfig> streams) const
{
    if (!m_options.recordDir.isEmpty())
        for (StreamConfig &c : streams) {
            c.record.dir = m_options.recordDir;
            c.record.enabled = true;
        }
    return streams;
}

FlightConfig HeadlessRunner::flightConfig(const Workspace &workspace) const
{
    FlightConfig c = workspace.flight;
    if (!m_options.flightDir.isEmpty()) {
        c.enabled = true;
        c.dir = m_options.flightDir;
    }
    return c;
}

bool HeadlessRunner::start()
{
    m_engine = std::make_unique<Engine>();
    m_alerts = std::make_unique<alerts::AlertService>();
    if (QString error; !m_alerts->configure(m_workspace, false, &error)) {
        err(QStringLiteral("streamscope: %1: %2")
                .arg(m_options.workspacePath.isEmpty() ? QStringLiteral("workspace") : m_options.workspacePath, error));
        m_exitCode = 2;
        return false;
    }
    connect(m_alerts.get(), &alerts::AlertService::message, this, [](const QString &line) { err(line); });
    if (m_options.metricsPort >= 0) {
        m_metrics = std::make_unique<MetricsServer>(*m_engine);
        m_metrics->setExtraMetrics([this](bool classic) { return m_alerts->renderMetrics(classic); });
        MetricsServer::Access access;
        QString error;
        if ((!m_options.metricsAuthFile.isEmpty()
             && !MetricsServer::readAuthFile(m_options.metricsAuthFile, &access.basicAuth, &error))
            || (!m_options.metricsTlsCert.isEmpty()
                && !MetricsServer::tlsFromFiles(m_options.metricsTlsCert, m_options.metricsTlsKey, &access.tls,
                                                &error))) {
            err(QStringLiteral("streamscope: metrics endpoint: ") + error);
            m_exitCode = 2;
            return false;
        }
        m_metrics->setAccess(access);
        const QHostAddress address(m_options.metricsAddress);
        if (!address.isLoopback() && (access.basicAuth.isEmpty() || !access.usesTls()))
            err(QStringLiteral("streamscope: warning: the metrics endpoint listens on %1, not only on this machine, %2")
                    .arg(address.toString(),
                         access.basicAuth.isEmpty() ? QStringLiteral("without authentication: anyone who can reach "
                                                                     "it reads the stream names and counters")
                                                    : QStringLiteral("without TLS: its password crosses the network "
                                                                     "in clear")));
        const quint16 port = m_metrics->listen(address, quint16(m_options.metricsPort), &error);
        if (!port) {
            err(QStringLiteral("streamscope: metrics endpoint: ") + error);
            m_exitCode = 1;
            return false;
        }
        QUrl url;
        url.setScheme(access.usesTls() ? QStringLiteral("https") : QStringLiteral("http"));
        url.setHost(address.toString()); // brackets an IPv6 address
        url.setPort(port);
        url.setPath(QStringLiteral("/metrics"));
        out(QStringLiteral("metrics: ") + url.toString());
    }
    m_signals = std::make_unique<TerminationSignals>();
    connect(m_signals.get(), &TerminationSignals::terminationRequested, this,
            [this](int sig) { finish(QStringLiteral("signal %1").arg(sig)); });
    m_signals->enableReload();
    connect(m_signals.get(), &TerminationSignals::reloadRequested, this, &HeadlessRunner::reloadWorkspace);
    connect(m_engine.get(), &Engine::eventOccurred, this, [](const StreamEvent &e) {
        // Connection-level events are worth a line; data-level ones are in the counters. The
        // clock's explanation of negative latencies too (docs/clock.md: "clock behind ...").
        if (e.kind == EventKind::Disconnected || e.kind == EventKind::Stalled || e.kind == EventKind::Gap
            || e.kind == EventKind::ParseError || (e.kind == EventKind::StateChanged && e.state == StreamState::Failed)
            || (e.kind == EventKind::Info
                && (e.text.startsWith(QLatin1String("clock ")) || e.text.startsWith(QLatin1String("recording: "))
                    || e.text.startsWith(QLatin1String("flight recorder: ")))))
            err(QStringLiteral("event: stream %1: %2").arg(e.stream).arg(e.text));
    });
    m_alerts->setEngine(m_engine.get());
    m_engine->setFlightRecorder(flightConfig(m_workspace));
    applyWorkspaceStreams(*m_engine, m_ids, withRecordOption(m_workspace.streams));
    m_clock.start();
    m_previous = m_engine->snapshot(true);
    m_liveTimer.setInterval(1000);
    connect(&m_liveTimer, &QTimer::timeout, this, &HeadlessRunner::printLiveLines);
    if (!m_options.quiet)
        m_liveTimer.start();
    // The alert rules, once a second, with or without the live lines (--quiet).
    auto *alertTimer = new QTimer(this);
    connect(alertTimer, &QTimer::timeout, this, [this] {
        if (m_engine && !m_finished)
            m_alerts->evaluate(m_engine->snapshot(true), QDateTime::currentMSecsSinceEpoch(), m_clock.elapsed());
    });
    alertTimer->start(1000);
    if (m_options.durationS > 0) {
        m_durationTimer.setSingleShot(true);
        m_durationTimer.setTimerType(Qt::PreciseTimer);
        connect(&m_durationTimer, &QTimer::timeout, this, [this] { finish(QStringLiteral("duration reached")); });
        m_durationTimer.start(int(m_options.durationS * 1000.0));
    }
    return true;
}

void HeadlessRunner::printLiveLines()
{
    const QVector<StreamSnapshot> now = m_engine->snapshot(true);
    for (qsizetype i = 0; i < now.size(); ++i) {
        const StreamSnapshot &s = now[i];
        const bool same = i < m_previous.size() && m_previous[i].id == s.id;
        const Rates rates = same ? ratesBetween(m_previous[i], s) : Rates{};
        const LatencySnapshot window = same ? s.latency.minus(m_previous[i].latency) : s.latency;
        out(liveLine(s, rates, window));
    }
    m_previous = now;
}

void HeadlessRunner::reloadWorkspace()
{
    if (m_finished)
        return;
    const QString &path = m_options.workspacePath;
    if (path.isEmpty()) {
        err(QStringLiteral("streamscope: SIGHUP: nothing to reload, the built-in demo runs without a workspace file"));
        return;
    }
    Workspace next;
    const Workspace::LoadResult loaded = Workspace::load(path, next);
    for (const QString &w : loaded.warnings)
        err(QStringLiteral("streamscope: warning: ") + w);
    if (!loaded.ok) {
        err(QStringLiteral("streamscope: reload failed, the streams run on unchanged: ") + loaded.error);
        return;
    }
    if (QString error; !m_alerts->configure(next, false, &error)) {
        err(QStringLiteral("streamscope: reload failed, the streams and alerts run on unchanged: %1: %2")
                .arg(path, error));
        return;
    }
    m_engine->setFlightRecorder(flightConfig(next));
    const WorkspaceChanges c = applyWorkspaceStreams(*m_engine, m_ids, withRecordOption(next.streams));
    m_workspace = next;
    QString line = QStringLiteral("streamscope: reloaded ") + path
        + QStringLiteral(": %1 added, %2 removed, %3 changed, %4 unchanged")
              .arg(c.added)
              .arg(c.removed)
              .arg(c.changed)
              .arg(c.unchanged);
    if (c.destinations > 0)
        line += QStringLiteral(", %1 with new alert destinations only (not reconnected)").arg(c.destinations);
    err(line);
}

void HeadlessRunner::finish(const QString &why)
{
    if (m_finished)
        return;
    m_finished = true;
    m_liveTimer.stop();
    m_durationTimer.stop();
    const double durationS = double(m_clock.nsecsElapsed()) / 1e9;
    // The final snapshot is taken before the streams stop, so that their states are reported as they were.
    const QVector<StreamSnapshot> final = m_engine->snapshot(true);
    err(QStringLiteral("streamscope: stopping (%1) after %2 s").arg(why, QString::number(durationS, 'f', 1)));
    if (!m_options.reportPath.isEmpty() || !m_options.reportCsvPath.isEmpty()) {
        QString error;
        QJsonObject report = buildReport(final, durationS);
        m_alerts->addToReport(report);
        if (!m_options.reportPath.isEmpty() && !writeReport(m_options.reportPath, report, &error)) {
            err(QStringLiteral("streamscope: ") + error);
            m_exitCode = 1;
        }
        if (!m_options.reportCsvPath.isEmpty() && !writeReportCsv(m_options.reportCsvPath, report, &error)) {
            err(QStringLiteral("streamscope: ") + error);
            m_exitCode = 1;
        }
    }
    m_engine.reset();      // joins the workers
    m_alerts->drain(3000); // a notification in flight (a recovery at the end) gets its chance
    emit finished(m_exitCode);
}

} // namespace streamscope::app
