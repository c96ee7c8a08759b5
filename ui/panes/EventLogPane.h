#pragma once

// The event log's pane: which entries it lists (every stream's or the selected stream's, from
// a severity up), the list following its end while the user is at the bottom, and the entries
// that name a file (a flight recorder's save): a double-click or the context menu shows it.
//
// Thread contract: GUI thread only. Owns its filter and view; the event log is the window's.

#include <QtWidgets/QWidget>

class QComboBox;
class QTableView;

namespace streamscope::ui {

class EventLogFilter;
class EventLogModel;

class EventLogPane : public QWidget {
    Q_OBJECT
public:
    explicit EventLogPane(EventLogModel *log, QWidget *parent = nullptr);

    // The selected stream's name (empty: none), listed alone under "Selected stream".
    void setSelectedStream(const QString &name);
    QTableView *view() const { return m_view; }

private:
    void applyFilter();
    void showFileMenu(const QPoint &pos);

    EventLogFilter *m_filter = nullptr;
    QTableView *m_view = nullptr;
    QComboBox *m_stream = nullptr;
    QComboBox *m_severity = nullptr;
    QString m_selected;
};

} // namespace streamscope::ui
