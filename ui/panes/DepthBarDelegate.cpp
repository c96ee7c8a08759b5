#include "DepthBarDelegate.h"

#include "DepthLadderModel.h"
#include "Format.h"

#include <QtGui/QPainter>
#include <QtWidgets/QStyle>

#include <algorithm>

namespace streamscope::ui {

void DepthBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QPalette &pal = option.palette;
    const bool dark = pal.color(QPalette::Base).lightness() < pal.color(QPalette::Text).lightness();
    const bool bid = index.data(DepthLadderModel::SideRole).toInt() == 0;
    const QColor side = stateColor(bid ? StreamState::Live : StreamState::Failed, dark);
    const QRect r = option.rect;
    painter->save();
    QColor tint = side;
    tint.setAlpha(dark ? 22 : 14);
    painter->fillRect(r, tint);
    const double flash = index.data(DepthLadderModel::FlashRole).toDouble();
    if (flash > 0.0) {
        QColor amber = dark ? QColor(0xf0, 0xb7, 0x2f) : QColor(0xff, 0xc1, 0x07);
        amber.setAlpha(int((dark ? 140 : 200) * std::min(flash, 1.0)));
        painter->fillRect(r, amber);
    }
    const double bar = index.data(DepthLadderModel::BarRole).toDouble();
    if (bar > 0.0) {
        const int w = std::max(1, int(r.width() * std::min(bar, 1.0)));
        // Bars grow away from the price column: a bid's ends at its cell's right edge.
        const QRect barRect = bid ? QRect(r.right() - w + 1, r.top() + 2, w, r.height() - 4)
                                  : QRect(r.left(), r.top() + 2, w, r.height() - 4);
        QColor fill = side;
        fill.setAlpha(dark ? 110 : 75);
        painter->fillRect(barRect, fill);
    }
    painter->restore();

    // The text over it, without the style's own background (the bars are the background).
    QStyleOptionViewItem text = option;
    initStyleOption(&text, index);
    text.backgroundBrush = Qt::NoBrush;
    text.state &= ~QStyle::State_Selected;
    QStyledItemDelegate::paint(painter, text, index);
}

} // namespace streamscope::ui
