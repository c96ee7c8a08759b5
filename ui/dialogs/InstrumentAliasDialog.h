#pragma once

// The Cross-venue pane's "Aliases…": the user's instrument mapping (the workspace's
// "instrument_aliases"; docs/venues.md, "One instrument across venues"), one row per alias: a
// venue's spelling and the normalised name it stands for ("XBT/USD" → "BTC-USD"). Each row
// shows what the spelling is compared by without an alias. OK refuses a row whose spelling is
// no instrument name or whose name is not normalised, naming the row, as the workspace's reader
// does for the file.
//
// Thread contract: GUI thread only. Owns its widgets.

#include "InstrumentSymbol.h"

#include <QtWidgets/QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace streamscope::ui {

class InstrumentAliasDialog : public QDialog {
    Q_OBJECT
public:
    explicit InstrumentAliasDialog(const InstrumentAliases &current, QWidget *parent = nullptr);

    InstrumentAliases aliases() const { return m_result; }
    // Adds an empty row and starts editing its spelling.
    void addRow();
    QTableWidget *table() const { return m_table; }

    void accept() override;

private:
    void appendRow(const QString &spelling, const QString &name);
    void updateHints();

    QTableWidget *m_table = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_error = nullptr;
    InstrumentAliases m_result;
};

} // namespace streamscope::ui
