#include "StreamActionDelegate.h"

#include "CaptureList.h"
#include "ControlIcons.h"
#include "StreamTableModel.h"

#include <QtGui/QMouseEvent>
#include <QtGui/QPainter>
#include <QtWidgets/QAbstractItemView>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>
#include <QtWidgets/QToolTip>

namespace streamscope::ui {

namespace {
constexpr int kButtonSize = 20;
constexpr int kSpacing = 4;

// Icon slots: Action - 1.
QStyle::StandardPixmap pixmapFor(int slot)
{
    switch (slot) {
    case 0: return QStyle::SP_MediaStop;
    case 1: return QStyle::SP_BrowserReload;
    case 2: return QStyle::SP_DialogDiscardButton;
    default: return QStyle::SP_MediaPlay;
    }
}

bool rowRuns(const QModelIndex &index)
{
    return isRunning(StreamState(index.data(StreamTableModel::StateRole).toInt()));
}

// A remote agent's stream or an open capture is shown, not controlled from here: no buttons.
bool rowIsRemote(const QModelIndex &index)
{
    return isOfflineOrRemote(index.data(StreamTableModel::StreamIdRole).toUInt());
}

bool rowRecords(const QModelIndex &index)
{
    return index.data(StreamTableModel::RecordingRole).toBool();
}

// The record button: a dot, red and filled while recording, an outline otherwise, drawn as
// strongly as the other buttons' icons (their colour, opaque), so that it shows on a dark theme.
void paintRecordDot(QPainter *painter, const QRect &r, bool recording)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF dot = QRectF(r).adjusted(5.5, 5.5, -5.5, -5.5);
    const QColor red(0xd7, 0x3a, 0x49);
    if (recording) {
        painter->setPen(QPen(red.darker(120), 1.0));
        painter->setBrush(red);
    } else {
        // The application's palette, as controlIcon() uses for the other buttons.
        painter->setPen(QPen(QApplication::palette().color(QPalette::Active, QPalette::WindowText), 2.0));
        painter->setBrush(Qt::NoBrush);
    }
    painter->drawEllipse(dot);
    painter->restore();
}
} // namespace

StreamActionDelegate::StreamActionDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

int StreamActionDelegate::columnWidth()
{
    return kSpacing + kButtonCount * (kButtonSize + kSpacing) + 4;
}

QRect StreamActionDelegate::buttonRect(const QRect &cell, int i)
{
    const int y = cell.top() + (cell.height() - kButtonSize) / 2;
    return QRect(cell.left() + kSpacing + i * (kButtonSize + kSpacing), y, kButtonSize, kButtonSize);
}

StreamActionDelegate::Action StreamActionDelegate::actionAt(const QRect &cell, const QPoint &pos,
                                                            const QModelIndex &index)
{
    if (rowIsRemote(index))
        return Action::None;
    for (int i = 0; i < kButtonCount; ++i) {
        if (buttonRect(cell, i).contains(pos))
            return i == kRecordButton ? Action::Record : i == 0 && !rowRuns(index) ? Action::Start : Action(i + 1);
    }
    return Action::None;
}

void StreamActionDelegate::resetIcons()
{
    m_iconStyle = nullptr;
}

void StreamActionDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    if (rowIsRemote(index))
        return;
    const bool hovered = option.state & QStyle::State_MouseOver;
    if (m_iconStyle != style) {
        for (QIcon &icon : m_icons)
            icon = QIcon();
    }
    const bool runs = rowRuns(index);
    for (int i = 0; i < kButtonCount; ++i) {
        const QRect r = buttonRect(option.rect, i);
        if (hovered) {
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing);
            QColor c = option.palette.color(QPalette::Highlight);
            c.setAlpha(40);
            painter->setBrush(c);
            painter->setPen(Qt::NoPen);
            painter->drawRoundedRect(r, 4, 4);
            painter->restore();
        }
        if (i == kRecordButton) {
            paintRecordDot(painter, r, rowRecords(index));
            continue;
        }
        const int slot = i == 0 && !runs ? int(Action::Start) - 1 : i;
        if (m_icons[slot].isNull())
            m_icons[slot] = controlIcon(pixmapFor(slot), widget);
        m_icons[slot].paint(painter, r.adjusted(2, 2, -2, -2));
    }
    m_iconStyle = style;
}

QSize StreamActionDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(kSpacing + kButtonCount * (kButtonSize + kSpacing));
    s.setHeight(std::max(s.height(), kButtonSize + 4));
    return s;
}

bool StreamActionDelegate::editorEvent(QEvent *event, QAbstractItemModel *model, const QStyleOptionViewItem &option,
                                       const QModelIndex &index)
{
    if (event->type() == QEvent::MouseButtonPress) {
        auto *me = static_cast<QMouseEvent *>(event);
        m_pressedAction =
            me->button() == Qt::LeftButton ? actionAt(option.rect, me->position().toPoint(), index) : Action::None;
        m_pressed = index;
        return m_pressedAction != Action::None;
    }
    if (event->type() == QEvent::MouseButtonRelease) {
        auto *me = static_cast<QMouseEvent *>(event);
        const Action a = actionAt(option.rect, me->position().toPoint(), index);
        const bool fire = a != Action::None && a == m_pressedAction && index == m_pressed;
        m_pressedAction = Action::None;
        m_pressed = QModelIndex();
        if (fire) {
            emit actionTriggered(index, a);
            return true;
        }
        return a != Action::None;
    }
    if (event->type() == QEvent::MouseButtonDblClick)
        return actionAt(option.rect, static_cast<QMouseEvent *>(event)->position().toPoint(), index) != Action::None;
    return QStyledItemDelegate::editorEvent(event, model, option, index);
}

bool StreamActionDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                                     const QModelIndex &index)
{
    if (event->type() == QEvent::ToolTip) {
        switch (actionAt(option.rect, event->pos(), index)) {
        case Action::Stop: QToolTip::showText(event->globalPos(), tr("Stop this stream (Ctrl+.)"), view); return true;
        case Action::Start: QToolTip::showText(event->globalPos(), tr("Start this stream (Ctrl+R)"), view); return true;
        case Action::Restart:
            QToolTip::showText(event->globalPos(), tr("Restart this stream (Ctrl+R)"), view);
            return true;
        case Action::Remove:
            QToolTip::showText(event->globalPos(), tr("Remove this stream, after asking (Del)"), view);
            return true;
        case Action::Record:
            QToolTip::showText(event->globalPos(),
                               rowRecords(index) ? tr("Recording: stop recording this stream (Ctrl+E)")
                                                 : tr("Record this stream to a capture file (Ctrl+E)"),
                               view);
            return true;
        case Action::None: break;
        }
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

} // namespace streamscope::ui
