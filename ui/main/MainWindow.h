#pragma once

// StreamScope's main window: the stream table with per-row and multi-select controls, the
// charts, the message inspector, details, results / errors / event log panes, alerts and
// the status bar. The window builds the layout and the menus and composes the parts that do
// the work, each a class of its own concern:
//   - SnapshotHub: the one source of the rows (engine, remote agents, open captures), ten
//     ticks a second, handing each consumer what changed;
//   - MainActions: the commands, placed in the menus, toolbar and context menu;
//   - SelectionController: what the panes show of the selection, and the per-second history;
//   - WorkspaceController: the workspace (streams, rules, layout) and its file;
//   - CaptureController: recording and opening captures;
//   - FlightRecorderController: the flight recorder's menu entries and status;
//   - AlertsController: the GUI's side of AlertService, the one alert path it shares with
//     headless mode (rules, notifications, flight recorder saves);
//   - StatusBarController, ExportController: the status bar; File → Export and Copy rows.
// Its own files: MainWindow.cpp (composition, look), MainWindow_Layout.cpp (the table, the
// docks, saving and restoring the layout), MainWindow_Streams.cpp (the commands that act on
// the selected streams).
//
// Thread contract: GUI thread only. It never handles messages: everything shown is derived
// from the hub's readings of the engine's snapshots. Owns its models, panes, actions and
// controllers; does not own the engine, which must outlive it or be destroyed first (the
// window then shows nothing).

#include "ExportController.h"
#include "FrozenColumnsView.h"
#include "SnapshotHub.h"
#include "StreamActionDelegate.h"
#include "StreamRecords.h"
#include "StreamSnapshot.h"
#include "StreamTypes.h"
#include "Theme.h"
#include "Workspace.h"
#include "WorkspaceController.h"

#include <QtCore/QPointer>
#include <QtCore/QUrl>
#include <QtNetwork/QSslCertificate>
#include <QtWidgets/QMainWindow>

#include <functional>

class QAction;
class QDockWidget;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QSplitter;
class QStandardItemModel;
class QTableView;

namespace streamscope {
class Engine;
}
namespace streamscope::alerts {
class AlertService;
}

namespace streamscope::ui {

class AlertsController;
class CaptureController;
class CrossVenuePane;
class CaptureList;
class DepthLadder;
class EventLogModel;
class EventLogPane;
class FlightRecorderController;
class LatencyChart;
class MainActions;
class MessageInspector;
class RateChart;
class RemoteAgent;
class ResponseModel;
class SelectionController;
class StatusBarController;
class StreamDetails;
class StreamSortProxy;
class StreamTableModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The first window's size on a screen large enough; smaller screens get 90 % of theirs.
    static constexpr QSize kLargestFirstSize{1800, 1000};

    explicit MainWindow(streamscope::Engine *engine, QWidget *parent = nullptr); // does not own the engine
    ~MainWindow() override;

    // The workspace (WorkspaceController): opening replaces the streams, rules and layout;
    // on failure returns false, sets `error` and changes nothing.
    bool openWorkspace(const QString &path, QString *error = nullptr) { return m_workspace->open(path, error); }
    // A workspace in memory (the built-in demo); an empty path is untitled.
    void setWorkspace(const streamscope::Workspace &ws, const QString &path) { m_workspace->show(ws, path); }
    // Shown before the workspace now shown is first saved (the demo's: what a copy cannot do).
    void setSaveNote(const QString &note) { m_workspace->setSaveNote(note); }
    // What "Save" would write now.
    streamscope::Workspace currentWorkspace() const { return m_workspace->current(); }
    bool saveWorkspace(const QString &path, QString *error = nullptr) { return m_workspace->write(path, error); }
    QString workspacePath() const { return m_workspace->path(); }
    bool isModified() const { return m_workspace->isModified(); }

    // For tests and the app's wiring.
    SnapshotHub *hub() const { return m_hub; }
    StreamTableModel *streamModel() const { return m_model; }
    QSortFilterProxyModel *streamProxy() const;
    QTableView *streamTable() const { return m_table; }
    using RowFormat = ExportController::RowFormat;
    // Copy rows / Copy rows as CSV: see ExportController::selectedRowsText().
    QString selectedRowsText(RowFormat format = RowFormat::Tsv) const { return m_export->selectedRowsText(format); }
    // The table's columns as checkable actions (the header's context menu).
    void fillColumnMenu(QMenu *menu);
    alerts::AlertService *alertService() const { return m_alertService; }
    AlertsController *alerts() const { return m_alerts; }
    MessageInspector *inspector() const { return m_inspector; }
    EventLogModel *eventLog() const { return m_eventLog; }
    QStandardItemModel *activeAlerts() const;
    RateChart *rateChart() const { return m_rateChart; }
    LatencyChart *latencyChart() const { return m_latencyChart; }
    StreamDetails *details() const { return m_details; }
    DepthLadder *ladder() const { return m_ladder; }
    QDockWidget *bookDock() const { return m_bookDock; }
    QDockWidget *crossVenueDock() const { return m_crossVenueDock; }
    CrossVenuePane *crossVenuePane() const { return m_crossVenue; }
    QDockWidget *detailsDock() const { return m_detailsDock; }
    SelectionController *selection() const { return m_selection; }
    // The selected streams that can be acted on (local ones; a remote agent's are read-only).
    QList<StreamId> selectedStreams() const;
    // Every selected row's stream, remote ones included (what the charts show).
    QList<StreamId> selectedRows() const;
    void selectStream(StreamId id);
    // Shows a headless agent's streams beside the local ones (File → Connect to agent…).
    RemoteAgent *connectAgent(const QString &name, const QUrl &url, const QByteArray &basicAuth = {},
                              const QList<QSslCertificate> &caCertificates = {});
    // The same with all its settings; a password typed in (basicAuth without passwordRef) is
    // stored in the keychain ("agent.NAME") and referred to, so that the workspace can save it.
    RemoteAgent *connectAgent(RemoteAgent::Settings settings);
    // A workspace's agents, in place of those watched now (they reconnect).
    void connectAgents(const QVector<AgentConfig> &agents);
    // The agents watched now, as the workspace saves them.
    QVector<AgentConfig> agentConfigs() const;
    void disconnectAgents();
    // What --report writes when the window closes: the headless report's fields, the alerts'
    // (alerts_raised, alerts_active, "alerts", "notify") included.
    QJsonObject report(double durationS) const;
    CaptureController *capture() const { return m_capture; }
    CaptureList *captures() const { return m_hub->captures(); }
    FlightRecorderController *flightRecorder() const { return m_flight; }
    // One tick of the snapshot hub now; `slow` also does the once-a-second work.
    void refreshNow(bool slow = true);

signals:
    // One per alert episode (also shown as a tray notification when a tray exists).
    void alertNotified(const QString &title, const QString &text);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override; // fits the window once its frame is known
    void changeEvent(QEvent *event) override;   // a palette turned dark or light

private:
    void connectActions();
    void connectTicks();
    // MainWindow_Layout.cpp
    void buildCentral();
    void buildDocks();
    void setDefaultLayout();
    // The stream table's columns at their usual or compact widths (StreamColumnWidths).
    void setColumnWidths(bool compact);
    QJsonObject saveLayout() const;
    void restoreLayout(const QJsonObject &layout);
    QRect availableScreenArea() const;
    // Shrinks and moves the window so that all of it is on its screen.
    void fitToScreen();

    // MainWindow_Streams.cpp
    // Enables the stream actions for the selection and the states of its streams.
    void updateActionsForSelection();
    void onRowAction(const QModelIndex &proxyIndex, StreamActionDelegate::Action action);
    // Asks before removing; true when the user chose Remove.
    bool confirmRemove(const QList<StreamId> &ids);
    void addStream();
    void editStream();
    QStringList streamNamesExcept(StreamId except) const; // names the dialog must not reuse
    void stopStreams(const QList<StreamId> &ids);
    void restartStreams(const QList<StreamId> &ids);
    void removeStreams(const QList<StreamId> &ids);
    void subscribeSelected();
    void sendToSelected();
    void copySelectedUrl();
    void showContextMenu(const QPoint &pos);

    void showAbout();
    void applyTheme(Theme::Mode mode);
    void followPalette(); // m_dark to the table, charts, status bar and icons

    QPointer<Engine> m_engine;
    SnapshotHub *m_hub = nullptr;
    StreamTableModel *m_model = nullptr;
    StreamSortProxy *m_proxy = nullptr;
    FrozenColumnsView *m_table = nullptr; // the name and buttons stay in view
    QLineEdit *m_filter = nullptr;
    StreamActionDelegate *m_actionDelegate = nullptr;
    RateChart *m_rateChart = nullptr;
    LatencyChart *m_latencyChart = nullptr;
    QSplitter *m_chartSplitter = nullptr;
    MessageInspector *m_inspector = nullptr;
    StreamDetails *m_details = nullptr;
    DepthLadder *m_ladder = nullptr;
    ResponseModel *m_results = nullptr;
    ResponseModel *m_errors = nullptr;
    EventLogModel *m_eventLog = nullptr;
    EventLogPane *m_eventPane = nullptr;
    MainActions *m_actions = nullptr;
    alerts::AlertService *m_alertService = nullptr;
    WorkspaceController *m_workspace = nullptr;
    AlertsController *m_alerts = nullptr;
    SelectionController *m_selection = nullptr;
    CaptureController *m_capture = nullptr;
    FlightRecorderController *m_flight = nullptr;
    StatusBarController *m_status = nullptr;
    ExportController *m_export = nullptr;

    QDockWidget *m_chartsDock = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QDockWidget *m_resultsDock = nullptr;
    QDockWidget *m_errorsDock = nullptr;
    QDockWidget *m_eventsDock = nullptr;
    QDockWidget *m_alertsDock = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    QDockWidget *m_bookDock = nullptr;
    QDockWidget *m_crossVenueDock = nullptr;
    CrossVenuePane *m_crossVenue = nullptr;
    bool m_dark = false;
    QByteArray m_defaultState;
};

} // namespace streamscope::ui
