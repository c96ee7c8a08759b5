#pragma once

// Paints the depth ladder's cells (DepthLadderModel): behind a size, an amber flash that fades
// when its level just changed, and over it the size's bar (green bids growing from the price
// towards the left, red asks towards the right), so that the bar stays readable while it
// flashes; bid rows and ask rows have a faint tint of their side.
// Colours follow the palette, light or dark, so that the text stays legible on both.
//
// Thread contract: GUI thread only.

#include <QtWidgets/QStyledItemDelegate>

namespace streamscope::ui {

class DepthBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace streamscope::ui
