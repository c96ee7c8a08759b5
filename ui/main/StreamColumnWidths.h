#pragma once

// The stream table's column widths on the window's first size (docs/user-guide.md, "The stream
// table"): each column's usual width, or, in a window narrower than kCompactBelowPx, compact
// widths for the figures (State .. Errors) that hold their header and the widest text the
// column's formatter writes for values in the usual range (StreamCells::widestFigures) in the
// font the table draws it in, so that more of them are in view beside the frozen name without
// scrolling. A usual width is never narrower than that either.
// Pure functions of the table given; GUI thread.

#include <QtCore/QVector>

QT_BEGIN_NAMESPACE
class QTableView;
QT_END_NAMESPACE

namespace streamscope::ui {

namespace StreamColumnWidths {

// A first window narrower than this (a 1280- or 1366-pixel laptop) takes the compact widths.
inline constexpr int kCompactBelowPx = 1400;

// A width for each column of StreamTableModel, in pixels at `table`'s font and style.
QVector<int> widths(const QTableView *table, bool compact);

} // namespace StreamColumnWidths

} // namespace streamscope::ui
