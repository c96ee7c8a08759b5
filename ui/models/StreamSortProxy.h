#pragma once

// The stream table's sort and filter: rows that stay still under the pointer. Values that
// tie (equal rates, no latency yet) are ordered by name, then by the order the streams were
// added, so that equal rows never swap from one refresh to the next. Live values re-sort at
// a calm pace (kResortIntervalMs), not on every refresh, and not at all while the pointer
// is over the table (a tooltip or a click lands on the row it was meant for); a click on a
// header sorts at once.
//
// Thread contract: GUI thread only.

#include <QtCore/QSortFilterProxyModel>

class QTimer;

namespace streamscope::ui {

class StreamSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    static constexpr int kResortIntervalMs = 2000;

    // `nameColumn` holds the names that break ties (DisplayRole).
    StreamSortProxy(int nameColumn, QObject *parent = nullptr);

    // The order is held while the pointer is over `viewport` (the table's).
    void holdWhileHovered(QWidget *viewport);
    bool isHeld() const { return m_held; }
    // What the calm timer does: re-sort by the current column unless held.
    void resortIfCalm();

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    int m_nameColumn;
    bool m_held = false;
    QTimer *m_timer = nullptr;
};

} // namespace streamscope::ui
