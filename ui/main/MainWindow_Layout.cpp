// MainWindow, continued: the layout. The stream table and its filter, the docks, the first
// window's size, and the layout as a workspace saves and restores it. See MainWindow.h.

#include "MainWindow.h"

#include "AlertsController.h"
#include "CrossVenuePane.h"
#include "DepthLadder.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "EventLogPane.h"
#include "FrozenColumnsView.h"
#include "LatencyChart.h"
#include "LatencyWindows.h"
#include "MainActions.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "ResponseModel.h"
#include "StreamActionDelegate.h"
#include "StreamColumnWidths.h"
#include "StreamDetails.h"
#include "StreamSortProxy.h"
#include "StreamTableModel.h"
#include "WidgetHelpers.h"

#include <QtCore/QJsonArray>
#include <QtGui/QAction>
#include <QtGui/QGuiApplication>
#include <QtGui/QScreen>
#include <QtGui/QStandardItemModel>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

void MainWindow::buildCentral()
{
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("streamFilter"));
    m_filter->setPlaceholderText(tr("Filter streams by name…  (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    addClearOnEscape(m_filter);
    m_filter->setToolTip(tr("Show only the streams whose name contains this text"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    // The name and the buttons (the first two columns shown) stay while the figures scroll
    // sideways in a narrow window.
    m_table = new FrozenColumnsView(2);
    m_table->setObjectName(QStringLiteral("streamTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // insertion order until the user sorts
    m_proxy->holdWhileHovered(m_table->viewport());
    m_proxy->holdWhileHovered(m_table->frozenView()->viewport());
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
    // The columns' widths: setDefaultLayout(), once the window knows its first size.
    m_actionDelegate = new StreamActionDelegate(this);
    m_table->setItemDelegateForColumn(StreamTableModel::ColActions, m_actionDelegate);
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

    m_table->syncFrozen();

    connect(m_actionDelegate, &StreamActionDelegate::actionTriggered, this,
            [this](const QModelIndex &index, StreamActionDelegate::Action a) { onRowAction(index, a); });
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
    const auto dock = [this](const QString &title, const char *name, QWidget *widget, Qt::DockWidgetArea area) {
        auto *d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };

    m_rateChart = new RateChart;
    m_latencyChart = new LatencyChart;
    m_chartSplitter = new QSplitter(Qt::Vertical);
    m_chartSplitter->setObjectName(QStringLiteral("chartSplitter"));
    m_chartSplitter->addWidget(m_rateChart);
    m_chartSplitter->addWidget(m_latencyChart);
    m_chartSplitter->setChildrenCollapsible(false);
    m_chartsDock = dock(tr("Charts"), "chartsDock", m_chartSplitter, Qt::RightDockWidgetArea);
    // The order book of the selected depth stream, a tab beside the charts: hidden behind them
    // it copies nothing from the engine.
    m_ladder = new DepthLadder(m_engine, m_hub);
    m_bookDock = dock(tr("Order book"), "bookDock", m_ladder, Qt::RightDockWidgetArea);
    m_bookDock->setToolTip(tr("The depth ladder and depth chart of the selected depth stream's order books"));
    connect(m_bookDock, &QDockWidget::visibilityChanged, m_ladder, &DepthLadder::setShown);
    tabifyDockWidget(m_chartsDock, m_bookDock);
    // One instrument across venues: every stream's books side by side (docs/venues.md).
    m_crossVenue = new CrossVenuePane(m_alertService);
    m_crossVenueDock = dock(tr("Cross-venue"), "crossVenueDock", m_crossVenue, Qt::RightDockWidgetArea);
    m_crossVenueDock->setToolTip(tr("One instrument across venues: mid, deviation from the other venues, spread, "
                                    "latency and age, flagged venues marked"));
    tabifyDockWidget(m_bookDock, m_crossVenueDock);
    m_chartsDock->raise();

    m_inspector = new MessageInspector(m_engine, this);
    m_inspectorDock = dock(tr("Inspector"), "inspectorDock", m_inspector, Qt::BottomDockWidgetArea);
    m_resultsDock = dock(tr("Results"), "resultsDock", makeLogView(m_results), Qt::BottomDockWidgetArea);
    m_resultsDock->setToolTip(tr("Subscription results of the selected stream, with their request ids"));
    m_errorsDock = dock(tr("Errors"), "errorsDock", makeLogView(m_errors), Qt::BottomDockWidgetArea);
    m_errorsDock->setToolTip(tr("Errors returned by the endpoint of the selected stream"));
    m_eventPane = new EventLogPane(m_eventLog);
    m_eventsDock = dock(tr("Event log"), "eventsDock", m_eventPane, Qt::BottomDockWidgetArea);

    // The alerts active now, one row each, until they clear: what a tray would have shown.
    auto *alertView = makeLogView(m_alerts->activeAlerts());
    alertView->setObjectName(QStringLiteral("activeAlertsView"));
    const int digit = alertView->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    alertView->setColumnWidth(0, digit * 10);
    alertView->setColumnWidth(1, digit * 20);
    m_alertsDock = dock(tr("Alerts"), "alertsDock", alertView, Qt::BottomDockWidgetArea);

    // The selected stream as a whole: every counter, its last minutes, alerts and events.
    m_details = new StreamDetails(m_eventLog, m_alerts->activeAlerts());
    m_detailsDock = dock(tr("Details"), "detailsDock", m_details, Qt::BottomDockWidgetArea);

    tabifyDockWidget(m_inspectorDock, m_detailsDock);
    tabifyDockWidget(m_detailsDock, m_eventsDock);
    tabifyDockWidget(m_eventsDock, m_alertsDock);
    tabifyDockWidget(m_eventsDock, m_resultsDock);
    tabifyDockWidget(m_resultsDock, m_errorsDock);
    m_inspectorDock->raise();
}

void MainWindow::setDefaultLayout()
{
    // The first window takes most of the screen it opens on, up to what the layout can use.
    const QRect available = availableScreenArea();
    const QSize first(std::min(kLargestFirstSize.width(), available.width() * 9 / 10),
                      std::min(kLargestFirstSize.height(), available.height() * 9 / 10));
    resize(first);
    fitToScreen();
    // By the size asked for: before the window is first shown its width can still be its
    // widgets' unconstrained minimum (wider than a laptop's screen).
    setColumnWidths(first.width() < StreamColumnWidths::kCompactBelowPx);
    // The charts take about a third of the width and the inspector two fifths of the height,
    // so that the table keeps room on a laptop.
    resizeDocks({m_chartsDock}, {std::clamp(first.width() * 35 / 100, 380, 600)}, Qt::Horizontal);
    resizeDocks({m_inspectorDock}, {std::clamp(first.height() * 4 / 10, 220, 340)}, Qt::Vertical);
    m_defaultState = saveState();
}

void MainWindow::setColumnWidths(bool compact)
{
    const QVector<int> widths = StreamColumnWidths::widths(m_table, compact);
    for (int c = 0; c < StreamTableModel::ColumnCount; ++c)
        m_table->setColumnWidth(c, widths[c]);
    m_table->syncFrozen();
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
    layout.insert(QStringLiteral("rate_chart"),
                  QJsonObject{{QStringLiteral("scope"), RateChart::scopeName(m_rateChart->scope())},
                              {QStringLiteral("paused"), m_rateChart->isPaused()},
                              {QStringLiteral("log"), m_rateChart->isLogScale()}});
    layout.insert(QStringLiteral("latency_window"), LatencyWindows::windowName(m_latencyChart->window()));
    layout.insert(QStringLiteral("latency_log"), m_latencyChart->isLogScale());
    layout.insert(QStringLiteral("latency_corrected"), m_actions->correctedLatency->isChecked());
    layout.insert(QStringLiteral("table_header"),
                  QString::fromLatin1(m_table->horizontalHeader()->saveState().toBase64()));
    layout.insert(QStringLiteral("table_columns"), int(StreamTableModel::ColumnCount));
    layout.insert(QStringLiteral("filter"), m_filter->text());
    QJsonObject docks;
    for (QDockWidget *d : {m_chartsDock, m_bookDock, m_crossVenueDock, m_inspectorDock, m_detailsDock, m_resultsDock,
                           m_errorsDock, m_eventsDock, m_alertsDock})
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
    fitToScreen(); // a layout saved on a larger screen
    // Dock visibility also as plain booleans, so that a hand-edited file can hide a panel.
    const QJsonObject docks = layout.value(QStringLiteral("docks")).toObject();
    for (QDockWidget *d : {m_chartsDock, m_bookDock, m_crossVenueDock, m_inspectorDock, m_detailsDock, m_resultsDock,
                           m_errorsDock, m_eventsDock, m_alertsDock}) {
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
    m_rateChart->setLogScale(rate.value(QStringLiteral("log")).toBool(false));
    m_latencyChart->setWindow(
        LatencyWindows::windowFromName(layout.value(QStringLiteral("latency_window")).toString(QStringLiteral("10s"))));
    m_latencyChart->setLogScale(layout.value(QStringLiteral("latency_log")).toBool(false));
    m_actions->correctedLatency->setChecked(layout.value(QStringLiteral("latency_corrected")).toBool(false));
    const QByteArray header =
        QByteArray::fromBase64(layout.value(QStringLiteral("table_header")).toString().toLatin1());
    if (!header.isEmpty()) {
        m_table->horizontalHeader()->restoreState(header);
        // A header saved before the Backlog column came shows it: hidden, as by default.
        const int savedColumns = layout.value(QStringLiteral("table_columns")).toInt();
        if (savedColumns <= StreamTableModel::ColBacklog)
            m_table->horizontalHeader()->setSectionHidden(StreamTableModel::ColBacklog, true);
        // ... and one saved before the Book column came shows it, as by default.
        if (savedColumns <= StreamTableModel::ColBook) {
            m_table->horizontalHeader()->setSectionHidden(StreamTableModel::ColBook, false);
            if (m_table->columnWidth(StreamTableModel::ColBook)
                < m_table->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 4)
                m_table->setColumnWidth(StreamTableModel::ColBook,
                                        m_table->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 13);
        }
        // The buttons' column is as wide as its buttons, whatever width a header saved with
        // fewer buttons holds.
        m_table->setColumnWidth(StreamTableModel::ColActions, StreamActionDelegate::columnWidth());
        m_table->syncFrozen();
    }
    m_filter->setText(layout.value(QStringLiteral("filter")).toString());
}

} // namespace streamscope::ui
