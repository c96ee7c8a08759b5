#pragma once

// The flight recorder in the desktop app (docs/capture.md, "Flight recorder"): Streams → Save
// the last N minutes, Streams → Flight recorder… (saved with the workspace), and the status
// bar's memory figure, refreshed on every tick. The save an alert makes is AlertService's;
// both saves are listed in the event log with a link to their file.
//
// Thread contract: GUI thread only. Owns its two Streams menu actions and its status bar
// label; the engine, the hub, the event log and the other controllers are the window's.

#include "FlightConfig.h"
#include "StreamTypes.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

class QAction;
class QLabel;
class QMainWindow;

namespace streamscope {
class Engine;
}

namespace streamscope::ui {

class CaptureController;
class EventLogModel;
class MainActions;
class SelectionController;
class SnapshotHub;
class WorkspaceController;

class FlightRecorderController : public QObject {
    Q_OBJECT
public:
    FlightRecorderController(Engine *engine, SnapshotHub *hub, SelectionController *selection,
                             CaptureController *capture, EventLogModel *eventLog, WorkspaceController *workspace,
                             MainActions *actions, QMainWindow *window);

    // The settings now in force, applied and marked as a change to the workspace.
    void setConfig(const FlightConfig &config);
    // Streams → Save the last N minutes: the files being written, one per stream whose flight
    // recorder is on.
    QStringList save(const QList<StreamId> &ids);
    // Streams → Flight recorder…
    void editSettings();
    // The action's text and state, the status bar's figure.
    void refresh();

private:
    QPointer<Engine> m_engine;
    SnapshotHub *m_hub = nullptr;
    SelectionController *m_selection = nullptr;
    CaptureController *m_capture = nullptr;
    EventLogModel *m_eventLog = nullptr;
    WorkspaceController *m_workspace = nullptr;
    QMainWindow *m_window = nullptr;
    QAction *m_save = nullptr;     // Streams → Save the last N minutes
    QAction *m_settings = nullptr; // Streams → Flight recorder…
    QLabel *m_status = nullptr;
};

} // namespace streamscope::ui
