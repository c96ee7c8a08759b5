#include "StreamSortProxy.h"

#include <QtCore/QEvent>
#include <QtCore/QTimer>
#include <QtWidgets/QWidget>

namespace streamscope::ui {

StreamSortProxy::StreamSortProxy(int nameColumn, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_nameColumn(nameColumn)
    , m_timer(new QTimer(this))
{
    // Not re-sorted on every dataChanged: the timer does it, calmly.
    setDynamicSortFilter(false);
    m_timer->setInterval(kResortIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &StreamSortProxy::resortIfCalm);
    m_timer->start();
}

void StreamSortProxy::holdWhileHovered(QWidget *viewport)
{
    viewport->installEventFilter(this);
}

void StreamSortProxy::resortIfCalm()
{
    if (!m_held && sortColumn() >= 0)
        sort(sortColumn(), sortOrder());
}

bool StreamSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QPartialOrdering order = QVariant::compare(left.data(sortRole()), right.data(sortRole()));
    if (order == QPartialOrdering::Less)
        return true;
    if (order == QPartialOrdering::Greater)
        return false;
    // A tie, or values that do not compare (no latency yet): by name, then by the order
    // added, ascending whichever way the column sorts (the view reverses lessThan for a
    // descending sort, so the tie-break is reversed with it).
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    const int byName =
        QString::compare(left.sibling(left.row(), m_nameColumn).data().toString(),
                         right.sibling(right.row(), m_nameColumn).data().toString(), Qt::CaseInsensitive);
    if (byName != 0)
        return ascending ? byName < 0 : byName > 0;
    return ascending ? left.row() < right.row() : left.row() > right.row();
}

bool StreamSortProxy::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Enter)
        m_held = true;
    else if (event->type() == QEvent::Leave)
        m_held = false;
    return QSortFilterProxyModel::eventFilter(watched, event);
}

} // namespace streamscope::ui
