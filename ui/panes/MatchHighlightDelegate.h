#pragma once

// Paints the message inspector's preview cells with the filter's matches highlighted (the
// spans InspectorModel::matchSpans finds in the cell's text). When the first match lies
// beyond the cell's width, the text is shown from shortly before it, after a "…", so that
// the match is in view. The rest of the cell is drawn as the style draws any item.
// GUI thread only.

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
    static constexpr int kContextChars = 8; // shown before a match scrolled into view

private:
    const InspectorModel *m_model = nullptr;
};

} // namespace streamscope::ui
