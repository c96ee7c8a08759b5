#pragma once

// A table view whose first columns (in the order shown) stay in place while the others scroll
// sideways, as a spreadsheet's frozen columns do: the stream table keeps each row's name and
// buttons in view beside the figures of a narrow window. Built as Qt's "Frozen Column"
// example: a second view over the table's left edge, on the same model and selection model,
// showing only the frozen columns; scrolling, row heights, column widths and order, sorting,
// hover, clicks, double-clicks and context menus go through to the table, so that code that
// knows only the table sees every row action.
// GUI thread only; owns the overlay view.

#include <QtWidgets/QTableView>

namespace streamscope::ui {

class FrozenColumnsView : public QTableView {
    Q_OBJECT
public:
    explicit FrozenColumnsView(int frozenCount, QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    // The overlay: the frozen columns as the user sees them (tests, event filters).
    QTableView *frozenView() const { return m_frozen; }
    // Where the frozen columns end, in viewport pixels: cells left of it are behind the overlay.
    int frozenWidth() const;
    // Shows the overlay's columns as the table's: which, in which order, how wide, and the sort
    // indicator. Run on every change of the table's header; public for a restored header state.
    void syncFrozen();

protected:
    void resizeEvent(QResizeEvent *event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex &index, ScrollHint hint = EnsureVisible) override;
    void updateGeometries() override;

private:
    void placeFrozen();

    const int m_frozenCount;
    QTableView *m_frozen = nullptr;
    bool m_syncing = false;
};

} // namespace streamscope::ui
