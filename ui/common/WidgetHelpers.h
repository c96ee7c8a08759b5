#pragma once

// Small behaviours several widgets share. GUI thread only.

class QAbstractItemModel;
class QLineEdit;
class QTableView;

namespace streamscope::ui {

// Esc in `edit` clears it (a filter field: one key back to everything).
void addClearOnEscape(QLineEdit *edit);
// A read-only list of log rows (event log, alerts, responses): whole-row selection, one
// line per row, no row numbers, the last column stretched.
QTableView *makeLogView(QAbstractItemModel *model);

} // namespace streamscope::ui
