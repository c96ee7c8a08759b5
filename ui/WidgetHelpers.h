#pragma once

// Small behaviours several widgets share. GUI thread only.

class QLineEdit;

namespace streamscope::ui {

// Esc in `edit` clears it (a filter field: one key back to everything).
void addClearOnEscape(QLineEdit *edit);

} // namespace streamscope::ui
