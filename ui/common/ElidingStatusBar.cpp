#include "ElidingStatusBar.h"
#include "WidgetHelpers.h"

#include <QtGui/QHelpEvent>
#include <QtGui/QPainter>
#include <QtWidgets/QSizeGrip>
#include <QtWidgets/QStyleOption>
#include <QtWidgets/QToolTip>

#include <algorithm>

namespace streamscope::ui {

namespace {
// QStatusBar's own margins around its message.
constexpr int kMessageLeftPx = 6;
constexpr int kMessageRightPx = 12;
constexpr int kMessageGapPx = 2;
} // namespace

ElidingStatusBar::ElidingStatusBar(QWidget *parent)
    : QStatusBar(parent)
{
}

QRect ElidingStatusBar::messageRect() const
{
    // While a message shows, the normal widgets are hidden: a visible child is a permanent
    // widget (or the size grip), and the message ends where the first of them begins.
    const bool rtl = layoutDirection() == Qt::RightToLeft;
    int left = kMessageLeftPx;
    int right = width() - kMessageRightPx;
    for (const QWidget *w : findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible() || w->isWindow())
            continue;
        if (rtl)
            left = std::max(left, w->geometry().right() + 1 + kMessageGapPx);
        else
            right = std::min(right, w->x() - kMessageGapPx);
    }
    return QRect(left, 0, std::max(0, right - left), height());
}

QString ElidingStatusBar::shownMessage() const
{
    const QString message = currentMessage();
    if (message.isEmpty())
        return {};
    return fontMetrics().elidedText(message, Qt::ElideRight, messageRect().width());
}

bool ElidingStatusBar::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString shown = shownMessage();
        if (!shown.isEmpty() && shown != currentMessage() && messageRect().contains(help->pos())) {
            QToolTip::showText(help->globalPos(), plainToolTip(currentMessage()), this, messageRect());
            return true;
        }
    }
    return QStatusBar::event(event);
}

void ElidingStatusBar::paintEvent(QPaintEvent *event)
{
    const QString message = shownMessage();
    if (message.isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    // As QStatusBar draws it (the panel, a frame around each visible item), with the message
    // cut to its room instead of clipped at the first figure.
    QPainter p(this);
    QStyleOption opt;
    opt.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &opt, &p, this);
    for (QWidget *w : findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible() || w->isWindow() || qobject_cast<QSizeGrip *>(w))
            continue;
        opt.rect = w->geometry().adjusted(-1, -1, 1, 1);
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &opt, &p, w);
    }
    p.setPen(palette().windowText().color());
    p.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine, message);
}

} // namespace streamscope::ui
