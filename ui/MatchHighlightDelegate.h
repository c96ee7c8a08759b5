#pragma once

// Paints the message inspector's preview cells with the filter's matches highlighted (the
// spans InspectorModel::matchSpans finds in the cell's text). The rest of the cell is drawn
// as the style draws any item. GUI thread only.

#include <QtWidgets/QStyledItemDelegate>

namespace streamscope::ui {

class InspectorModel;

class MatchHighlightDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    MatchHighlightDelegate(const InspectorModel *model, QObject *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The colour behind a match, readable on the palette's base (light or dark).
    static QColor matchBackground(const QPalette &palette);

private:
    const InspectorModel *m_model = nullptr;
};

} // namespace streamscope::ui
