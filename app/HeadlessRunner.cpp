#include "HeadlessRunner.h"

#include "AlertService.h"
#include "Engine.h"
#include "MetricsServer.h"
#include "PeerText.h"
#include "Report.h"
#include "StatsFormat.h"
#include "TerminationSignals.h"

#include <QtCore/QDateTime>
#include <QtCore/QTextStream>

#include <cstdio>

namespace streamscope::app {

namespace {
QTextStream &out()
{
    static QTextStream s(stdout);
    return s;
}
QTextStream &err()
{
    static QTextStream s(stderr);
    return s;
}
} // namespace

HeadlessRunner::HeadlessRunner(const AppOptions &options, const Workspace &workspace, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_workspace(workspace)
{
}

HeadlessRunner::~HeadlessRunner() = default;

bool HeadlessRunner::start()
{
    m_engine = std::make_unique<Engine>();
    m_alerts = std::make_unique<alerts::AlertService>();
    if (QString error; !m_alerts->configure(m_workspace, false, &error)) {
        err() << "streamscope: "
              << (m_options.workspacePath.isEmpty() ? QStringLiteral("workspace") : m_options.workspacePath) << ": "
              << error << Qt::endl;
        m_exitCode = 2;
        return false;
    }
    connect(m_alerts.get(), &alerts::AlertService::message, this,
            [](const QString &line) { err() << line << Qt::endl; });
    if (m_options.metricsPort >= 0) {
        m_metrics = std::make_unique<MetricsServer>(*m_engine);
        m_metrics->setExtraMetrics([this](bool classic) { return m_alerts->renderMetrics(classic); });
        QString error;
        const quint16 port =
            m_metrics->listen(QHostAddress(m_options.metricsAddress), quint16(m_options.metricsPort), &error);
        if (!port) {
            err() << "streamscope: metrics endpoint: " << error << Qt::endl;
            m_exitCode = 1;
            return false;
        }
        out() << "metrics: http://" << m_options.metricsAddress << ':' << port << "/metrics" << Qt::endl;
    }
    m_signals = std::make_unique<TerminationSignals>();
    connect(m_signals.get(), &TerminationSignals::terminationRequested, this,
            [this](int sig) { finish(QStringLiteral("signal %1").arg(sig)); });
    connect(m_engine.get(), &Engine::eventOccurred, this, [](const StreamEvent &e) {
        // Connection-level events are worth a line; data-level ones are in the counters.
        if (e.kind == EventKind::Disconnected || e.kind == EventKind::Stalled || e.kind == EventKind::Gap
            || e.kind == EventKind::ParseError || (e.kind == EventKind::StateChanged && e.state == StreamState::Failed))
            err() << "event: stream " << e.stream << ": " << peerText(e.text) << Qt::endl; // a terminal: escape again
    });
    for (const StreamConfig &c : std::as_const(m_workspace.streams))
        m_engine->addStream(c);
    m_clock.start();
    m_previous = m_engine->snapshot(true);
    m_liveTimer.setInterval(1000);
    connect(&m_liveTimer, &QTimer::timeout, this, &HeadlessRunner::printLiveLines);
    m_liveTimer.start();
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
        out() << liveLine(s, rates, window) << '\n';
    }
    out().flush();
    m_previous = now;
    m_alerts->evaluate(now, QDateTime::currentMSecsSinceEpoch(), m_clock.elapsed());
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
    err() << "streamscope: stopping (" << why << ") after " << QString::number(durationS, 'f', 1) << " s" << Qt::endl;
    if (!m_options.reportPath.isEmpty()) {
        QString error;
        QJsonObject report = buildReport(final, durationS);
        m_alerts->addToReport(report);
        if (!writeReport(m_options.reportPath, report, &error)) {
            err() << "streamscope: " << error << Qt::endl;
            m_exitCode = 1;
        }
    }
    m_engine.reset();      // joins the workers
    m_alerts->drain(3000); // a notification in flight (a recovery at the end) gets its chance
    emit finished(m_exitCode);
}

} // namespace streamscope::app
