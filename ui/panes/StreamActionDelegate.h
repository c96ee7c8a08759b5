#pragma once

// Paints the per-row stop (or start) / restart / remove / record buttons of the stream table's
// actions column and turns clicks on them into actionTriggered(). The first button follows the
// row's state (StreamTableModel::StateRole): Stop while the stream runs, Start when it is
// stopped, failed or idle; the record button (a dot, red while the stream records:
// StreamTableModel::RecordingRole) toggles recording. A remote agent's rows and open captures'
// have no buttons. Icons follow the theme (controlIcon()). Painting is cheap (three icons), so a table of
// thousands of rows scrolls as fast as without the column. GUI thread only.

#include <QtGui/QIcon>
#include <QtWidgets/QStyledItemDelegate>

namespace streamscope::ui {

class StreamActionDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    enum class Action { None = 0, Stop, Restart, Remove, Start, Record };
    static constexpr int kButtonCount = 4; // stop/start, restart, remove, record
    static constexpr int kRecordButton = 3;
    // The actions column's width for the buttons.
    static int columnWidth();

    explicit StreamActionDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool editorEvent(QEvent *event, QAbstractItemModel *model, const QStyleOptionViewItem &option,
                     const QModelIndex &index) override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                   const QModelIndex &index) override;

    // Where button `i` sits inside a cell; public so that tests can click it.
    static QRect buttonRect(const QRect &cell, int i);
    // The button under `pos` in the cell of `index`: Stop or Start by the row's state.
    static Action actionAt(const QRect &cell, const QPoint &pos, const QModelIndex &index);
    // Forget the icons drawn so far (the theme changed).
    void resetIcons();

signals:
    void actionTriggered(const QModelIndex &index, streamscope::ui::StreamActionDelegate::Action action);

private:
    // Icons are made once, not per painted row: stop, restart, remove, start.
    mutable QIcon m_icons[kButtonCount + 1];
    mutable const QStyle *m_iconStyle = nullptr;
    QModelIndex m_pressed;
    Action m_pressedAction = Action::None;
};

} // namespace streamscope::ui
