#pragma once

// The details pane of the selected stream: every counter of the headless report under the
// report's own names (connections, gap records and venue details included), sparklines of its
// message rate and p99 latency over the last five minutes, the instruments of a combined stream
// and which went quiet (InstrumentList), its active alerts and its recent events. Refreshed once a second by SelectionController while the pane is shown; values change in
// place, so that what the user expanded, selected or scrolled to stays where it is.
// GUI thread only.

#include "StreamSnapshot.h"

#include <QtCore/QHash>
#include <QtCore/QJsonValue>
#include <QtCore/QPair>
#include <QtWidgets/QWidget>

class QAbstractItemModel;
class QLabel;
class QResizeEvent;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTreeWidget;
class QTreeWidgetItem;

namespace streamscope::ui {

class EventLogFilter;
class EventLogModel;
class InstrumentList;
class Sparkline;
class StreamHistory;

class StreamDetails : public QWidget {
    Q_OBJECT
public:
    // `events` is the event log and `activeAlerts` the Alerts list (since, stream, text);
    // the pane shows the selected stream's rows of both.
    StreamDetails(EventLogModel *events, QAbstractItemModel *activeAlerts, QWidget *parent = nullptr);

    void setStream(StreamId id, const QString &name);
    StreamId stream() const { return m_stream; }
    // Once a second: the stream's snapshot (with its latency), for how long it has been in the
    // table (the report's duration, for its average rate) and the per-second history.
    void refresh(const StreamSnapshot &snap, double durationS, const StreamHistory &history);

    // The value shown for a report field, by its path ("messages", "latency_ms/p99",
    // "connections/1/url"); empty when there is no such row.
    QString valueAt(const QString &path) const;
    QTreeWidgetItem *itemAt(const QString &path) const { return m_items.value(path); }
    // Every value shown, by its report path, in the pane's order (what "Export statistics
    // as CSV…" writes): the report's value as a spreadsheet reads it (1234, 0.64, true; empty
    // for none), not the text shown ("1,234"); a list's or an object's own row is left out,
    // its entries are not.
    QList<QPair<QString, QString>> fields() const;
    QTreeWidget *counters() const { return m_counters; }
    // The order books in a line (docs/books.md): "Order books: synced 2 of 3, crossed 1 · last
    // audit 100 % of the top levels match (lowest 83.3 %), 4 stale levels"; empty without books.
    QString booksText() const;
    static QString booksSummary(const QVector<BookStatus> &books);
    Sparkline *rateLine() const { return m_rate; }
    Sparkline *latencyLine() const { return m_latency; }
    InstrumentList *instruments() const { return m_instruments; }
    QAbstractItemModel *alerts() const;
    QAbstractItemModel *events() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void setValue(const QString &path, const QString &key, const QJsonValue &value, QTreeWidgetItem *parent,
                  QSet<QString> &seen);

    StreamId m_stream = kInvalidStreamId;
    QString m_name;
    QStackedWidget *m_pages = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_books = nullptr;
    Sparkline *m_rate = nullptr;
    Sparkline *m_latency = nullptr;
    InstrumentList *m_instruments = nullptr;
    QTreeWidget *m_counters = nullptr;
    QHash<QString, QTreeWidgetItem *> m_items; // report path → its row
    QSortFilterProxyModel *m_alerts = nullptr;
    EventLogFilter *m_events = nullptr;
    QTableView *m_eventView = nullptr;
    QSplitter *m_split = nullptr;
    bool m_splitMoved = false;   // by the user: the width is no longer shared out
    bool m_sharePending = false; // a share queued after a resize
    QList<QPointF> m_buffer;
};

} // namespace streamscope::ui
