#pragma once

// Captures in the desktop app (docs/capture.md): recording the streams (Streams → Record, the
// row's record button, Streams → Recording folder…, kept in the settings) and opening a
// capture file (File → Open capture…, Close capture). An opened capture is read on a worker
// thread by the SnapshotHub's CaptureList and shown as an offline, read-only row
// ("NAME (capture)") with its own rate and percentiles, its events in the event log and, once
// selected, its messages, histogram and rate in the panes (SelectionController).
//
// Thread contract: GUI thread only. Owns its two File menu actions; the engine, the hub, the
// table, the event log and the workspace are the window's.

#include "StreamTypes.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <functional>

class QAction;
class QMainWindow;

namespace streamscope {
class Engine;
}

namespace streamscope::ui {

class EventLogModel;
class MainActions;
class SnapshotHub;
class StreamTableModel;
class WorkspaceController;

class CaptureController : public QObject {
    Q_OBJECT
public:
    CaptureController(Engine *engine, SnapshotHub *hub, StreamTableModel *model, EventLogModel *eventLog,
                      WorkspaceController *workspace, MainActions *actions, QMainWindow *window);

    // Streams → Record: starts or stops recording the streams into recordingFolder().
    void setRecording(const QList<StreamId> &ids, bool on);
    // Starts recording those of `ids` that do not record, or stops all when every one does.
    void toggleRecording(const QList<StreamId> &ids);
    QString recordingFolder() const;
    void setRecordingFolder(const QString &dir);

    // File → Open capture…: reads the capture on a worker thread, then shows its row.
    void open(const QString &path);
    // File → Close capture; false if `id` is not an open capture.
    bool close(StreamId id);
    // Where File → Open capture… takes its file from instead of a file dialog (tests).
    void setFileChooser(std::function<QString()> chooser) { m_chooser = std::move(chooser); }
    QString lastError() const { return m_lastError; }
    QAction *openAction() const { return m_open; }
    QAction *closeAction() const { return m_close; }
    // The table's selected rows: Close capture acts on the captures among them.
    void setSelection(const QList<StreamId> &rows);

signals:
    // Its row is in the table now (its figures and events too).
    void opened(streamscope::StreamId id);
    // Its row is gone.
    void closed(streamscope::StreamId id);
    void recordingFolderChanged(const QString &dir);

private:
    void onOpened(StreamId id);
    void onFailed(const QString &path, const QString &error);

    QPointer<Engine> m_engine;
    SnapshotHub *m_hub = nullptr;
    StreamTableModel *m_model = nullptr;
    EventLogModel *m_eventLog = nullptr;
    WorkspaceController *m_workspace = nullptr;
    QMainWindow *m_window = nullptr;
    QAction *m_open = nullptr;
    QAction *m_close = nullptr;
    QList<StreamId> m_selected;
    std::function<QString()> m_chooser;
    QString m_lastError;
};

} // namespace streamscope::ui
