#include "MainWindow.h"

#include "AlertMonitor.h"
#include "CpuMeter.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "Format.h"
#include "KeychainStore.h"
#include "LatencyChart.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "RateHistory.h"
#include "ResponseModel.h"
#include "StreamActionDelegate.h"
#include "StreamDialog.h"
#include "StreamTableModel.h"
#include "Theme.h"
#include "Versions.h"


#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QRegularExpression>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QSettings>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtGui/QClipboard>
#include <QtGui/QCloseEvent>
#include <QtGui/QGuiApplication>
#include <QtGui/QKeySequence>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QStyle>
#include <QtWidgets/QSystemTrayIcon>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QVBoxLayout>

#include <cmath>

namespace streamscope::ui {

namespace {
const QString kRecentKey = QStringLiteral("workspace/recent");
const QString kThemeKey = QStringLiteral("ui/theme");
const QString kLastDirKey = QStringLiteral("workspace/lastDir");

QTableView *makeLogView(QAbstractItemModel *model)
{
    auto *view = new QTableView;
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    view->setAlternatingRowColors(true);
    return view;
}

QStringList secretNames(const StreamConfig &c)
{
    QStringList refs = {c.appKey, c.session};
    for (const auto &h : c.headers)
        refs.append(h.second);
    QStringList names;
    for (const QString &r : refs) {
        if (KeychainStore::isKeychainRef(r))
            names.append(KeychainStore::nameOf(r));
    }
    return names;
}
} // namespace

MainWindow::MainWindow(Engine *engine, QWidget *parent)
    : QMainWindow(parent),
      m_engine(engine),
      m_rateHistory(std::make_unique<RateHistory>()),
      m_cpu(std::make_unique<CpuMeter>())
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon::fromTheme(QStringLiteral("streamscope"), windowIcon()));
    m_steady.start();

    m_model = new StreamTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(StreamTableModel::SortRole);
    m_proxy->setFilterKeyColumn(StreamTableModel::ColName);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_eventLog = new EventLogModel(this);
    m_results = new ResponseModel(this);
    m_errors = new ResponseModel(this);
    m_alerts = new AlertMonitor(this);
    m_keychain = new KeychainStore(this);

    buildActions();
    buildCentral();
    buildDocks();
    buildMenus();
    buildStatusBar();
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
    connect(m_alerts, &AlertMonitor::rulesChanged, this, [this] { setModified(true); });
    connect(m_keychain, &KeychainStore::loaded, this, [this](const QString &name) {
        // A stream that connected before its secret arrived retries with it now.
        if (!m_engine)
            return;
        const QList<StreamId> ids = m_engine->streamIds();
        for (StreamId id : ids) {
            if (secretNames(m_engine->config(id)).contains(name))
                m_engine->restartStream(id);
        }
    });
    connect(m_keychain, &KeychainStore::failed, this, [this](const QString &name, const QString &error) {
        EventLogModel::Entry e;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.kind = tr("keychain");
        e.text = tr("Could not read or write keychain entry \"%1\": %2").arg(name, error);
        e.severity = EventLogModel::Severity::Warning;
        m_eventLog->add(e);
    });

    if (m_engine) {
        connect(m_engine, &Engine::stateChanged, this, [this](StreamId id, StreamState state, const QString &reason) {
            m_model->applyState(id, state, reason);
        });
        connect(m_engine, &Engine::eventOccurred, this, &MainWindow::onEngineEvent);
        connect(m_engine, &Engine::streamAdded, this, [this](StreamId id) {
            m_startedAtMs.insert(id, QDateTime::currentMSecsSinceEpoch());
        });
        connect(m_engine, &Engine::streamRemoved, this, [this](StreamId id) {
            m_alerts->forget(id);
            m_startedAtMs.remove(id);
        });
    }

    QSettings settings;
    const auto mode = Theme::modeFromName(settings.value(kThemeKey, QStringLiteral("system")).toString());
    for (QAction *a : m_themeGroup->actions()) {
        if (a->data().toInt() == int(mode))
            a->setChecked(true);
    }
    applyTheme(int(mode));

    m_timer = new QTimer(this);
    m_timer->setInterval(kTickMs);
    m_timer->setTimerType(Qt::CoarseTimer);
    connect(m_timer, &QTimer::timeout, this, &MainWindow::onTick);
    m_timer->start();

    updateTitle();
    updateActions();
    refreshNow(true);
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------------------------------
// Construction

void MainWindow::buildActions()
{
    const auto make = [this](const QString &text, const QString &tip, const QKeySequence &key, QStyle::StandardPixmap icon,
                             const char *objectName) {
        auto *a = new QAction(style()->standardIcon(icon), text, this);
        a->setObjectName(QLatin1String(objectName));
        a->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        a->setStatusTip(tip);
        if (!key.isEmpty())
            a->setShortcut(key);
        return a;
    };
    m_addAction = make(tr("&Add stream…"), tr("Add a stream"), QKeySequence(Qt::CTRL | Qt::Key_N), QStyle::SP_FileDialogNewFolder, "addStream");
    m_editAction = make(tr("&Edit stream…"), tr("Edit the selected stream"), QKeySequence(Qt::Key_F2), QStyle::SP_FileDialogDetailedView, "editStream");
    m_stopAction = make(tr("&Stop"), tr("Stop the selected streams"), QKeySequence(Qt::CTRL | Qt::Key_Period), QStyle::SP_MediaStop, "stopStreams");
    m_restartAction = make(tr("&Restart"), tr("Restart the selected streams"), QKeySequence(Qt::CTRL | Qt::Key_R), QStyle::SP_BrowserReload, "restartStreams");
    m_removeAction = make(tr("Re&move"), tr("Remove the selected streams"), QKeySequence(QKeySequence::Delete), QStyle::SP_DialogDiscardButton, "removeStreams");
    // Delete belongs to text fields when they have focus: the table owns this shortcut.
    m_removeAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_stopAllAction = make(tr("Stop &all"), tr("Stop every stream"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Period), QStyle::SP_MediaPause, "stopAll");
    m_subscribeAction = make(tr("S&ubscribe…"), tr("Send SUBSCRIBE for more Binance streams on the selected stream"), QKeySequence(), QStyle::SP_ArrowRight, "subscribe");
    m_sendAction = make(tr("Send &message…"), tr("Send a text message on the selected stream"), QKeySequence(), QStyle::SP_ArrowForward, "sendMessage");
    m_newAction = make(tr("&New workspace"), tr("Start an empty workspace"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), QStyle::SP_FileIcon, "newWorkspace");
    m_openAction = make(tr("&Open workspace…"), tr("Open a workspace file"), QKeySequence::Open, QStyle::SP_DialogOpenButton, "openWorkspace");
    m_saveAction = make(tr("&Save workspace"), tr("Save the workspace"), QKeySequence::Save, QStyle::SP_DialogSaveButton, "saveWorkspace");
    m_saveAsAction = make(tr("Save workspace &as…"), tr("Save the workspace to another file"), QKeySequence::SaveAs, QStyle::SP_DialogSaveButton, "saveWorkspaceAs");
    m_quitAction = make(tr("&Quit"), tr("Quit StreamScope"), QKeySequence::Quit, QStyle::SP_DialogCloseButton, "quit");
    m_aboutAction = make(tr("&About StreamScope"), tr("Versions and licence"), QKeySequence(), QStyle::SP_MessageBoxInformation, "about");

    connect(m_addAction, &QAction::triggered, this, &MainWindow::addStream);
    connect(m_editAction, &QAction::triggered, this, &MainWindow::editStream);
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopSelected);
    connect(m_restartAction, &QAction::triggered, this, &MainWindow::restartSelected);
    connect(m_removeAction, &QAction::triggered, this, &MainWindow::removeSelected);
    connect(m_stopAllAction, &QAction::triggered, this, [this] {
        if (m_engine)
            stopStreams(m_engine->streamIds());
    });
    connect(m_subscribeAction, &QAction::triggered, this, &MainWindow::subscribeSelected);
    connect(m_sendAction, &QAction::triggered, this, &MainWindow::sendToSelected);
    connect(m_newAction, &QAction::triggered, this, &MainWindow::newWorkspace);
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openWorkspaceDialog);
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);
    connect(m_quitAction, &QAction::triggered, this, &QMainWindow::close);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);

    m_themeGroup = new QActionGroup(this);
    m_themeGroup->setExclusive(true);
    const QPair<QString, Theme::Mode> themes[] = {{tr("Follow &system"), Theme::Mode::System},
                                                  {tr("&Light"), Theme::Mode::Light},
                                                  {tr("&Dark"), Theme::Mode::Dark}};
    for (const auto &t : themes) {
        QAction *a = m_themeGroup->addAction(t.first);
        a->setCheckable(true);
        a->setData(int(t.second));
    }
    connect(m_themeGroup, &QActionGroup::triggered, this, [this](QAction *a) {
        QSettings().setValue(kThemeKey, Theme::modeName(Theme::Mode(a->data().toInt())));
        applyTheme(a->data().toInt());
    });
}

void MainWindow::buildCentral()
{
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("streamFilter"));
    m_filter->setPlaceholderText(tr("Filter streams by name…  (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Show only the streams whose name contains this text"));
    auto *focusFilter = new QAction(this);
    focusFilter->setShortcut(QKeySequence::Find);
    connect(focusFilter, &QAction::triggered, this, [this] {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    addAction(focusFilter);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("streamTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // insertion order until the user sorts
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
    const int widths[StreamTableModel::ColumnCount] = {24, 11, 8, 8, 10, 8, 8, 8, 7, 6, 8, 7, 6, 0};
    for (int c = 0; c < StreamTableModel::ColActions; ++c)
        m_table->setColumnWidth(c, widths[c] * digit);
    m_actionDelegate = new StreamActionDelegate(this);
    m_table->setItemDelegateForColumn(StreamTableModel::ColActions, m_actionDelegate);
    m_table->setColumnWidth(StreamTableModel::ColActions, 3 * 24 + 8);
    header->setSectionResizeMode(StreamTableModel::ColActions, QHeaderView::Fixed);
    m_table->addAction(m_removeAction);

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

    auto *toolbar = addToolBar(tr("Streams"));
    toolbar->setObjectName(QStringLiteral("streamsToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(18, 18));
    toolbar->addAction(m_addAction);
    toolbar->addAction(m_editAction);
    toolbar->addSeparator();
    toolbar->addAction(m_stopAction);
    toolbar->addAction(m_restartAction);
    toolbar->addAction(m_removeAction);
    toolbar->addSeparator();
    toolbar->addAction(m_stopAllAction);
    toolbar->addSeparator();
    toolbar->addAction(m_openAction);
    toolbar->addAction(m_saveAction);
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

    m_eventView = makeLogView(m_eventLog);
    m_eventView->setObjectName(QStringLiteral("eventLogView"));
    const int digit = m_eventView->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_eventView->setColumnWidth(EventLogModel::ColTime, digit * 14);
    m_eventView->setColumnWidth(EventLogModel::ColStream, digit * 20);
    m_eventView->setColumnWidth(EventLogModel::ColKind, digit * 14);
    m_eventsDock = new QDockWidget(tr("Event log"), this);
    m_eventsDock->setObjectName(QStringLiteral("eventsDock"));
    m_eventsDock->setWidget(m_eventView);
    addDockWidget(Qt::BottomDockWidgetArea, m_eventsDock);

    tabifyDockWidget(m_inspectorDock, m_eventsDock);
    tabifyDockWidget(m_eventsDock, m_resultsDock);
    tabifyDockWidget(m_resultsDock, m_errorsDock);
    m_inspectorDock->raise();

    // Tail the event log while the user is at its bottom.
    connect(m_eventLog, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *bar = m_eventView->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 30)
            QTimer::singleShot(0, m_eventView, &QTableView::scrollToBottom);
    });
    connect(m_rateChart, &RateChart::settingsChanged, this, [this] { m_rateChart->refresh(*m_rateHistory); });
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newAction);
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu *streams = menuBar()->addMenu(tr("&Streams"));
    streams->addAction(m_addAction);
    streams->addAction(m_editAction);
    streams->addSeparator();
    streams->addAction(m_stopAction);
    streams->addAction(m_restartAction);
    streams->addAction(m_removeAction);
    streams->addAction(m_stopAllAction);
    streams->addSeparator();
    streams->addAction(m_subscribeAction);
    streams->addAction(m_sendAction);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *d : {m_chartsDock, m_inspectorDock, m_resultsDock, m_errorsDock, m_eventsDock})
        view->addAction(d->toggleViewAction());
    view->addSeparator();
    auto *resetLayout = view->addAction(tr("Reset &layout"));
    connect(resetLayout, &QAction::triggered, this, [this] {
        restoreState(m_defaultState);
        setModified(true);
    });
    QMenu *theme = view->addMenu(tr("&Theme"));
    theme->addActions(m_themeGroup->actions());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_aboutAction);
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
    m_statusCpu = make("statusCpu", tr("CPU used by StreamScope (engine and window), percent of one core"));
}

void MainWindow::setDefaultLayout()
{
    resize(1500, 900);
    resizeDocks({m_chartsDock}, {500}, Qt::Horizontal);
    resizeDocks({m_inspectorDock}, {300}, Qt::Vertical);
    m_defaultState = saveState();
}

// ---------------------------------------------------------------------------------------
// Ticks

void MainWindow::refreshNow(bool slow)
{
    if (!m_engine)
        return;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    const QVector<StreamSnapshot> snaps = m_engine->snapshot(slow);
    m_model->update(snaps, nowMs);
    if (slow) {
        m_model->updateLatency(snaps, m_steady.elapsed());
        m_rateHistory->sample(snaps);
        m_rateChart->refresh(*m_rateHistory);
        const StreamId shown = m_latencyChart->stream();
        for (const StreamSnapshot &s : snaps) {
            if (s.id == shown) {
                m_latencyChart->push(s.latency);
                break;
            }
        }
        evaluateAlerts(nowMs);
        const StreamId current = m_inspector->stream();
        if (current != kInvalidStreamId && m_engine->contains(current)) {
            if (m_resultsDock->isVisible())
                m_results->setRecords(m_engine->results(current));
            if (m_errorsDock->isVisible())
                m_errors->setRecords(m_engine->errors(current));
        }
        updateStatusBar(m_cpu->sample());
    } else {
        updateStatusBar(-2.0);
    }
    m_eventLog->flush();
}

void MainWindow::onTick()
{
    ++m_ticks;
    refreshNow(m_ticks % kSlowEvery == 0);
}

void MainWindow::evaluateAlerts(qint64 nowMs)
{
    for (const StreamTableModel::Row &row : m_model->rows()) {
        const StreamSnapshot &s = row.snap;
        AlertMonitor::Sample sample;
        sample.state = s.state;
        sample.msgsPerSec = row.msgsPerSec;
        sample.p99Ms = row.p99Ms;
        const qint64 started = m_startedAtMs.value(s.id, row.firstSeenMs);
        sample.silentMs = nowMs - std::max(s.lastDataMs, started);
        sample.gaps = s.gaps;
        sample.runningForMs = nowMs - started;
        m_alerts->evaluate(s.id, s.name, sample, nowMs);
    }
}

void MainWindow::updateStatusBar(double cpuPercent)
{
    int counts[256] = {};
    for (const StreamTableModel::Row &row : m_model->rows())
        ++counts[quint8(row.snap.state)];
    QStringList parts;
    parts.append(countNoun(quint64(m_model->rows().size()), tr("stream"), tr("streams")));
    for (StreamState s : {StreamState::Live, StreamState::Connecting, StreamState::Subscribing, StreamState::Stalled,
                          StreamState::Degraded, StreamState::Reconnecting, StreamState::Failed, StreamState::Stopped, StreamState::Idle}) {
        if (counts[int(s)])
            parts.append(QStringLiteral("%1 %2").arg(counts[int(s)]).arg(stateName(s)));
    }
    m_statusStreams->setText(parts.join(QStringLiteral(" · ")));
    m_statusRate->setText(tr("%1 msgs/s · %2 KB/s").arg(formatRate(m_model->totalMsgsPerSec()), formatBytesRate(m_model->totalBytesPerSec())));
    const int alerts = m_alerts->activeCount();
    m_statusAlerts->setText(alerts ? QStringLiteral("⚠ ") + countNoun(quint64(alerts), tr("alert"), tr("alerts")) : QString());
    m_statusAlerts->setStyleSheet(alerts ? QStringLiteral("color: %1; font-weight: bold;").arg(stateColor(StreamState::Failed, m_dark).name())
                                         : QString());
    m_statusAlerts->setVisible(alerts > 0);
    if (cpuPercent >= 0.0)
        m_statusCpu->setText(tr("CPU %1 %").arg(QString::number(cpuPercent, 'f', cpuPercent < 10 ? 1 : 0)));
    else if (cpuPercent == -1.0)
        m_statusCpu->setText(tr("CPU –"));
}

// ---------------------------------------------------------------------------------------
// Selection and actions

QList<StreamId> MainWindow::selectedStreams() const
{
    QList<StreamId> ids;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &r : rows) {
        const StreamId id = m_model->idAt(m_proxy->mapToSource(r).row());
        if (id != kInvalidStreamId)
            ids.append(id);
    }
    if (ids.isEmpty() && m_table->currentIndex().isValid()) {
        const StreamId id = m_model->idAt(m_proxy->mapToSource(m_table->currentIndex()).row());
        if (id != kInvalidStreamId)
            ids.append(id);
    }
    return ids;
}

void MainWindow::selectStream(StreamId id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

QString MainWindow::streamName(StreamId id) const
{
    if (const StreamTableModel::Row *r = m_model->row(id))
        return r->snap.name;
    if (m_engine && m_engine->contains(id))
        return m_engine->config(id).name;
    return QStringLiteral("#%1").arg(id);
}

void MainWindow::onSelectionChanged()
{
    const QList<StreamId> ids = selectedStreams();
    QList<QPair<StreamId, QString>> named;
    for (StreamId id : ids)
        named.append({id, streamName(id)});
    m_rateChart->setStreams(named);

    StreamId current = kInvalidStreamId;
    if (m_table->currentIndex().isValid() && m_table->selectionModel()->isRowSelected(m_table->currentIndex().row(), QModelIndex()))
        current = m_model->idAt(m_proxy->mapToSource(m_table->currentIndex()).row());
    if (current == kInvalidStreamId && !ids.isEmpty())
        current = ids.first();
    const QString name = current != kInvalidStreamId ? streamName(current) : QString();
    m_inspector->setStream(current, name);
    m_latencyChart->setStream(current, name);
    m_inspectorDock->setWindowTitle(current != kInvalidStreamId ? tr("Inspector — %1").arg(name) : tr("Inspector"));
    m_resultsDock->setWindowTitle(current != kInvalidStreamId ? tr("Results — %1").arg(name) : tr("Results"));
    m_errorsDock->setWindowTitle(current != kInvalidStreamId ? tr("Errors — %1").arg(name) : tr("Errors"));
    if (current == kInvalidStreamId || !m_engine) {
        m_results->setRecords({});
        m_errors->setRecords({});
    } else {
        m_results->setRecords(m_engine->results(current));
        m_errors->setRecords(m_engine->errors(current));
    }
    m_rateChart->refresh(*m_rateHistory);
    updateActions();
}

void MainWindow::updateActions()
{
    const int n = int(selectedStreams().size());
    m_editAction->setEnabled(n == 1);
    m_stopAction->setEnabled(n > 0);
    m_restartAction->setEnabled(n > 0);
    m_removeAction->setEnabled(n > 0);
    m_subscribeAction->setEnabled(n == 1);
    m_sendAction->setEnabled(n == 1);
    m_stopAction->setText(n > 1 ? tr("&Stop %1").arg(n) : tr("&Stop"));
    m_restartAction->setText(n > 1 ? tr("&Restart %1").arg(n) : tr("&Restart"));
    m_removeAction->setText(n > 1 ? tr("Re&move %1").arg(n) : tr("Re&move"));
}

void MainWindow::onRowAction(const QModelIndex &proxyIndex, int action)
{
    const StreamId id = m_model->idAt(m_proxy->mapToSource(proxyIndex).row());
    if (id == kInvalidStreamId)
        return;
    switch (StreamActionDelegate::Action(action)) {
    case StreamActionDelegate::Action::Stop: stopStreams({id}); break;
    case StreamActionDelegate::Action::Restart: restartStreams({id}); break;
    case StreamActionDelegate::Action::Remove: removeStreams({id}); break;
    case StreamActionDelegate::Action::None: break;
    }
}

void MainWindow::stopSelected()
{
    stopStreams(selectedStreams());
}

void MainWindow::restartSelected()
{
    restartStreams(selectedStreams());
}

void MainWindow::removeSelected()
{
    const QList<StreamId> ids = selectedStreams();
    if (ids.size() > 1) {
        const auto answer = QMessageBox::question(this, tr("Remove streams"),
                                                  tr("Remove %1 streams? Their statistics are lost.").arg(ids.size()),
                                                  QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes)
            return;
    }
    removeStreams(ids);
}

void MainWindow::stopStreams(const QList<StreamId> &ids)
{
    if (!m_engine)
        return;
    for (StreamId id : ids)
        m_engine->stopStream(id);
    // The worker changes the state at once; show it on the next event-loop turn.
    QTimer::singleShot(20, this, [this] { refreshNow(false); });
}

void MainWindow::restartStreams(const QList<StreamId> &ids)
{
    if (!m_engine)
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (StreamId id : ids) {
        m_engine->restartStream(id);
        m_startedAtMs.insert(id, now);
    }
    QTimer::singleShot(20, this, [this] { refreshNow(false); });
}

void MainWindow::removeStreams(const QList<StreamId> &ids)
{
    if (!m_engine || ids.isEmpty())
        return;
    for (StreamId id : ids) {
        m_alerts->forget(id);
        m_rateHistory->forget(id);
        m_engine->removeStream(id);
    }
    setModified(true);
    refreshNow(false);
    onSelectionChanged();
}

QStringList MainWindow::streamNamesExcept(StreamId except) const
{
    QStringList names;
    for (StreamId id : m_engine->streamIds())
        if (id != except)
            names.append(m_engine->config(id).name);
    return names;
}

void MainWindow::storeSecrets(const StreamDialog &dialog)
{
    for (const auto &secret : dialog.secrets())
        m_keychain->store(secret.first, secret.second);
}

void MainWindow::addStream()
{
    if (!m_engine)
        return;
    StreamDialog dialog(streamNamesExcept(kInvalidStreamId), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    storeSecrets(dialog);
    const StreamConfig config = dialog.config();
    m_alerts->setRule(config.name, dialog.alertRule());
    const StreamId id = m_engine->addStream(config);
    m_startedAtMs.insert(id, QDateTime::currentMSecsSinceEpoch());
    setModified(true);
    refreshNow(false);
    selectStream(id);
}

void MainWindow::editStream()
{
    const QList<StreamId> ids = selectedStreams();
    if (!m_engine || ids.size() != 1)
        return;
    const StreamId id = ids.first();
    const StreamConfig old = m_engine->config(id);
    StreamDialog dialog(streamNamesExcept(id), this);
    dialog.setConfig(old, m_alerts->ruleFor(old.name));
    if (dialog.exec() != QDialog::Accepted)
        return;
    storeSecrets(dialog);
    const StreamConfig config = dialog.config();
    if (config.name != old.name)
        m_alerts->renameStream(old.name, config.name);
    m_alerts->setRule(config.name, dialog.alertRule());
    m_engine->updateStream(id, config);
    m_startedAtMs.insert(id, QDateTime::currentMSecsSinceEpoch());
    setModified(true);
    refreshNow(false);
}

void MainWindow::subscribeSelected()
{
    const QList<StreamId> ids = selectedStreams();
    if (!m_engine || ids.size() != 1)
        return;
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Subscribe"),
                                               tr("Binance stream names to SUBSCRIBE to, separated by spaces or commas:"),
                                               QLineEdit::Normal, QString(), &ok);
    const QStringList names = text.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    if (!ok || names.isEmpty())
        return;
    const qint64 requestId = m_engine->subscribe(ids.first(), names);
    statusBar()->showMessage(tr("SUBSCRIBE sent with id %1; the result appears in Results").arg(requestId), 5000);
}

void MainWindow::sendToSelected()
{
    const QList<StreamId> ids = selectedStreams();
    if (!m_engine || ids.size() != 1)
        return;
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(this, tr("Send message"), tr("Text to send on %1:").arg(streamName(ids.first())),
                                                        QString(), &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    if (!m_engine->sendMessage(ids.first(), text.trimmed()))
        statusBar()->showMessage(tr("Not sent: the stream is not connected"), 5000);
}

void MainWindow::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    if (index.isValid() && !m_table->selectionModel()->isRowSelected(index.row(), QModelIndex()))
        m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QMenu menu(this);
    menu.addAction(m_editAction);
    menu.addSeparator();
    menu.addAction(m_stopAction);
    menu.addAction(m_restartAction);
    menu.addAction(m_removeAction);
    menu.addSeparator();
    QAction *inspect = menu.addAction(tr("&Inspect messages"));
    inspect->setEnabled(!selectedStreams().isEmpty());
    connect(inspect, &QAction::triggered, this, [this] {
        m_inspectorDock->show();
        m_inspectorDock->raise();
    });
    QAction *copyUrl = menu.addAction(tr("&Copy URL"));
    copyUrl->setEnabled(selectedStreams().size() == 1);
    connect(copyUrl, &QAction::triggered, this, [this] {
        const QList<StreamId> ids = selectedStreams();
        if (m_engine && ids.size() == 1)
            QGuiApplication::clipboard()->setText(m_engine->config(ids.first()).url.toString());
    });
    menu.addAction(m_subscribeAction);
    menu.addAction(m_sendAction);
    menu.addSeparator();
    menu.addAction(m_addAction);
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

// ---------------------------------------------------------------------------------------
// Events and alerts

void MainWindow::onEngineEvent(const StreamEvent &event)
{
    m_eventLog->addEvent(event, streamName(event.stream));
}

void MainWindow::onAlertRaised(StreamId id, const QString &stream, const QString &text)
{
    m_model->setAlert(id, m_alerts->activeText(id));
    EventLogModel::Entry e;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.stream = stream;
    e.kind = tr("alert");
    e.text = text;
    e.severity = EventLogModel::Severity::Error;
    m_eventLog->add(e);
    const QString title = tr("StreamScope: %1").arg(stream);
    if (m_tray && m_tray->isVisible())
        m_tray->showMessage(title, text, QSystemTrayIcon::Warning, 8000);
    statusBar()->showMessage(tr("Alert on %1: %2").arg(stream, text), 8000);
    emit alertNotified(title, text);
}

void MainWindow::onAlertCleared(StreamId id, const QString &stream, const QString &text)
{
    m_model->setAlert(id, m_alerts->activeText(id));
    EventLogModel::Entry e;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.stream = stream;
    e.kind = tr("alert cleared");
    e.text = text;
    m_eventLog->add(e);
}

// ---------------------------------------------------------------------------------------
// Workspaces

QJsonObject MainWindow::saveLayout() const
{
    QJsonObject window;
    window.insert(QStringLiteral("geometry"), QString::fromLatin1(saveGeometry().toBase64()));
    window.insert(QStringLiteral("state"), QString::fromLatin1(saveState().toBase64()));
    QJsonArray splitter;
    for (int s : m_chartSplitter->sizes())
        splitter.append(s);
    QJsonObject layout;
    layout.insert(QStringLiteral("window"), window);
    layout.insert(QStringLiteral("chart_splitter"), splitter);
    layout.insert(QStringLiteral("rate_chart"), QJsonObject{{QStringLiteral("scope"), RateChart::scopeName(m_rateChart->scope())},
                                                            {QStringLiteral("paused"), m_rateChart->isPaused()}});
    layout.insert(QStringLiteral("latency_window"), LatencyWindows::windowName(m_latencyChart->window()));
    layout.insert(QStringLiteral("table_header"), QString::fromLatin1(m_table->horizontalHeader()->saveState().toBase64()));
    layout.insert(QStringLiteral("filter"), m_filter->text());
    QJsonObject docks;
    for (QDockWidget *d : {m_chartsDock, m_inspectorDock, m_resultsDock, m_errorsDock, m_eventsDock})
        docks.insert(d->objectName(), !d->isHidden());
    layout.insert(QStringLiteral("docks"), docks);
    return layout;
}

void MainWindow::restoreLayout(const QJsonObject &layout)
{
    if (layout.isEmpty()) {
        restoreState(m_defaultState);
        return;
    }
    const QJsonObject window = layout.value(QStringLiteral("window")).toObject();
    const QByteArray geometry = QByteArray::fromBase64(window.value(QStringLiteral("geometry")).toString().toLatin1());
    const QByteArray state = QByteArray::fromBase64(window.value(QStringLiteral("state")).toString().toLatin1());
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    if (state.isEmpty() || !restoreState(state))
        restoreState(m_defaultState);
    // Dock visibility also as plain booleans, so that a hand-edited file can hide a panel.
    const QJsonObject docks = layout.value(QStringLiteral("docks")).toObject();
    for (QDockWidget *d : {m_chartsDock, m_inspectorDock, m_resultsDock, m_errorsDock, m_eventsDock}) {
        const QJsonValue v = docks.value(d->objectName());
        if (v.isBool())
            d->setVisible(v.toBool());
    }
    QList<int> sizes;
    for (const QJsonValue &v : layout.value(QStringLiteral("chart_splitter")).toArray())
        sizes.append(v.toInt());
    if (sizes.size() == m_chartSplitter->count())
        m_chartSplitter->setSizes(sizes);
    const QJsonObject rate = layout.value(QStringLiteral("rate_chart")).toObject();
    m_rateChart->setScope(RateChart::scopeFromName(rate.value(QStringLiteral("scope")).toString()));
    m_rateChart->setPaused(rate.value(QStringLiteral("paused")).toBool(false));
    m_latencyChart->setWindow(LatencyWindows::windowFromName(layout.value(QStringLiteral("latency_window")).toString(QStringLiteral("10s"))));
    const QByteArray header = QByteArray::fromBase64(layout.value(QStringLiteral("table_header")).toString().toLatin1());
    if (!header.isEmpty())
        m_table->horizontalHeader()->restoreState(header);
    m_filter->setText(layout.value(QStringLiteral("filter")).toString());
}

Workspace MainWindow::currentWorkspace() const
{
    Workspace ws;
    if (m_engine) {
        for (StreamId id : m_engine->streamIds())
            ws.streams.append(m_engine->config(id));
    }
    // Rules for streams that no longer exist are dropped; "*" stays.
    QVector<AlertRule> rules;
    for (const AlertRule &r : m_alerts->rules()) {
        bool keep = r.stream == AlertRule::kAnyStream;
        for (const StreamConfig &c : ws.streams)
            keep = keep || c.name == r.stream;
        if (keep)
            rules.append(r);
    }
    ws.alerts = AlertRule::toJson(rules);
    ws.layout = saveLayout();
    return ws;
}

bool MainWindow::saveWorkspace(const QString &path, QString *error)
{
    const Workspace ws = currentWorkspace();
    QString err;
    if (!ws.save(path, &err)) {
        if (error)
            *error = err;
        return false;
    }
    m_path = path;
    setModified(false);
    addRecent(path);
    updateTitle();
    return true;
}

void MainWindow::loadSecretsFor(const QVector<StreamConfig> &streams)
{
    QStringList names;
    for (const StreamConfig &c : streams)
        names += secretNames(c);
    if (!names.isEmpty())
        m_keychain->load(names);
}

void MainWindow::setWorkspace(const Workspace &ws, const QString &path)
{
    if (m_engine) {
        const QList<StreamId> old = m_engine->streamIds();
        for (StreamId id : old) {
            m_alerts->forget(id);
            m_engine->removeStream(id);
        }
    }
    m_rateHistory->clear();
    refreshNow(false);

    QVector<AlertRule> rules;
    QString alertError;
    if (!AlertRule::fromJson(ws.alerts, rules, &alertError)) {
        EventLogModel::Entry e;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.kind = tr("workspace");
        e.text = tr("Alert rules ignored: %1").arg(alertError);
        e.severity = EventLogModel::Severity::Warning;
        m_eventLog->add(e);
        rules.clear();
    }
    m_alerts->blockSignals(true);
    m_alerts->setRules(rules);
    m_alerts->blockSignals(false);

    loadSecretsFor(ws.streams);
    if (m_engine) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (const StreamConfig &c : ws.streams)
            m_startedAtMs.insert(m_engine->addStream(c), now);
    }
    restoreLayout(ws.layout);
    m_path = path;
    if (!path.isEmpty())
        addRecent(path);
    refreshNow(false);
    if (m_model->rowCount() > 0 && !m_table->currentIndex().isValid())
        selectStream(m_model->idAt(0));
    setModified(false);
    updateTitle();
}

bool MainWindow::openWorkspace(const QString &path, QString *error)
{
    Workspace ws;
    const Workspace::LoadResult result = Workspace::load(path, ws);
    if (!result.ok) {
        if (error)
            *error = result.error;
        return false;
    }
    QVector<AlertRule> rules;
    QString alertError;
    if (!AlertRule::fromJson(ws.alerts, rules, &alertError)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, alertError);
        return false;
    }
    setWorkspace(ws, QFileInfo(path).absoluteFilePath());
    for (const QString &w : result.warnings) {
        EventLogModel::Entry e;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.kind = tr("workspace");
        e.text = w;
        e.severity = EventLogModel::Severity::Warning;
        m_eventLog->add(e);
    }
    m_eventLog->flush();
    return true;
}

void MainWindow::newWorkspace()
{
    if (!maybeSave())
        return;
    setWorkspace(Workspace(), QString());
}

void MainWindow::openWorkspaceDialog()
{
    if (!maybeSave())
        return;
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open workspace"), settings.value(kLastDirKey).toString(),
                                                      tr("StreamScope workspaces (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
    QString error;
    if (!openWorkspace(path, &error))
        QMessageBox::warning(this, tr("Cannot open workspace"), error);
}

bool MainWindow::save()
{
    if (m_path.isEmpty())
        return saveAs();
    QString error;
    if (!saveWorkspace(m_path, &error)) {
        QMessageBox::warning(this, tr("Cannot save workspace"), error);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_path)), 4000);
    return true;
}

bool MainWindow::saveAs()
{
    QSettings settings;
    QString suggested = m_path;
    if (suggested.isEmpty())
        suggested = QDir(settings.value(kLastDirKey, QDir::homePath()).toString()).filePath(QStringLiteral("workspace.json"));
    QString path = QFileDialog::getSaveFileName(this, tr("Save workspace as"), suggested, tr("StreamScope workspaces (*.json)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
    QString error;
    if (!saveWorkspace(path, &error)) {
        QMessageBox::warning(this, tr("Cannot save workspace"), error);
        return false;
    }
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_modified)
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("The workspace %1 has unsaved changes. Save them?").arg(m_path.isEmpty() ? tr("(untitled)") : QFileInfo(m_path).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (maybeSave())
        event->accept();
    else
        event->ignore();
}

void MainWindow::addRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString &path : recent) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (!maybeSave())
                return;
            QString error;
            if (!openWorkspace(path, &error))
                QMessageBox::warning(this, tr("Cannot open workspace"), error);
        });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        connect(m_recentMenu->addAction(tr("Clear list")), &QAction::triggered, this, [] { QSettings().remove(kRecentKey); });
    }
}

void MainWindow::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString name = m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
    setWindowTitle(QStringLiteral("%1%2 — StreamScope").arg(name, m_modified ? QStringLiteral(" *") : QString()));
    setWindowFilePath(m_path);
}

// ---------------------------------------------------------------------------------------
// Look

void MainWindow::showAbout()
{
    const QString text =
        tr("<h3>StreamScope %1</h3>"
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
    m_model->setDarkTheme(m_dark);
    m_rateChart->setDark(m_dark);
    m_latencyChart->setDark(m_dark);
}

} // namespace streamscope::ui
