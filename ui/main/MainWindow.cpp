#include "MainWindow.h"

#include "AlertService.h"
#include "AlertsController.h"
#include "CaptureController.h"
#include "ConnectAgentDialog.h"
#include "ElidingStatusBar.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "FlightRecorderController.h"
#include "Format.h"
#include "InputFile.h"
#include "LatencyChart.h"
#include "MainActions.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "RemoteAgent.h"
#include "Report.h"
#include "ResponseModel.h"
#include "SelectionController.h"
#include "StatusBarController.h"
#include "StreamActionDelegate.h"
#include "StreamSortProxy.h"
#include "StreamTableModel.h"
#include "Theme.h"
#include "Versions.h"

#include <QtCore/QSettings>
#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtGui/QCloseEvent>
#include <QtGui/QDesktopServices>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>

namespace streamscope::ui {

namespace {
const QString kThemeKey = QStringLiteral("ui/theme");
} // namespace

MainWindow::MainWindow(Engine *engine, QWidget *parent)
    : QMainWindow(parent)
    , m_engine(engine)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon::fromTheme(QStringLiteral("streamscope"), windowIcon()));
    setStatusBar(new ElidingStatusBar); // a long message cut with "…" beside the figures

    m_hub = new SnapshotHub(engine, this);
    m_model = new StreamTableModel(this);
    m_proxy = new StreamSortProxy(StreamTableModel::ColName, this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(StreamTableModel::SortRole);
    m_proxy->setFilterKeyColumn(StreamTableModel::ColName);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_eventLog = new EventLogModel(this);
    m_results = new ResponseModel(this);
    m_errors = new ResponseModel(this);
    m_alertService = new alerts::AlertService(this);
    m_alertService->setEngine(engine);
    m_workspace = new WorkspaceController(
        engine, m_alertService, this,
        {[this] { return saveLayout(); }, [this](const QJsonObject &layout) { restoreLayout(layout); },
         [this] { return agentConfigs(); }, [this](const QVector<AgentConfig> &agents) { connectAgents(agents); }});
    m_actions = new MainActions(this);
    m_alerts = new AlertsController(engine, m_alertService, m_model, m_eventLog, m_actions, m_workspace, this);

    buildCentral();
    buildDocks();
    m_actions->addToolBar();
    m_actions->fillMenuBar({m_chartsDock, m_bookDock, m_crossVenueDock, m_inspectorDock, m_detailsDock, m_resultsDock,
                            m_errorsDock, m_eventsDock, m_alertsDock});
    m_actions->addFreeze(m_inspector->freezeAction());
    m_selection =
        new SelectionController(engine, m_hub, m_model, m_proxy, m_table,
                                {m_rateChart, m_latencyChart, m_inspector, m_inspectorDock, m_details, m_detailsDock,
                                 m_results, m_resultsDock, m_errors, m_errorsDock, m_eventPane, m_ladder},
                                this);
    m_capture = new CaptureController(engine, m_hub, m_model, m_eventLog, m_workspace, m_actions, this);
    m_status = new StatusBarController(statusBar(), m_model, &m_alertService->monitor(), this);
    m_flight =
        new FlightRecorderController(engine, m_hub, m_selection, m_capture, m_eventLog, m_workspace, m_actions, this);
    m_export = new ExportController(
        {m_table, m_proxy, m_details, m_detailsDock, m_rateChart, m_latencyChart, m_chartsDock, m_inspector},
        m_selection, m_hub, m_actions, this);
    connectActions();
    connectTicks();
    // The theme (and with it the style) first: the default layout measures the widgets in it.
    QSettings settings;
    const auto mode = Theme::modeFromName(settings.value(kThemeKey, QStringLiteral("system")).toString());
    m_actions->checkTheme(mode);
    applyTheme(mode);
    setDefaultLayout();

    m_hub->start();
    m_actions->updateForSelection(0, 0);
    refreshNow(true);
}

MainWindow::~MainWindow() = default;

void MainWindow::connectTicks()
{
    // Stage 1 of a tick: the table derives its figures from the new readings.
    connect(m_hub, &SnapshotHub::stateChanged, m_model, &StreamTableModel::applyState);
    connect(m_hub, &SnapshotHub::snapshotsChanged, this,
            [this](const QList<qsizetype> &changed, const QList<StreamId> &removed, const SnapshotHub::Tick &tick) {
                m_model->apply(m_hub->snapshots(), changed, removed, tick.nowMs);
                // The rows due on this tick: their snapshots carry latency (an agent's always do).
                if (tick.phase != SnapshotHub::kNoneDue)
                    m_model->updateLatency(m_hub->snapshots(), tick.steadyMs,
                                           [&tick](StreamId id) { return tick.due(id); });
                for (StreamId id : removed)
                    m_selection->forget(id);
                m_alerts->forgetRows(removed);
            });
    // Stage 2: what reads the table's rows. The alerts first, so that the status bar counts them.
    connect(m_hub, &SnapshotHub::ticked, m_alerts, &AlertsController::onTick);
    connect(m_hub, &SnapshotHub::ticked, m_selection, &SelectionController::onTick);
    connect(m_hub, &SnapshotHub::ticked, m_status, &StatusBarController::refresh);
    connect(m_hub, &SnapshotHub::ticked, this, [this] {
        m_eventLog->flush();
        updateActionsForSelection(); // states change without the selection changing
        m_flight->refresh();
    });
    connect(m_hub, &SnapshotHub::agentStatusChanged, m_eventLog, &EventLogModel::addAgentStatus);
    if (m_engine)
        connect(m_engine, &Engine::eventOccurred, this,
                [this](const StreamEvent &event) { m_eventLog->addEvent(event, m_hub->streamName(event.stream)); });

    connect(m_selection, &SelectionController::selectionChanged, this, [this](const QList<StreamId> &rows) {
        m_capture->setSelection(rows);
        updateActionsForSelection();
        m_flight->refresh();
    });
    connect(m_capture, &CaptureController::opened, this, [this](StreamId id) {
        m_selection->selectStream(id);
        m_selection->showSelection();
    });
    connect(m_capture, &CaptureController::closed, this, [this](StreamId id) {
        m_selection->forget(id);
        m_selection->showSelection();
    });
    m_alertService->setFlightFallbackDir(m_capture->recordingFolder());
    connect(m_capture, &CaptureController::recordingFolderChanged, m_alertService,
            &alerts::AlertService::setFlightFallbackDir);
    connect(m_alerts, &AlertsController::alertNotified, this, &MainWindow::alertNotified);
    connect(m_alerts, &AlertsController::activeCountChanged, this,
            [this](int n) { m_alertsDock->setWindowTitle(n ? tr("Alerts (%1)").arg(n) : tr("Alerts")); });
    connect(m_workspace, &WorkspaceController::streamsCleared, this, [this] {
        m_selection->clearHistory();
        refreshNow(false);
    });
    connect(m_workspace, &WorkspaceController::applied, this, [this] {
        refreshNow(false);
        if (m_model->rowCount() > 0 && !m_table->currentIndex().isValid())
            selectStream(m_model->idAt(0));
    });
    connect(m_workspace, &WorkspaceController::warning, m_eventLog, &EventLogModel::addWorkspaceWarning);
    connect(m_workspace, &WorkspaceController::keychainFailed, m_eventLog, &EventLogModel::addKeychainFailure);
}

void MainWindow::connectActions()
{
    connect(m_actions->add, &QAction::triggered, this, &MainWindow::addStream);
    connect(m_actions->edit, &QAction::triggered, this, &MainWindow::editStream);
    connect(m_actions->stop, &QAction::triggered, this, [this] { stopStreams(selectedStreams()); });
    connect(m_actions->restart, &QAction::triggered, this, [this] { restartStreams(selectedStreams()); });
    connect(m_actions->remove, &QAction::triggered, this, [this] {
        const QList<StreamId> ids = selectedStreams();
        if (!ids.isEmpty() && confirmRemove(ids))
            removeStreams(ids);
    });
    connect(m_actions->stopAll, &QAction::triggered, this, [this] {
        if (m_engine)
            stopStreams(m_engine->streamIds());
    });
    connect(m_actions->subscribe, &QAction::triggered, this, &MainWindow::subscribeSelected);
    connect(m_actions->send, &QAction::triggered, this, &MainWindow::sendToSelected);
    connect(m_actions->inspect, &QAction::triggered, this, [this] {
        m_inspectorDock->show();
        m_inspectorDock->raise();
    });
    connect(m_actions->copyUrl, &QAction::triggered, this, &MainWindow::copySelectedUrl);
    connect(m_actions->findStream, &QAction::triggered, this, [this] {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    connect(m_actions->nextStream, &QAction::triggered, this, [this] { m_selection->step(1); });
    connect(m_actions->previousStream, &QAction::triggered, this, [this] { m_selection->step(-1); });
    connect(m_actions->record, &QAction::triggered, this, [this] { m_capture->toggleRecording(selectedStreams()); });
    connect(m_actions->newWorkspace, &QAction::triggered, m_workspace, &WorkspaceController::startNew);
    connect(m_actions->open, &QAction::triggered, m_workspace, &WorkspaceController::chooseAndOpen);
    connect(m_actions->save, &QAction::triggered, m_workspace, &WorkspaceController::save);
    connect(m_actions->saveAs, &QAction::triggered, m_workspace, &WorkspaceController::saveAs);
    connect(m_actions->recentMenu(), &QMenu::aboutToShow, this,
            [this] { m_workspace->fillRecentMenu(m_actions->recentMenu()); });
    connect(m_actions->connectAgent, &QAction::triggered, this, [this] {
        QStringList taken;
        for (const RemoteAgent *a : m_hub->agents())
            taken << a->settings().name;
        ConnectAgentDialog dialog(taken, this);
        if (dialog.exec() == QDialog::Accepted)
            connectAgent(dialog.settings());
    });
    connect(m_actions->disconnectAgents, &QAction::triggered, this, &MainWindow::disconnectAgents);
    m_actions->disconnectAgents->setEnabled(false);
    connect(m_actions->correctedLatency, &QAction::toggled, this, [this](bool on) {
        m_model->setLatencyCorrected(on);
        m_workspace->setModified(true);
        refreshNow(true);
    });
    connect(m_actions->quit, &QAction::triggered, this, &QMainWindow::close);
    connect(m_actions->resetLayout, &QAction::triggered, this, [this] {
        restoreState(m_defaultState);
        m_workspace->setModified(true);
    });
    connect(m_actions->themes, &QActionGroup::triggered, this, [this](QAction *a) {
        QSettings().setValue(kThemeKey, Theme::modeName(Theme::Mode(a->data().toInt())));
        applyTheme(Theme::Mode(a->data().toInt()));
    });
    connect(m_actions->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(m_actions->userGuide, &QAction::triggered, this,
            [this] { QDesktopServices::openUrl(m_actions->userGuide->data().toUrl()); });
}

QSortFilterProxyModel *MainWindow::streamProxy() const
{
    return m_proxy;
}

QStandardItemModel *MainWindow::activeAlerts() const
{
    return m_alerts->activeAlerts();
}

QList<StreamId> MainWindow::selectedStreams() const
{
    return m_selection->selectedStreams();
}

QList<StreamId> MainWindow::selectedRows() const
{
    return m_selection->selectedRows();
}

void MainWindow::selectStream(StreamId id)
{
    m_selection->selectStream(id);
}

void MainWindow::refreshNow(bool slow)
{
    m_hub->poll(slow ? SnapshotHub::TickKind::Slow : SnapshotHub::TickKind::Fast);
}

RemoteAgent *MainWindow::connectAgent(const QString &name, const QUrl &url, const QByteArray &basicAuth,
                                      const QList<QSslCertificate> &caCertificates)
{
    RemoteAgent::Settings s;
    s.name = name;
    s.url = url;
    s.basicAuth = basicAuth;
    s.caCertificates = caCertificates;
    return connectAgent(s);
}

RemoteAgent *MainWindow::connectAgent(RemoteAgent::Settings s)
{
    // A password typed in goes to the keychain; the agent (and the workspace) refer to it.
    if (s.passwordRef.isEmpty() && !s.basicAuth.isEmpty()) {
        const qsizetype colon = s.basicAuth.indexOf(':');
        s.user = QString::fromUtf8(s.basicAuth.left(colon));
        const QString entry = QStringLiteral("agent.%1").arg(s.name);
        m_workspace->storeSecrets({{entry, QString::fromUtf8(s.basicAuth.mid(colon + 1))}});
        s.passwordRef = QStringLiteral("keychain:") + entry;
        s.basicAuth.clear();
    }
    RemoteAgent *agent = m_hub->addAgent(s);
    m_actions->disconnectAgents->setEnabled(true);
    m_workspace->setModified(true);
    return agent;
}

void MainWindow::connectAgents(const QVector<AgentConfig> &agents)
{
    if (!m_hub->agents().isEmpty())
        disconnectAgents();
    for (const AgentConfig &a : agents) {
        RemoteAgent::Settings s;
        s.name = a.name;
        s.url = a.url;
        s.user = a.user;
        s.passwordRef = a.password;
        s.caFile = a.caFile;
        if (!a.caFile.isEmpty()) {
            // Read when the workspace loaded; a file gone since then leaves the system's CAs.
            InputFile::Limits limits;
            limits.maxBytes = InputFile::kMaxPemBytes;
            limits.timeout = InputFile::kSmallFileTimeout;
            if (const std::optional<QByteArray> pem = InputFile::readAll(a.caFile, limits, nullptr))
                s.caCertificates = QSslCertificate::fromData(*pem, QSsl::Pem);
        }
        m_hub->addAgent(s);
    }
    m_actions->disconnectAgents->setEnabled(!m_hub->agents().isEmpty());
}

QVector<AgentConfig> MainWindow::agentConfigs() const
{
    QVector<AgentConfig> out;
    for (const RemoteAgent *agent : m_hub->agents()) {
        const RemoteAgent::Settings &s = agent->settings();
        out.append({s.name, s.url, s.passwordRef.isEmpty() ? QString() : s.user, s.passwordRef, s.caFile});
    }
    return out;
}

void MainWindow::disconnectAgents()
{
    m_hub->removeAgents();
    m_actions->disconnectAgents->setEnabled(false);
    m_workspace->setModified(true);
    refreshNow(false); // their rows go
}

QJsonObject MainWindow::report(double durationS) const
{
    // The headless report's fields, alerts and destinations included (HeadlessRunner::finish).
    QJsonObject r = app::buildReport(m_engine ? m_engine->snapshot(true) : QVector<StreamSnapshot>(), durationS);
    m_alertService->addToReport(r);
    return r;
}

// ---------------------------------------------------------------------------------------
// Look

void MainWindow::showAbout()
{
    const QString text = tr("<h3>StreamScope %1</h3>"
                            "<p>Live monitor for real-time market-data streams.</p>"
                            "<table>"
                            "<tr><td>StreamScope</td><td>&nbsp;%1</td></tr>"
                            "<tr><td>Qt</td><td>&nbsp;%2</td></tr>"
                            "<tr><td>simdjson</td><td>&nbsp;%3</td></tr>"
                            "</table>")
                             .arg(streamscopeVersion(), qtRuntimeVersion(), simdjsonVersion());
    QMessageBox box(this);
    box.setWindowTitle(tr("About StreamScope"));
    box.setObjectName(QStringLiteral("aboutBox"));
    box.setTextFormat(Qt::RichText);
    box.setText(text);
    box.setIconPixmap(windowIcon().pixmap(64, 64));
    box.exec();
}

void MainWindow::applyTheme(Theme::Mode mode)
{
    m_dark = Theme::apply(mode);
    followPalette();
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    // The desktop switched between light and dark under the "system" theme (or anything else
    // set the palette): the row colours, charts and icons follow.
    if (event->type() == QEvent::PaletteChange && m_model && isDarkPalette() != m_dark) {
        m_dark = isDarkPalette();
        followPalette();
    }
}

void MainWindow::followPalette()
{
    m_model->setDarkTheme(m_dark);
    m_rateChart->setDark(m_dark);
    m_latencyChart->setDark(m_dark);
    if (m_status)
        m_status->setDark(m_dark);
    m_actions->updateIcons();
    if (m_actionDelegate) {
        m_actionDelegate->resetIcons();
        m_table->viewport()->update();
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    fitToScreen(); // now with the title bar and borders the window system adds
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_workspace->maybeSave())
        event->accept();
    else
        event->ignore();
}

} // namespace streamscope::ui
