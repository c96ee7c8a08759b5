#pragma once

// File → Export and the export entries of the context menus (docs/user-guide.md, "Export"):
// asks where to write, writes through the functions of Export.h and says how it went (a
// message box naming the file and the reason, or the status bar). Also Copy rows and Copy
// rows as CSV: the selected rows as text, in the table's order and visible columns.
//
// Thread contract: GUI thread only. Owns nothing but its connections; the widgets it exports
// are the window's.

#include <QtCore/QObject>

class QDockWidget;
class QMainWindow;
class QSortFilterProxyModel;
class QTableView;

namespace streamscope::ui {

class LatencyChart;
class MainActions;
class MessageInspector;
class RateChart;
class SelectionController;
class SnapshotHub;
class StreamDetails;

class ExportController : public QObject {
    Q_OBJECT
public:
    struct Parts {
        QTableView *table = nullptr;
        QSortFilterProxyModel *proxy = nullptr;
        StreamDetails *details = nullptr;
        QDockWidget *detailsDock = nullptr;
        RateChart *rateChart = nullptr;
        LatencyChart *latencyChart = nullptr;
        QDockWidget *chartsDock = nullptr;
        MessageInspector *inspector = nullptr;
    };
    ExportController(const Parts &parts, SelectionController *selection, SnapshotHub *hub, MainActions *actions,
                     QMainWindow *window);

    // The selected rows with a header line, in the table's order and visible columns: as
    // tab-separated text (Copy rows; a tab or line break in a cell becomes a space) or as
    // RFC 4180 CSV (Copy rows as CSV; a cell that a spreadsheet would take for a formula is
    // prefixed with an apostrophe).
    enum class RowFormat { Unknown = 0, Tsv, Csv };
    QString selectedRowsText(RowFormat format) const;

private:
    void connectExports(MainActions *actions);
    // Asks where to write (a save dialog starting in the last export folder); empty: cancelled.
    QString askPath(const QString &title, const QString &fileName, const QString &filter);
    // A failed export's message box naming the file and the reason; a done one in the status bar.
    void showResult(bool ok, const QString &path, const QString &error, const QString &note = QString());
    // The table's columns shown, in the order shown, without the buttons.
    QList<int> shownColumns() const;

    Parts m_parts;
    SelectionController *m_selection = nullptr;
    SnapshotHub *m_hub = nullptr;
    QMainWindow *m_window = nullptr;
};

} // namespace streamscope::ui
