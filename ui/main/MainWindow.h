#pragma once

// StreamScope's main window: the stream table with per-row and multi-select controls,
// the charts, the message inspector, results / errors / event log panels, alerts and the
// status bar. Its commands are MainActions; its file is a WorkspaceController (open, save,
// recent, ask on quit, keychain); the layout and alert rules travel in the workspace.
// The implementation spans files by concern: MainWindow.cpp (construction, ticks, alerts,
// look), MainWindow_Streams.cpp (selection and stream commands), MainWindow_Workspace.cpp
// (applying and capturing a workspace and the layout).
//
// Thread contract: GUI thread only. It never handles messages: its SnapshotHub reads the
// engine's, the agents' and the captures' snapshots ten times a second (with latency once a
// second) and everything shown is derived from those readings. Owns its models, panels, actions and workspace controller; does not own
// the engine, which must outlive it or be destroyed first (the window then shows nothing).

#include "FlightAlertSaver.h"
#include "HostClock.h"
#include "SnapshotHub.h"
#include "StreamRecords.h"
#include "StreamSnapshot.h"
#include "StreamTypes.h"
#include "Workspace.h"
#include "WorkspaceController.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QUrl>
#include <QtNetwork/QSslCertificate>
#include <QtWidgets/QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QSplitter;
class QStandardItemModel;
class QSystemTrayIcon;
class QTableView;
class QTimer;

namespace streamscope {
class Engine;
}
namespace streamscope::alerts {
class AlertMonitor;
class Notifier;
} // namespace streamscope::alerts

namespace streamscope::ui {

using alerts::AlertMonitor;
using alerts::Notifier;
class CaptureList;
class CpuMeter;
class EventLogFilter;
class EventLogModel;
class LatencyChart;
class MainActions;
class MessageInspector;
class RemoteAgent;
class RateChart;
class StreamHistory;
class ResponseModel;
class StreamSortProxy;
class StreamActionDelegate;
class StreamDetails;
class StreamTableModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The first window's size on a screen large enough; smaller screens get 90 % of theirs.
    static constexpr QSize kLargestFirstSize{1800, 1000};

    explicit MainWindow(streamscope::Engine *engine, QWidget *parent = nullptr); // does not own the engine
    ~MainWindow() override;

    // Loads the file, replaces the current streams with its streams and restores its
    // layout and alerts. On failure returns false, sets `error` and changes nothing.
    bool openWorkspace(const QString &path, QString *error = nullptr);
    // Same from a workspace in memory (the built-in demo); an empty path is untitled.
    void setWorkspace(const streamscope::Workspace &ws, const QString &path);
    // Shown before the workspace now shown is first saved (the demo's: what a copy cannot do).
    void setSaveNote(const QString &note);
    // What "Save" would write now.
    streamscope::Workspace currentWorkspace() const;
    bool saveWorkspace(const QString &path, QString *error = nullptr);
    QString workspacePath() const { return m_workspace->path(); }
    bool isModified() const { return m_workspace->isModified(); }

    // For tests and the app's wiring.
    StreamTableModel *streamModel() const { return m_model; }
    QSortFilterProxyModel *streamProxy() const;
    // The selected rows with a header line, in the table's order and visible columns: as
    // tab-separated text (Copy rows; a tab or line break in a cell becomes a space) or as
    // RFC 4180 CSV (Copy rows as CSV; a cell that a spreadsheet would take for a formula is
    // prefixed with an apostrophe).
    enum class RowFormat { Tsv, Csv };
    QString selectedRowsText(RowFormat format = RowFormat::Tsv) const;
    // The table's columns as checkable actions (the header's context menu).
    void fillColumnMenu(QMenu *menu);
    QTableView *streamTable() const { return m_table; }
    AlertMonitor *alertMonitor() const { return m_alerts; }
    Notifier *notifier() const { return m_notifier; }
    // The workspace's own notification destinations (every stream's alerts); a stream's own
    // travel in its StreamConfig.
    QList<NotifyTarget> notifyTargets() const { return m_notifyTargets; }
    void setNotifyTargets(const QList<NotifyTarget> &targets);
    // Opens the "Alert destinations" dialog (Stream menu).
    void editNotifyTargets();
    MessageInspector *inspector() const { return m_inspector; }
    EventLogModel *eventLog() const { return m_eventLog; }
    QStandardItemModel *activeAlerts() const { return m_activeAlerts; }
    RateChart *rateChart() const { return m_rateChart; }
    LatencyChart *latencyChart() const { return m_latencyChart; }
    StreamDetails *details() const { return m_details; }
    QDockWidget *detailsDock() const { return m_detailsDock; }
    // The selected streams that can be acted on (local ones; a remote agent's are read-only).
    QList<StreamId> selectedStreams() const;
    // Every selected row's stream, remote ones included (what the charts show).
    QList<StreamId> selectedRows() const;
    // Shows a headless agent's streams beside the local ones (File → Connect to agent…).
    RemoteAgent *connectAgent(const QString &name, const QUrl &url, const QByteArray &basicAuth = {},
                              const QList<QSslCertificate> &caCertificates = {});
    const QList<RemoteAgent *> &agents() const { return m_hub->agents(); }
    // Starts or stops recording the streams (Streams → Record), into recordingFolder().
    void setRecording(const QList<StreamId> &ids, bool on);
    QString recordingFolder() const; // Streams → Recording folder…; saved in the settings
    void setRecordingFolder(const QString &dir);
    // The flight recorder (Streams → Flight recorder…), saved with the workspace.
    void setFlightRecorder(const FlightConfig &config);
    // Streams → Save the last N minutes: the files being written, one per stream whose
    // flight recorder is on.
    QStringList saveFlightRecordings(const QList<StreamId> &ids);
    void disconnectAgents();
    // File → Open capture… (MainWindow_Capture.cpp): reads the capture on a worker thread, then
    // shows it as an offline, read-only row ("NAME (capture)") with its messages in the
    // inspector, its histogram, its rate over its own time span and its events in the event log.
    void openCapture(const QString &path);
    bool closeCapture(StreamId id); // File → Close capture; false if it is not an open capture
    CaptureList *captures() const { return m_hub->captures(); }
    QAction *openCaptureAction() const { return m_openCapture; }
    QAction *closeCaptureAction() const { return m_closeCapture; }
    // Where File → Open capture… takes its file from instead of a file dialog (tests).
    void setCaptureFileChooser(std::function<QString()> chooser);
    QString lastCaptureError() const { return m_lastCaptureError; }
    void selectStream(StreamId id);
    // One tick of the snapshot hub now; `slow` also does the once-a-second work.
    void refreshNow(bool slow = true);
    SnapshotHub *hub() const { return m_hub; }

signals:
    // One per alert episode (also shown as a tray notification when a tray exists).
    void alertNotified(const QString &title, const QString &text);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override; // fits the window once its frame is known
    void changeEvent(QEvent *event) override;   // a palette turned dark or light

private:
    void connectActions();
    // File → Export and the context menus of the table, Details pane, charts and inspector
    // (MainWindow_Export.cpp).
    void connectExports();
    // Asks where to write (a save dialog starting in the last export folder); empty: cancelled.
    QString askExportPath(const QString &title, const QString &fileName, const QString &filter);
    // A failed export's message box naming the file and the reason; a done one in the status bar.
    void showExportResult(bool ok, const QString &path, const QString &error, const QString &note = QString());
    void buildCentral();
    void buildDocks();
    void buildStatusBar();
    void setDefaultLayout();
    // Drops the stream's active alert rows (all of them when `condition` is -1).
    void removeActiveAlerts(StreamId id, int condition);
    void updateAlertsTitle();
    // The event log's stream and severity choice, applied (also when the selection changes).
    void updateEventFilter();
    // Enables the stream actions for the selection and the states of its streams.
    void updateActionsForSelection(const QList<StreamId> &ids);
    // Asks before removing; true when the user chose Remove.
    bool confirmRemove(const QList<StreamId> &ids);
    QRect availableScreenArea() const;
    // Shrinks and moves the window so that all of it is on its screen.
    void fitToScreen();

    void onSnapshotsChanged(const QVector<StreamSnapshot> &changed, const QList<StreamId> &removed,
                            const SnapshotHub::Tick &tick);
    void onTicked(const SnapshotHub::Tick &tick);
    void onSelectionChanged();
    void onRowAction(const QModelIndex &proxyIndex, int action);
    void onEngineEvent(const StreamEvent &event);
    void onAlertRaised(StreamId id, const QString &stream, const QString &text, int condition);
    void onAlertCleared(StreamId id, const QString &stream, const QString &text, int condition);
    void onOpenRequested(const QString &path);
    void setupCaptures(); // MainWindow_Capture.cpp
    void onCaptureOpened(StreamId id);
    // A capture selected: the charts and the inspector show it; otherwise they are left alone.
    void showCaptureSelection(StreamId current, const QString &name);
    void evaluateAlerts(qint64 nowMs);
    // Hands the workspace's and the streams' destinations to the notifier.
    void syncNotifier();
    // Sends an episode (`kind`: alerts::AlertEvent::Kind) to the destinations.
    void notifyEpisode(int kind, StreamId id, const QString &stream, const QString &text, int condition,
                       const QString &flightFile = QString());
    // The details pane, from this second's snapshots (none: it takes the stream's own).
    void refreshDetails(const QVector<StreamSnapshot> &snaps = {});
    // The host clock and the CPU are read on slow ticks only.
    void updateStatusBar(const SnapshotHub::Tick &tick);
    void updateClockStatus(const HostClockState &clock);
    // MainWindow_Flight.cpp
    void setupFlightRecorder();
    void updateFlightStatus();
    void editFlightRecorder();
    QString saveFlightForAlert(StreamId id); // the file, or empty (off, or saved a moment ago)

    void addStream();
    void editStream();
    QStringList streamNamesExcept(StreamId except) const; // names the dialog must not reuse
    void stopSelected();
    void restartSelected();
    void removeSelected();
    void stopStreams(const QList<StreamId> &ids);
    void restartStreams(const QList<StreamId> &ids);
    void removeStreams(const QList<StreamId> &ids);
    void subscribeSelected();
    void sendToSelected();
    void copySelectedUrl();
    void toggleRecordingSelected();
    void showContextMenu(const QPoint &pos);

    void newWorkspace();
    // Replaces the streams, rules and layout with `loaded`'s; `path` empty: untitled.
    void applyWorkspace(const WorkspaceController::Loaded &loaded, const QString &path);
    void showAbout();
    void applyTheme(int mode);
    void followPalette(); // m_dark to the table, charts and icons

    QJsonObject saveLayout() const;
    void restoreLayout(const QJsonObject &layout);
    QString streamName(StreamId id) const;

    QPointer<Engine> m_engine;
    SnapshotHub *m_hub = nullptr; // the engine's, the agents' and the captures' rows (child)
    QAction *m_openCapture = nullptr;
    QAction *m_closeCapture = nullptr;
    std::function<QString()> m_captureChooser;
    QString m_lastCaptureError;
    StreamTableModel *m_model = nullptr;
    StreamSortProxy *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QLineEdit *m_filter = nullptr;
    StreamActionDelegate *m_actionDelegate = nullptr;
    std::unique_ptr<StreamHistory> m_history;
    std::unique_ptr<CpuMeter> m_cpu;
    RateChart *m_rateChart = nullptr;
    LatencyChart *m_latencyChart = nullptr;
    QSplitter *m_chartSplitter = nullptr;
    MessageInspector *m_inspector = nullptr;
    StreamDetails *m_details = nullptr;
    ResponseModel *m_results = nullptr;
    ResponseModel *m_errors = nullptr;
    EventLogModel *m_eventLog = nullptr;
    QTableView *m_eventView = nullptr;
    EventLogFilter *m_eventFilter = nullptr;
    QComboBox *m_eventStream = nullptr;
    QComboBox *m_eventSeverity = nullptr;
    AlertMonitor *m_alerts = nullptr;
    Notifier *m_notifier = nullptr;
    QList<NotifyTarget> m_notifyTargets;
    QSystemTrayIcon *m_tray = nullptr;
    MainActions *m_actions = nullptr;
    WorkspaceController *m_workspace = nullptr;

    QDockWidget *m_chartsDock = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QDockWidget *m_resultsDock = nullptr;
    QDockWidget *m_errorsDock = nullptr;
    QDockWidget *m_eventsDock = nullptr;
    QDockWidget *m_alertsDock = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    QStandardItemModel *m_activeAlerts = nullptr; // since, stream, text; id and condition in column 0's data

    QLabel *m_statusStreams = nullptr;
    QLabel *m_statusRate = nullptr;
    QLabel *m_statusCpu = nullptr;
    QLabel *m_statusClock = nullptr;
    QLabel *m_statusRecord = nullptr;
    QLabel *m_statusAlerts = nullptr;
    QLabel *m_statusFlight = nullptr;
    QAction *m_flightSave = nullptr;     // Streams → Save the last N minutes
    QAction *m_flightSettings = nullptr; // Streams → Flight recorder…
    alerts::FlightAlertSaver m_flightSaver;

    QElapsedTimer m_steady;
    QHash<StreamId, qint64> m_startedAtMs; // added or restarted from here, for alert warm-up
    bool m_dark = false;
    QByteArray m_defaultState;
};

} // namespace streamscope::ui
