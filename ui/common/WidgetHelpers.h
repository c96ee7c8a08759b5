#pragma once

// Small behaviours several widgets share. GUI thread only.

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QString;
class QTableView;
class QWidget;

namespace streamscope::ui {

// Esc in `edit` clears it (a filter field: one key back to everything).
void addClearOnEscape(QLineEdit *edit);
// A read-only list of log rows (event log, alerts, responses): whole-row selection, one
// line per row, no row numbers, the last column stretched.
QTableView *makeLogView(QAbstractItemModel *model);

// A label whose figures change every tick without laying out its window: its size is fixed,
// at least the width of `widest` (the widest text it is expected to show). A label whose size
// may change asks its parents for a new layout at every new text (the status bar and the
// main window ten times a second); a fixed one only repaints.
void reserveFigureWidth(QLabel *label, const QString &widest);
// Sets the text only when it changed; a text wider than the label's fixed size widens it once
// (one layout), and it never narrows again.
void setFigureText(QLabel *label, const QString &text);
// Sets the style sheet only when it changed: setting one, even the same, polishes the widget
// again and lays out its window.
void setStyleSheetIfChanged(QWidget *widget, const QString &styleSheet);

} // namespace streamscope::ui
