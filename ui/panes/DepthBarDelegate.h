#pragma once

// Paints the depth ladder's cells (DepthLadderModel): behind a size, its bar (green bids growing
// from the price towards the left, red asks towards the right) and, for a level that just
// changed, an amber flash that fades; bid rows and ask rows have a faint tint of their side.
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
