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

// A tooltip that shows `text` as it is. Qt draws a tooltip whose first line looks like markup
// ("<b>", "<img src=...>", "&lt;") as HTML, so a stream name, a path or a peer's message could
// format, hide or fetch what the user hovers; such a text is escaped into a paragraph that
// keeps its spaces and line breaks. Any other text is returned unchanged (Qt shows it plain).
// Every tooltip built from a peer's or the user's text goes through it.
QString plainToolTip(const QString &text);

} // namespace streamscope::ui
