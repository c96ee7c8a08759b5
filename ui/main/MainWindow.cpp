#include "MainWindow.h"

#include "AlertMonitor.h"
#include "CaptureList.h"
#include "ConnectAgentDialog.h"
#include "CpuMeter.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "Format.h"
#include "LatencyChart.h"
#include "MainActions.h"
#include "MessageInspector.h"
#include "Notifier.h"
#include "NotifyDialog.h"
#include "RateChart.h"
#include "RemoteAgent.h"
#include "ReportCsv.h"
#include "ResponseModel.h"
#include "StreamActionDelegate.h"
#include "StreamDetails.h"
#include "StreamHistory.h"
#include "StreamSortProxy.h"
#include "StreamTableModel.h"
#include "Theme.h"
#include "Versions.h"
#include "WidgetHelpers.h"

#include <QtCore/QDateTime>
#include <QtCore/QRegularExpression>
#include <QtCore/QSettings>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtGui/QClipboard>
#include <QtGui/QDesktopServices>
#include <QtGui/QGuiApplication>
#include <QtGui/QScreen>
#include <QtGui/QStandardItemModel>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QStyle>
#include <QtWidgets/QSystemTrayIcon>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

namespace {
const QString kThemeKey = QStringLiteral("ui/theme");
} // namespace

void MainWindow::updateEventFilter()
{
    const bool selectedOnly = m_eventStream->currentIndex() == 1;
    const StreamId current = m_inspector->stream();
    // With nothing selected, "Selected stream" shows nothing rather than everything.
    m_eventFilter->setStream(!selectedOnly                     ? QString()
                                 : current != kInvalidStreamId ? streamName(current)
                                                               : QStringLiteral("\x01"));
    m_eventFilter->setMinimumSeverity(m_eventSeverity->currentData().toInt());
}

QSortFilterProxyModel *MainWindow::streamProxy() const
{
    return m_proxy;
}

MainWindow::MainWindow(Engine *engine, QWidget *parent)
    : QMainWindow(parent)
    , m_engine(engine)
    , m_history(std::make_unique<StreamHistory>())
    , m_cpu(std::make_unique<CpuMeter>())
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon::fromTheme(QStringLiteral("streamscope"), windowIcon()));
    m_steady.start();

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
    m_alerts = new AlertMonitor(this);
    m_notifier = new Notifier(this);
    m_workspace = new WorkspaceController(engine, this, [this] { return currentWorkspace(); });
    m_actions = new MainActions(this);

    buildCentral();
    buildDocks();
    m_actions->addToolBar();
    m_actions->fillMenuBar(
        {m_chartsDock, m_inspectorDock, m_detailsDock, m_resultsDock, m_errorsDock, m_eventsDock, m_alertsDock});
    connectActions();
    setupCaptures();
    buildStatusBar();
    setupFlightRecorder();
    setDefaultLayout();

    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(this);
        QIcon icon = windowIcon();
        if (icon.isNull())
            icon = style()->standardIcon(QStyle::SP_ComputerIcon);
        m_tray->setIcon(icon);
        m_tray->setToolTip(QStringLiteral("StreamScope"));
        m_tray->show();
    }

    connect(m_alerts, &AlertMonitor::alertRaised, this, &MainWindow::onAlertRaised);
    connect(m_alerts, &AlertMonitor::alertCleared, this, &MainWindow::onAlertCleared);
    connect(m_alerts, &AlertMonitor::rulesChanged, this, [this] { m_workspace->setModified(true); });
    connect(m_actions->alertDestinations, &QAction::triggered, this, &MainWindow::editNotifyTargets);
    connect(m_notifier, &Notifier::deliveryFailed, this, [this](int, const QString &text) {
        m_eventLog->add(
            {QDateTime::currentMSecsSinceEpoch(), QString(), tr("notify"), text, EventLogModel::Severity::Error});
    });
    connect(m_workspace, &WorkspaceController::openRequested, this, &MainWindow::onOpenRequested);
    connect(m_workspace, &WorkspaceController::keychainFailed, m_eventLog, &EventLogModel::addKeychainFailure);

    connect(m_hub, &SnapshotHub::stateChanged, m_model, &StreamTableModel::applyState);
    connect(m_hub, &SnapshotHub::snapshotsChanged, this, &MainWindow::onSnapshotsChanged);
    connect(m_hub, &SnapshotHub::ticked, this, &MainWindow::onTicked);
    connect(m_hub, &SnapshotHub::agentStatusChanged, this,
            [this](const QString &agentName, const QString &status, bool ok) {
                EventLogModel::Entry e;
                e.timeMs = QDateTime::currentMSecsSinceEpoch();
                e.stream = agentName;
                e.kind = tr("agent");
                e.text = ok ? tr("connected to the agent") : tr("agent not answering: %1").arg(status);
                e.severity = ok ? EventLogModel::Severity::Info : EventLogModel::Severity::Warning;
                m_eventLog->add(e);
            });
    if (m_engine) {
        connect(m_engine, &Engine::eventOccurred, this, &MainWindow::onEngineEvent);
        connect(m_engine, &Engine::streamAdded, this,
                [this](StreamId id) { m_startedAtMs.insert(id, QDateTime::currentMSecsSinceEpoch()); });
        connect(m_engine, &Engine::streamRemoved, this, [this](StreamId id) {
            m_alerts->forget(id);
            m_startedAtMs.remove(id);
            syncNotifier();
        });
    }

    QSettings settings;
    const auto mode = Theme::modeFromName(settings.value(kThemeKey, QStringLiteral("system")).toString());
    m_actions->checkTheme(int(mode));
    applyTheme(int(mode));

    m_hub->start();

    m_actions->updateForSelection(0, 0);
    refreshNow(true);
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------------------------------
// Construction

void MainWindow::connectActions()
{
    connect(m_actions->add, &QAction::triggered, this, &MainWindow::addStream);
    connect(m_actions->edit, &QAction::triggered, this, &MainWindow::editStream);
    connect(m_actions->stop, &QAction::triggered, this, &MainWindow::stopSelected);
    connect(m_actions->restart, &QAction::triggered, this, &MainWindow::restartSelected);
    connect(m_actions->remove, &QAction::triggered, this, &MainWindow::removeSelected);
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
    connect(m_actions->newWorkspace, &QAction::triggered, this, &MainWindow::newWorkspace);
    connect(m_actions->open, &QAction::triggered, m_workspace, &WorkspaceController::chooseAndOpen);
    connect(m_actions->save, &QAction::triggered, m_workspace, &WorkspaceController::save);
    connect(m_actions->saveAs, &QAction::triggered, m_workspace, &WorkspaceController::saveAs);
    connect(m_actions->connectAgent, &QAction::triggered, this, [this] {
        QStringList taken;
        for (const RemoteAgent *a : m_hub->agents())
            taken << a->settings().name;
        ConnectAgentDialog dialog(taken, this);
        if (dialog.exec() == QDialog::Accepted) {
            const RemoteAgent::Settings s = dialog.settings();
            connectAgent(s.name, s.url, s.basicAuth, s.caCertificates);
        }
    });
    connect(m_actions->disconnectAgents, &QAction::triggered, this, &MainWindow::disconnectAgents);
    connect(m_actions->record, &QAction::triggered, this, &MainWindow::toggleRecordingSelected);
    connect(m_actions->recordFolder, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Recording folder"), recordingFolder());
        if (!dir.isEmpty())
            setRecordingFolder(dir);
    });
    connect(m_actions->correctedLatency, &QAction::toggled, this, [this](bool on) {
        m_model->setLatencyCorrected(on);
        m_workspace->setModified(true);
        refreshNow(true);
    });
    m_actions->disconnectAgents->setEnabled(false);
    connect(m_actions->quit, &QAction::triggered, this, &QMainWindow::close);
    connect(m_actions->recentMenu(), &QMenu::aboutToShow, this,
            [this] { m_workspace->fillRecentMenu(m_actions->recentMenu()); });
    connect(m_actions->resetLayout, &QAction::triggered, this, [this] {
        restoreState(m_defaultState);
        m_workspace->setModified(true);
    });
    connect(m_actions->themes, &QActionGroup::triggered, this, [this](QAction *a) {
        QSettings().setValue(kThemeKey, Theme::modeName(Theme::Mode(a->data().toInt())));
        applyTheme(a->data().toInt());
    });
    connect(m_actions->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(m_actions->userGuide, &QAction::triggered, this,
            [this] { QDesktopServices::openUrl(m_actions->userGuide->data().toUrl()); });
    connect(m_actions->copyRows, &QAction::triggered, this,
            [this] { QGuiApplication::clipboard()->setText(selectedRowsText()); });
    connect(m_actions->copyRowsCsv, &QAction::triggered, this,
            [this] { QGuiApplication::clipboard()->setText(selectedRowsText(RowFormat::Csv)); });
    connectExports();
}

void MainWindow::buildCentral()
{
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("streamFilter"));
    m_filter->setPlaceholderText(tr("Filter streams by name…  (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    addClearOnEscape(m_filter);
    m_filter->setToolTip(tr("Show only the streams whose name contains this text"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("streamTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // insertion order until the user sorts
    m_proxy->holdWhileHovered(m_table->viewport());
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setMouseTracking(true);
    m_table->setAlternatingRowColors(true);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(std::max(26, m_table->fontMetrics().height() + 10));
    QHeaderView *header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionsMovable(true);
    header->setStretchLastSection(false);
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    // p50 has room for a periodic stream's "every 1000 ms ±3".
    const int widths[StreamTableModel::ColumnCount] = {24, 11, 8, 8, 10, 14, 8, 8, 7, 6, 8, 7, 6, 0, 16};
    for (int c = 0; c < StreamTableModel::ColumnCount; ++c)
        if (c != StreamTableModel::ColActions)
            m_table->setColumnWidth(c, widths[c] * digit);
    m_actionDelegate = new StreamActionDelegate(this);
    m_table->setItemDelegateForColumn(StreamTableModel::ColActions, m_actionDelegate);
    m_table->setColumnWidth(StreamTableModel::ColActions, StreamActionDelegate::columnWidth());
    header->setSectionResizeMode(StreamTableModel::ColActions, QHeaderView::Fixed);
    // The row's buttons right after its name: reachable without scrolling on any width.
    header->moveSection(header->visualIndex(StreamTableModel::ColActions), 1);
    // The table is wide already: the backpressure column is one to choose (header menu).
    header->setSectionHidden(StreamTableModel::ColBacklog, true);
    m_table->addAction(m_actions->remove);
    m_table->addAction(m_actions->copyRows);
    m_table->addAction(m_actions->copyRowsCsv);
    // Right-click on the header: choose the columns shown (saved with the layout).
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, [this, header](const QPoint &pos) {
        QMenu menu;
        fillColumnMenu(&menu);
        menu.exec(header->viewport()->mapToGlobal(pos));
    });

    connect(m_actionDelegate, &StreamActionDelegate::actionTriggered, this,
            [this](const QModelIndex &index, StreamActionDelegate::Action a) { onRowAction(index, int(a)); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::onSelectionChanged);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::onSelectionChanged);
    connect(m_table, &QTableView::customContextMenuRequested, this, &MainWindow::showContextMenu);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        if (index.column() != StreamTableModel::ColActions)
            editStream();
    });

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    setCentralWidget(central);
}

void MainWindow::buildDocks()
{
    setDockNestingEnabled(true);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    m_rateChart = new RateChart;
    m_latencyChart = new LatencyChart;
    m_chartSplitter = new QSplitter(Qt::Vertical);
    m_chartSplitter->setObjectName(QStringLiteral("chartSplitter"));
    m_chartSplitter->addWidget(m_rateChart);
    m_chartSplitter->addWidget(m_latencyChart);
    m_chartSplitter->setChildrenCollapsible(false);
    m_chartsDock = new QDockWidget(tr("Charts"), this);
    m_chartsDock->setObjectName(QStringLiteral("chartsDock"));
    m_chartsDock->setWidget(m_chartSplitter);
    addDockWidget(Qt::RightDockWidgetArea, m_chartsDock);

    m_inspector = new MessageInspector(m_engine, this);
    m_inspectorDock = new QDockWidget(tr("Inspector"), this);
    m_inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    m_inspectorDock->setWidget(m_inspector);
    addDockWidget(Qt::BottomDockWidgetArea, m_inspectorDock);

    m_resultsDock = new QDockWidget(tr("Results"), this);
    m_resultsDock->setObjectName(QStringLiteral("resultsDock"));
    m_resultsDock->setWidget(makeLogView(m_results));
    m_resultsDock->setToolTip(tr("Subscription results of the selected stream, with their request ids"));
    addDockWidget(Qt::BottomDockWidgetArea, m_resultsDock);
    m_errorsDock = new QDockWidget(tr("Errors"), this);
    m_errorsDock->setObjectName(QStringLiteral("errorsDock"));
    m_errorsDock->setWidget(makeLogView(m_errors));
    m_errorsDock->setToolTip(tr("Errors returned by the endpoint of the selected stream"));
    addDockWidget(Qt::BottomDockWidgetArea, m_errorsDock);

    m_eventFilter = new EventLogFilter(this);
    m_eventFilter->setSourceModel(m_eventLog);
    m_eventView = makeLogView(m_eventFilter);
    m_eventView->setObjectName(QStringLiteral("eventLogView"));
    const int digit = m_eventView->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_eventView->setColumnWidth(EventLogModel::ColTime, digit * 14);
    m_eventView->setColumnWidth(EventLogModel::ColStream, digit * 20);
    m_eventView->setColumnWidth(EventLogModel::ColKind, digit * 14);
    // Which entries: every stream's or the selected one's, and from which severity up.
    m_eventStream = new QComboBox;
    m_eventStream->setObjectName(QStringLiteral("eventStream"));
    m_eventStream->addItems({tr("All streams"), tr("Selected stream")});
    m_eventSeverity = new QComboBox;
    m_eventSeverity->setObjectName(QStringLiteral("eventSeverity"));
    m_eventSeverity->addItem(tr("All events"), int(EventLogModel::Severity::Info));
    m_eventSeverity->addItem(tr("Warnings and errors"), int(EventLogModel::Severity::Warning));
    m_eventSeverity->addItem(tr("Errors"), int(EventLogModel::Severity::Error));
    connect(m_eventStream, &QComboBox::currentIndexChanged, this, &MainWindow::updateEventFilter);
    connect(m_eventSeverity, &QComboBox::currentIndexChanged, this, &MainWindow::updateEventFilter);
    auto *eventBox = new QWidget;
    auto *eventLayout = new QVBoxLayout(eventBox);
    eventLayout->setContentsMargins(0, 0, 0, 0);
    auto *eventBar = new QHBoxLayout;
    eventBar->setContentsMargins(6, 4, 6, 0);
    eventBar->addWidget(m_eventStream);
    eventBar->addWidget(m_eventSeverity);
    eventBar->addStretch();
    eventLayout->addLayout(eventBar);
    eventLayout->addWidget(m_eventView, 1);
    m_eventsDock = new QDockWidget(tr("Event log"), this);
    m_eventsDock->setObjectName(QStringLiteral("eventsDock"));
    m_eventsDock->setWidget(eventBox);
    addDockWidget(Qt::BottomDockWidgetArea, m_eventsDock);

    // The alerts active now, one row each, until they clear: what a tray would have shown.
    m_activeAlerts = new QStandardItemModel(0, 3, this);
    m_activeAlerts->setHorizontalHeaderLabels({tr("Since"), tr("Stream"), tr("Alert")});
    auto *alertView = makeLogView(m_activeAlerts);
    alertView->setObjectName(QStringLiteral("activeAlertsView"));
    alertView->setColumnWidth(0, digit * 10);
    alertView->setColumnWidth(1, digit * 20);
    m_alertsDock = new QDockWidget(tr("Alerts"), this);
    m_alertsDock->setObjectName(QStringLiteral("alertsDock"));
    m_alertsDock->setWidget(alertView);
    addDockWidget(Qt::BottomDockWidgetArea, m_alertsDock);

    // The selected stream as a whole: every counter, its last minutes, alerts and events.
    m_details = new StreamDetails(m_eventLog, m_activeAlerts);
    m_detailsDock = new QDockWidget(tr("Details"), this);
    m_detailsDock->setObjectName(QStringLiteral("detailsDock"));
    m_detailsDock->setWidget(m_details);
    addDockWidget(Qt::BottomDockWidgetArea, m_detailsDock);
    // Shown again: up to date at once, not a second later.
    connect(m_detailsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            refreshDetails();
    });

    tabifyDockWidget(m_inspectorDock, m_detailsDock);
    tabifyDockWidget(m_detailsDock, m_eventsDock);
    tabifyDockWidget(m_eventsDock, m_alertsDock);
    tabifyDockWidget(m_eventsDock, m_resultsDock);
    tabifyDockWidget(m_resultsDock, m_errorsDock);
    m_inspectorDock->raise();

    // Tail the event log while the user is at its bottom.
    connect(m_eventFilter, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *bar = m_eventView->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 30)
            QTimer::singleShot(0, m_eventView, &QTableView::scrollToBottom);
    });
    connect(m_rateChart, &RateChart::settingsChanged, this, [this] { m_rateChart->refresh(*m_history); });
}

void MainWindow::buildStatusBar()
{
    const auto make = [this](const char *name, const QString &tip) {
        auto *l = new QLabel;
        l->setObjectName(QLatin1String(name));
        l->setTextFormat(Qt::PlainText);
        l->setToolTip(tip);
        l->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(l);
        return l;
    };
    m_statusStreams = make("statusStreams", tr("Streams by state"));
    m_statusAlerts = make("statusAlerts", tr("Active alerts"));
    m_statusRate = make("statusRate", tr("Messages and bytes per second over all streams"));
    m_statusClock = make("statusClock", QString());
    m_statusRecord = make("statusRecord", QString());
    m_statusRecord->hide();
    m_statusCpu = make("statusCpu", tr("CPU used by StreamScope (engine and window), percent of one core"));
}

void MainWindow::setDefaultLayout()
{
    // The first window takes most of the screen it opens on, up to what the layout can use.
    const QRect available = availableScreenArea();
    resize(std::min(kLargestFirstSize.width(), available.width() * 9 / 10),
           std::min(kLargestFirstSize.height(), available.height() * 9 / 10));
    fitToScreen();
    // The charts take about a third of the width and the inspector two fifths of the height,
    // so that the table keeps room on a laptop.
    resizeDocks({m_chartsDock}, {std::clamp(width() * 35 / 100, 380, 600)}, Qt::Horizontal);
    resizeDocks({m_inspectorDock}, {std::clamp(height() * 4 / 10, 220, 340)}, Qt::Vertical);
    m_defaultState = saveState();
}

void MainWindow::fillColumnMenu(QMenu *menu)
{
    QHeaderView *header = m_table->horizontalHeader();
    for (int column = 0; column < StreamTableModel::ColumnCount; ++column) {
        if (column == StreamTableModel::ColName)
            continue; // a row without its name means nothing
        const QString title = column == StreamTableModel::ColActions
            ? tr("Buttons")
            : m_model->headerData(column, Qt::Horizontal).toString();
        QAction *a = menu->addAction(title);
        a->setObjectName(QStringLiteral("column%1").arg(column));
        a->setCheckable(true);
        a->setChecked(!header->isSectionHidden(column));
        connect(a, &QAction::toggled, header, [header, column](bool on) { header->setSectionHidden(column, !on); });
    }
}

QString MainWindow::selectedRowsText(RowFormat format) const
{
    const bool csv = format == RowFormat::Csv;
    static const QRegularExpression breaks(QStringLiteral("[\\t\\r\\n]"));
    const auto cell = [csv](QString text) {
        if (!csv)
            return text.replace(breaks, QStringLiteral(" "));
        // A leading = + - @ would be run as a formula by a spreadsheet (a name is the user's,
        // a reason the peer's): kept as text (app::csvCell, shared with the CSV exports).
        return app::csvCell(text);
    };
    const QChar separator = csv ? QLatin1Char(',') : QLatin1Char('\t');
    const QString newline = csv ? QStringLiteral("\r\n") : QStringLiteral("\n");
    QHeaderView *header = m_table->horizontalHeader();
    QList<int> columns;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        if (column != StreamTableModel::ColActions && !header->isSectionHidden(column))
            columns << column;
    }
    QStringList lines;
    QStringList cells;
    for (int column : std::as_const(columns))
        cells << cell(m_model->headerData(column, Qt::Horizontal).toString());
    lines << cells.join(separator);
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &row : std::as_const(rows)) {
        cells.clear();
        for (int column : std::as_const(columns))
            cells << cell(m_proxy->index(row.row(), column).data().toString());
        lines << cells.join(separator);
    }
    return lines.join(newline) + newline;
}

QRect MainWindow::availableScreenArea() const
{
    const QScreen *s = screen() ? screen() : QGuiApplication::primaryScreen();
    return s ? s->availableGeometry() : QRect(0, 0, kLargestFirstSize.width(), kLargestFirstSize.height());
}

void MainWindow::fitToScreen()
{
    // A geometry restored from a larger screen (or another monitor) is clamped to this one:
    // no part of the window, its charts or its status bar, is left off-screen.
    const QRect available = availableScreenArea();
    const QSize frame = frameGeometry().size() - geometry().size(); // title bar and borders
    const QSize size = this->size().boundedTo(available.size() - frame).expandedTo(minimumSize());
    if (size != this->size())
        resize(size);
    const QRect outer(frameGeometry().topLeft(), size + frame);
    const int x =
        std::clamp(outer.x(), available.left(), std::max(available.left(), available.right() + 1 - outer.width()));
    const int y =
        std::clamp(outer.y(), available.top(), std::max(available.top(), available.bottom() + 1 - outer.height()));
    if (QPoint(x, y) != outer.topLeft())
        move(x, y);
}

// ---------------------------------------------------------------------------------------
// Ticks

void MainWindow::refreshNow(bool slow)
{
    m_hub->poll(slow ? SnapshotHub::TickKind::Slow : SnapshotHub::TickKind::Fast);
}

void MainWindow::onSnapshotsChanged(const QVector<StreamSnapshot> &changed, const QList<StreamId> &removed,
                                    const SnapshotHub::Tick &tick)
{
    m_model->apply(changed, removed, tick.nowMs);
    if (tick.kind == SnapshotHub::TickKind::Slow)
        m_model->updateLatency(m_hub->snapshots(), tick.steadyMs);
}

void MainWindow::onTicked(const SnapshotHub::Tick &tick)
{
    if (tick.kind == SnapshotHub::TickKind::Slow) {
        const QVector<StreamSnapshot> &snaps = m_hub->snapshots();
        m_history->sample(snaps);
        for (const StreamTableModel::Row &row : m_model->rows())
            m_history->sampleLatency(row.snap.id, isRunning(row.snap.state) ? row.p99Ms : qQNaN());
        m_rateChart->refresh(*m_history);
        if (const StreamSnapshot *s = m_hub->find(m_latencyChart->stream())) {
            const StreamTableModel::Row *row = m_model->row(s->id);
            const bool corrected = row && row->latencyCorrected;
            m_latencyChart->setSource(corrected, clockText(s->clock), s->clock.note);
            m_latencyChart->push(row ? StreamTableModel::shownLatency(*row, *s) : s->latency, isRunning(s->state),
                                 row ? row->latWindow.oldAnchor() : LatencySnapshot());
        }
        evaluateAlerts(tick.nowMs);
        refreshDetails(snaps);
        const StreamId current = m_inspector->stream();
        if (current != kInvalidStreamId && m_engine->contains(current)) {
            if (m_resultsDock->isVisible())
                m_results->setRecords(m_engine->results(current));
            if (m_errorsDock->isVisible())
                m_errors->setRecords(m_engine->errors(current));
        }
    }
    updateStatusBar(tick);
    m_eventLog->flush();
    updateActionsForSelection(selectedStreams()); // states change without the selection changing
    updateFlightStatus();
}

RemoteAgent *MainWindow::connectAgent(const QString &name, const QUrl &url, const QByteArray &basicAuth,
                                      const QList<QSslCertificate> &caCertificates)
{
    RemoteAgent *agent = m_hub->addAgent({name, url, basicAuth, caCertificates});
    m_actions->disconnectAgents->setEnabled(true);
    return agent;
}

void MainWindow::disconnectAgents()
{
    m_hub->removeAgents(); // their rows go at the next refresh
    m_actions->disconnectAgents->setEnabled(false);
    refreshNow(false);
}

void MainWindow::refreshDetails(const QVector<StreamSnapshot> &snaps)
{
    const StreamId id = m_details->stream();
    if (!m_engine || id == kInvalidStreamId || !m_detailsDock->isVisible())
        return;
    const StreamTableModel::Row *row = m_model->row(id);
    if (!row)
        return;
    const double durationS = double(QDateTime::currentMSecsSinceEpoch() - row->firstSeenMs) / 1000.0;
    for (const StreamSnapshot &s : snaps) {
        if (s.id == id) {
            m_details->refresh(s, durationS, *m_history);
            return;
        }
    }
    m_details->refresh(m_engine->snapshot(id, true), durationS, *m_history);
}

void MainWindow::evaluateAlerts(qint64 nowMs)
{
    for (const StreamTableModel::Row &row : m_model->rows()) {
        if (row.offline)
            continue; // an open capture: nothing happens to it now
        const StreamSnapshot &s = row.snap;
        const qint64 started = m_startedAtMs.value(s.id, row.firstSeenMs);
        m_alerts->evaluate(s.id, s.name, alerts::alertSample(s, row.msgsPerSec, row.p99Ms, started, nowMs), nowMs);
    }
}

void MainWindow::updateStatusBar(const SnapshotHub::Tick &tick)
{
    int counts[256] = {};
    int captures = 0; // open captures: rows, not streams
    for (const StreamTableModel::Row &row : m_model->rows()) {
        if (row.offline)
            ++captures;
        else
            ++counts[quint8(row.snap.state)];
    }
    QStringList parts;
    parts.append(countNoun(quint64(m_model->rows().size() - captures), tr("stream"), tr("streams")));
    for (StreamState s : {StreamState::Live, StreamState::Connecting, StreamState::Subscribing, StreamState::Stalled,
                          StreamState::Degraded, StreamState::Reconnecting, StreamState::Failed, StreamState::Stopped,
                          StreamState::Idle}) {
        if (counts[int(s)])
            parts.append(QStringLiteral("%1 %2").arg(counts[int(s)]).arg(stateName(s)));
    }
    if (captures)
        parts.append(countNoun(quint64(captures), tr("capture"), tr("captures")));
    m_statusStreams->setText(parts.join(QStringLiteral(" · ")));
    m_statusRate->setText(
        tr("%1 msgs/s · %2 KB/s")
            .arg(formatRate(m_model->totalMsgsPerSec()), formatBytesRate(m_model->totalBytesPerSec())));
    const int alerts = m_alerts->activeCount();
    m_statusAlerts->setText(alerts ? QStringLiteral("⚠ ") + countNoun(quint64(alerts), tr("alert"), tr("alerts"))
                                   : QString());
    m_statusAlerts->setStyleSheet(
        alerts ? QStringLiteral("color: %1; font-weight: bold;").arg(stateColor(StreamState::Failed, m_dark).name())
               : QString());
    m_statusAlerts->setVisible(alerts > 0);
    int recording = 0;
    quint64 recordedBytes = 0;
    QStringList recordTip;
    for (const StreamTableModel::Row &row : m_model->rows()) {
        if (!row.snap.record.on)
            continue;
        ++recording;
        recordedBytes += row.snap.record.bytesWritten;
        recordTip << QStringLiteral("%1: %2").arg(row.snap.name, row.snap.record.file);
    }
    m_statusRecord->setVisible(recording > 0);
    if (recording > 0) {
        m_statusRecord->setText(tr("● recording %1 · %2 MB")
                                    .arg(countNoun(quint64(recording), tr("stream"), tr("streams")))
                                    .arg(double(recordedBytes) / (1024.0 * 1024.0), 0, 'f', 1));
        m_statusRecord->setStyleSheet(QStringLiteral("color: %1;").arg(stateColor(StreamState::Failed, m_dark).name()));
        m_statusRecord->setToolTip(recordTip.join(QLatin1Char('\n')));
    }
    if (tick.kind != SnapshotHub::TickKind::Slow)
        return;
    // Once a second: the kernel's view of this machine's clock, and the CPU since the last second.
    updateClockStatus(HostClockState::read());
    const double cpuPercent = m_cpu->sample();
    if (cpuPercent >= 0.0)
        m_statusCpu->setText(tr("CPU %1 %").arg(QString::number(cpuPercent, 'f', cpuPercent < 10 ? 1 : 0)));
    else
        m_statusCpu->setText(tr("CPU –"));
}

// ---------------------------------------------------------------------------------------
// Events and alerts

void MainWindow::onEngineEvent(const StreamEvent &event)
{
    m_eventLog->addEvent(event, streamName(event.stream));
}

void MainWindow::onAlertRaised(StreamId id, const QString &stream, const QString &text, int condition)
{
    m_model->setAlert(id, m_alerts->activeText(id));
    const QString flightFile = saveFlightForAlert(id);
    m_eventLog->addAlertRaised(stream, text, flightFile);
    auto *since = new QStandardItem(formatTimeMs(QDateTime::currentMSecsSinceEpoch()).left(8));
    since->setData(id, Qt::UserRole);
    since->setData(condition, Qt::UserRole + 1);
    m_activeAlerts->appendRow({since, new QStandardItem(stream), new QStandardItem(text)});
    updateAlertsTitle();
    // Seen without a tray: the taskbar entry flashes (while the window is not active), and a
    // beep if the user asked for one.
    QApplication::alert(this);
    if (m_actions->alertSound->isChecked())
        QApplication::beep();
    const QString title = tr("StreamScope: %1").arg(stream);
    if (m_tray && m_tray->isVisible())
        m_tray->showMessage(title, text, QSystemTrayIcon::Warning, 8000);
    statusBar()->showMessage(tr("Alert on %1: %2").arg(stream, text), 8000);
    emit alertNotified(title, text);
    notifyEpisode(int(alerts::AlertEvent::Kind::Raised), id, stream, text, condition, flightFile);
}

void MainWindow::notifyEpisode(int kind, StreamId id, const QString &stream, const QString &text, int condition,
                               const QString &flightFile)
{
    alerts::AlertEvent e;
    e.kind = alerts::AlertEvent::Kind(kind);
    e.stream = stream;
    e.condition = AlertMonitor::conditionName(condition);
    e.text = text;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.sinceMs = m_alerts->conditionSinceMs(id, condition);
    e.flightFile = flightFile;
    m_notifier->notify(e);
}

void MainWindow::syncNotifier()
{
    QList<QPair<QString, NotifyTarget>> perStream;
    if (m_engine) {
        for (StreamId id : m_engine->streamIds()) {
            const StreamConfig c = m_engine->config(id);
            for (const NotifyTarget &t : c.notify)
                perStream.append({c.name, t});
        }
    }
    m_notifier->setDestinations(m_notifyTargets, perStream);
}

void MainWindow::setNotifyTargets(const QList<NotifyTarget> &targets)
{
    if (targets == m_notifyTargets)
        return;
    m_notifyTargets = targets;
    m_workspace->loadNotifySecrets(targets);
    m_workspace->setModified(true);
    syncNotifier();
}

void MainWindow::editNotifyTargets()
{
    NotifyDialog dialog(m_notifier, this);
    dialog.setTargets(m_notifyTargets);
    if (dialog.exec() == QDialog::Accepted)
        setNotifyTargets(dialog.targets());
}

void MainWindow::onAlertCleared(StreamId id, const QString &stream, const QString &text, int condition)
{
    m_model->setAlert(id, m_alerts->activeText(id));
    m_eventLog->addAlertCleared(stream, text);
    removeActiveAlerts(id, condition);
    notifyEpisode(int(alerts::AlertEvent::Kind::Cleared), id, stream, text, condition);
}

void MainWindow::removeActiveAlerts(StreamId id, int condition)
{
    for (int row = m_activeAlerts->rowCount() - 1; row >= 0; --row) {
        const QStandardItem *first = m_activeAlerts->item(row, 0);
        if (first->data(Qt::UserRole).toUInt() == id
            && (condition < 0 || first->data(Qt::UserRole + 1).toInt() == condition))
            m_activeAlerts->removeRow(row);
    }
    updateAlertsTitle();
}

void MainWindow::updateAlertsTitle()
{
    const int n = m_activeAlerts->rowCount();
    m_alertsDock->setWindowTitle(n ? tr("Alerts (%1)").arg(n) : tr("Alerts"));
}

void MainWindow::updateClockStatus(const HostClockState &clock)
{
    m_statusClock->setText(hostClockText(clock));
    const bool bad = clock.synchronised.has_value() && !*clock.synchronised;
    m_statusClock->setStyleSheet(bad ? QStringLiteral("color: %1;").arg(stateColor(StreamState::Stalled, m_dark).name())
                                     : QString());
    QString tip = tr("This machine's clock, as its kernel sees it: latency is measured against it (docs/clock.md)");
    if (clock.estimatedErrorMs.has_value())
        tip += tr("\nEstimated error %1 ms").arg(*clock.estimatedErrorMs, 0, 'g', 3);
    if (clock.maximumErrorMs.has_value())
        tip += tr("\nMaximum error %1 ms").arg(*clock.maximumErrorMs, 0, 'g', 3);
    m_statusClock->setToolTip(tip);
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

void MainWindow::applyTheme(int mode)
{
    m_dark = Theme::apply(Theme::Mode(mode));
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
    m_actions->updateIcons();
    if (m_actionDelegate) { // not yet made when the saved theme is applied at start
        m_actionDelegate->resetIcons();
        m_table->viewport()->update();
    }
}

} // namespace streamscope::ui
