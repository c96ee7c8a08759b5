#pragma once

// What the panes show of the stream table's selection: the rate chart's streams, the latency
// chart's, the inspector's, the order book's and the details pane's stream, the Results and Errors lists, the
// event log's "Selected stream"; an open capture shows its own messages, histogram and rate.
// Fed by the SnapshotHub's slow ticks: the per-second history (owned here), the charts, the
// details pane (while it is shown) and the selected stream's results and errors.
//
// Thread contract: GUI thread only. Owns the history; the table, its models, the panes and
// the engine are the window's (the engine held by QPointer: it may go first).

#include "SnapshotHub.h"
#include "StreamHistory.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

class QDockWidget;
class QSortFilterProxyModel;
class QTableView;

namespace streamscope {
class Engine;
}

namespace streamscope::ui {

class DepthLadder;
class EventLogPane;
class LatencyChart;
class MessageInspector;
class RateChart;
class ResponseModel;
class StreamDetails;
class StreamTableModel;

class SelectionController : public QObject {
    Q_OBJECT
public:
    struct Panes {
        RateChart *rateChart = nullptr;
        LatencyChart *latencyChart = nullptr;
        MessageInspector *inspector = nullptr;
        QDockWidget *inspectorDock = nullptr;
        StreamDetails *details = nullptr;
        QDockWidget *detailsDock = nullptr;
        ResponseModel *results = nullptr;
        QDockWidget *resultsDock = nullptr;
        ResponseModel *errors = nullptr;
        QDockWidget *errorsDock = nullptr;
        EventLogPane *events = nullptr;
        DepthLadder *ladder = nullptr; // the order book pane (null: none)
    };

    SelectionController(Engine *engine, SnapshotHub *hub, StreamTableModel *model, QSortFilterProxyModel *proxy,
                        QTableView *table, const Panes &panes, QObject *parent = nullptr);

    // Every selected row's stream, an agent's and a capture's included (what the charts show).
    QList<StreamId> selectedRows() const;
    // The selected streams that can be acted on: the engine's (an agent's or a capture's row
    // is read-only).
    QList<StreamId> selectedStreams() const;
    void selectStream(StreamId id);
    // Streams → Next / Previous stream: selects the row `delta` rows from the current one in
    // the table's order (sorted and filtered), staying at the first or last; no selected current row:
    // the first (next) or the last (previous).
    void step(int delta);
    // Shows the selection in the panes again (after rows came, went or were renamed).
    void showSelection();
    // The details pane, at once, from the stream's own snapshot with its latency.
    void refreshDetails();

    void onTick(const SnapshotHub::Tick &tick);
    const StreamHistory &history() const { return m_history; }
    void forget(StreamId id) { m_history.forget(id); }
    void clearHistory() { m_history.clear(); }

signals:
    // The selection changed, or showSelection() was asked for: every selected row's stream.
    void selectionChanged(const QList<StreamId> &rows);

private:
    // A capture selected: the charts and the inspector show it; otherwise they are left alone.
    void showCapture(StreamId current, const QString &name);
    // `snap`: the stream's reading of this tick; null: read it now.
    void refreshDetailsFrom(const StreamSnapshot *snap);

    QPointer<Engine> m_engine;
    SnapshotHub *m_hub = nullptr;
    StreamTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    Panes m_panes;
    StreamHistory m_history;
};

} // namespace streamscope::ui
