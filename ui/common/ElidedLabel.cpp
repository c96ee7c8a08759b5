#include "ElidedLabel.h"
#include "WidgetHelpers.h"

#include <QtGui/QFontMetrics>
#include <QtGui/QHelpEvent>
#include <QtGui/QPainter>
#include <QtWidgets/QStyle>
#include <QtWidgets/QToolTip>

namespace streamscope::ui {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

bool ElidedLabel::isElided() const
{
    return fontMetrics().horizontalAdvance(text()) > contentsRect().width();
}

QSize ElidedLabel::minimumSizeHint() const
{
    // A few characters and the ellipsis: the rest can go.
    const QMargins m = contentsMargins();
    const int few = fontMetrics().horizontalAdvance(text().left(6) + QChar(0x2026)) + m.left() + m.right();
    const QSize whole = QLabel::minimumSizeHint();
    return QSize(std::min(whole.width(), few), whole.height());
}

bool ElidedLabel::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        // Cut: the whole text first, then what the tooltip says of it. Both are plain text
        // (a stream's name, a peer's message), never markup.
        QString tip = toolTip();
        if (isElided())
            tip = tip.isEmpty() ? text() : text() + QLatin1Char('\n') + tip;
        if (tip.isEmpty())
            return QLabel::event(event);
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), plainToolTip(tip), this, QRect(),
                           toolTipDuration());
        return true;
    }
    return QLabel::event(event);
}

void ElidedLabel::paintEvent(QPaintEvent *event)
{
    if (!isElided()) {
        QLabel::paintEvent(event);
        return;
    }
    QPainter painter(this);
    const QRect r = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, r.width());
    style()->drawItemText(&painter, r, int(alignment()), palette(), isEnabled(), shown, foregroundRole());
}

} // namespace streamscope::ui
