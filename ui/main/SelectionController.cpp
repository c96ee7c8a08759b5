#include "SelectionController.h"

#include "CaptureList.h"
#include "DepthLadder.h"
#include "Engine.h"
#include "EventLogPane.h"
#include "Format.h"
#include "LatencyChart.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "ResponseModel.h"
#include "StreamDetails.h"
#include "StreamTableModel.h"

#include <QtCore/QDateTime>
#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QTableView>

#include <algorithm>

namespace streamscope::ui {

namespace {
QString utcText(qint64 us)
{
    return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}
} // namespace

SelectionController::SelectionController(Engine *engine, SnapshotHub *hub, StreamTableModel *model,
                                         QSortFilterProxyModel *proxy, QTableView *table, const Panes &panes,
                                         QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_hub(hub)
    , m_model(model)
    , m_proxy(proxy)
    , m_table(table)
    , m_panes(panes)
{
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SelectionController::showSelection);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &SelectionController::showSelection);
    // Shown again: up to date at once, not a second later.
    connect(m_panes.detailsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            refreshDetails();
    });
    connect(m_panes.rateChart, &RateChart::settingsChanged, this, [this] { m_panes.rateChart->refresh(m_history); });
}

QList<StreamId> SelectionController::selectedStreams() const
{
    QList<StreamId> ids = selectedRows();
    ids.removeIf([](StreamId id) { return isOfflineOrRemote(id); }); // agents' and captures' rows
    return ids;
}

QList<StreamId> SelectionController::selectedRows() const
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

void SelectionController::selectStream(StreamId id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void SelectionController::step(int delta)
{
    const int rows = m_proxy->rowCount();
    if (rows == 0)
        return;
    // A current row that is not selected (the view puts it on the first row on focus) is none.
    const QModelIndex current = m_table->currentIndex();
    const bool selected = current.isValid() && m_table->selectionModel()->isRowSelected(current.row(), QModelIndex());
    int row = selected ? current.row() + delta : (delta > 0 ? 0 : rows - 1);
    row = std::clamp(row, 0, rows - 1);
    const QModelIndex index = m_proxy->index(row, current.isValid() ? current.column() : 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void SelectionController::showSelection()
{
    const QList<StreamId> ids = selectedRows();
    QList<QPair<StreamId, QString>> named;
    for (StreamId id : ids)
        named.append({id, m_hub->streamName(id)});
    m_panes.rateChart->setStreams(named);

    StreamId current = kInvalidStreamId;
    if (m_table->currentIndex().isValid()
        && m_table->selectionModel()->isRowSelected(m_table->currentIndex().row(), QModelIndex()))
        current = m_model->idAt(m_proxy->mapToSource(m_table->currentIndex()).row());
    if (current == kInvalidStreamId && !ids.isEmpty())
        current = ids.first();
    const QString name = current != kInvalidStreamId ? m_hub->streamName(current) : QString();
    showCapture(current, name); // an open capture's messages, histogram and rate
    // A remote agent's messages stay on its machine: the inspector names the stream and says so.
    m_panes.inspector->setStream(
        current, name,
        isRemoteStream(current)
            ? tr("An agent's messages stay on its machine: select a local stream or a capture to inspect messages.")
            : QString());
    if (m_panes.ladder)
        m_panes.ladder->setStream(current, name,
                                  isRemoteStream(current)
                                      ? tr("An agent's order books stay on its machine: its Book column and "
                                           "Details show their state.")
                                      : QString());
    m_panes.events->setSelectedStream(name);
    m_panes.latencyChart->setStream(current, name);
    if (current != m_panes.details->stream()) {
        m_panes.details->setStream(current, name);
        refreshDetails();
    } else {
        m_panes.details->setStream(current, name); // renamed
    }
    // The dock's title stays "Inspector": as a tab, a title that named the stream would change
    // width with the name and move the tabs beside it under the pointer. The pane names it.

    if (current == kInvalidStreamId || !m_engine) {
        m_panes.results->setRecords({});
        m_panes.errors->setRecords({});
    } else {
        m_panes.results->setRecords(m_engine->results(current));
        m_panes.errors->setRecords(m_engine->errors(current));
    }
    m_panes.rateChart->refresh(m_history);
    emit selectionChanged(ids);
}

void SelectionController::showCapture(StreamId current, const QString &name)
{
    const CaptureList::Capture *c = isCaptureStream(current) ? m_hub->captures()->find(current) : nullptr;
    if (!c) {
        if (m_panes.rateChart->isOffline())
            m_panes.rateChart->setOffline(QString(), {}, 1);
        return;
    }
    const CaptureAnalysis &a = *c->data;
    m_panes.rateChart->setOffline(name, a.rate, a.rateBinSeconds);
    m_panes.latencyChart->setStream(current, name);
    m_panes.latencyChart->setFixed(a.latency, tr("%1 to %2 UTC").arg(utcText(a.firstUs), utcText(a.lastUs).mid(11)));
    m_panes.inspector->showOffline(current, name, a.lastMessages, a.messagesLeftOut);
}

void SelectionController::onTick(const SnapshotHub::Tick &tick)
{
    if (tick.kind != SnapshotHub::TickKind::Slow)
        return;
    const QVector<StreamSnapshot> &snaps = m_hub->snapshots();
    m_history.sample(snaps);
    for (const StreamTableModel::Row &row : m_model->rows())
        m_history.sampleLatency(row.snap.id, isRunning(row.snap.state) ? row.p99Ms : qQNaN());
    m_panes.rateChart->refresh(m_history);
    // The hub's reading of an engine stream carries its histograms only on the tick the stream
    // is due: the chart's and the details' streams are read with theirs here.
    LatencyChart *latency = m_panes.latencyChart;
    const bool own = m_engine && m_engine->contains(latency->stream());
    const StreamSnapshot read = own ? m_engine->snapshot(latency->stream(), true) : StreamSnapshot();
    if (const StreamSnapshot *s = own ? &read : m_hub->find(latency->stream())) {
        const StreamTableModel::Row *row = m_model->row(s->id);
        latency->setSource(row && row->latencyCorrected, clockText(s->clock), s->clock.note);
        latency->push(row ? StreamTableModel::shownLatency(*row, *s) : s->latency, isRunning(s->state),
                      row ? row->latWindow.oldAnchor() : LatencySnapshot());
    }
    const StreamId details = m_panes.details->stream();
    refreshDetailsFrom(m_engine && m_engine->contains(details) ? nullptr : m_hub->find(details));
    const StreamId current = m_panes.inspector->stream();
    if (current != kInvalidStreamId && m_engine && m_engine->contains(current)) {
        if (m_panes.resultsDock->isVisible())
            m_panes.results->setRecords(m_engine->results(current));
        if (m_panes.errorsDock->isVisible())
            m_panes.errors->setRecords(m_engine->errors(current));
    }
}

void SelectionController::refreshDetails()
{
    refreshDetailsFrom(nullptr);
}

void SelectionController::refreshDetailsFrom(const StreamSnapshot *snap)
{
    const StreamId id = m_panes.details->stream();
    if (!m_engine || id == kInvalidStreamId || !m_panes.detailsDock->isVisible())
        return;
    const StreamTableModel::Row *row = m_model->row(id);
    if (!row)
        return;
    const double durationS = double(QDateTime::currentMSecsSinceEpoch() - row->firstSeenMs) / 1000.0;
    if (snap) {
        m_panes.details->refresh(*snap, durationS, m_history);
    } else if (m_engine->contains(id)) {
        m_panes.details->refresh(m_engine->snapshot(id, true), durationS, m_history);
    } else if (const StreamSnapshot *own = m_hub->find(id)) {
        // An agent's counters run from the agent's start, the time its snapshots carry, not
        // from when this window first saw them.
        const double since = isRemoteStream(id) ? double(own->takenAtNs) / 1e9 : durationS;
        m_panes.details->refresh(*own, since, m_history); // an agent's or a capture's row
    }
}

} // namespace streamscope::ui
