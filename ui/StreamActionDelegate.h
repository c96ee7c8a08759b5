#pragma once

// Paints the per-row stop / restart / remove buttons of the stream table's last column and
// turns clicks on them into actionTriggered(). Painting is cheap (three icons), so a table of
// thousands of rows scrolls as fast as without the column. GUI thread only.

#include <QtGui/QIcon>
#include <QtWidgets/QStyledItemDelegate>

namespace streamscope::ui {

class StreamActionDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    enum class Action { None = 0, Stop, Restart, Remove };
    static constexpr int kButtonCount = 3;

    explicit StreamActionDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool editorEvent(QEvent *event, QAbstractItemModel *model, const QStyleOptionViewItem &option,
                     const QModelIndex &index) override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                   const QModelIndex &index) override;

    // Where button `i` sits inside a cell; public so that tests can click it.
    static QRect buttonRect(const QRect &cell, int i);
    static Action actionAt(const QRect &cell, const QPoint &pos);

signals:
    void actionTriggered(const QModelIndex &index, streamscope::ui::StreamActionDelegate::Action action);

private:
    // Standard icons are looked up (and their PNGs decoded) once, not per painted row.
    mutable QIcon m_icons[kButtonCount];
    mutable const QStyle *m_iconStyle = nullptr;
    QModelIndex m_pressed;
    Action m_pressedAction = Action::None;
};

} // namespace streamscope::ui
