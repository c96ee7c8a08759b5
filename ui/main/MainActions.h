#pragma once

// The main window's commands as QActions — text, icon, shortcut, tooltip — and where they
// appear: the menu bar, the toolbar and the stream table's context menu. This unit creates
// and places them and sets their enabled state and text from the selection; the window
// and its controllers connect their triggered() signals. (CaptureController and
// FlightRecorderController add their own entries to the File and Streams menus.)
//
// Thread contract: GUI thread only. The actions and menus are children of the window.

#include "Theme.h"

#include <QtCore/QList>
#include <QtCore/QObject>

class QAction;
class QActionGroup;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace streamscope::ui {

class MainActions : public QObject {
    Q_OBJECT
public:
    explicit MainActions(QMainWindow *window);

    // The menu bar (File, Streams, View with a toggle per dock, Help) and the toolbar.
    void fillMenuBar(const QList<QDockWidget *> &docks);
    void addToolBar();
    // The stream table's context menu.
    void fillContextMenu(QMenu *menu) const;
    // Enables what acts on `selected` streams and says how many in the text ("Stop 3").
    // `selected` streams, of which `running` are at work (isRunning()): Stop needs a running
    // one; Restart reads Start when none of them runs.
    void updateForSelection(int selected, int running, int recording = 0);
    // The stream controls' icons in the current palette (after a theme change).
    void updateIcons();
    // Checks the theme action of `mode`.
    void checkTheme(Theme::Mode mode);

    // Streams
    QAction *const add;
    QAction *const edit;
    QAction *const stop;
    QAction *const restart;
    QAction *const remove;
    QAction *const stopAll;
    QAction *const record;       // starts (or, when every selected stream records, stops) recording
    QAction *const recordFolder; // where new recordings go
    QAction *const subscribe;
    QAction *const send;
    QAction *const inspect;
    QAction *const copyUrl;
    QAction *const findStream;     // focuses the stream filter
    QAction *const nextStream;     // selects the next row of the table (Alt+Down)
    QAction *const previousStream; // ... the previous one (Alt+Up)
    // Workspace
    QAction *const newWorkspace;
    QAction *const open;
    QAction *const save;
    QAction *const saveAs;
    QAction *const connectAgent;     // File → Connect to agent…
    QAction *const disconnectAgents; // ... and let go of them all
    QAction *const quit;
    // View and help
    QAction *const resetLayout;
    QAction *const correctedLatency;  // checkable: latency corrected for the venue's clock (saved in the layout)
    QActionGroup *const themes;       // data(): the Theme::Mode
    QAction *const userGuide;         // F1; its data() is the guide's URL
    QAction *const alertSound;        // checkable: beep when an alert is raised (saved in the settings)
    QAction *const alertRules;        // Streams > Alert rules…: every rule, with a preview
    QAction *const alertDestinations; // Streams > Alert destinations…: where alerts are sent
    QAction *const copyRows;          // the selected rows as tab-separated text
    QAction *const copyRowsCsv;       // ... as CSV
    QAction *const about;
    // File → Export (docs/user-guide.md, "Export"); the window asks for the file and writes it.
    QAction *const exportTable;     // the stream table as CSV
    QAction *const exportStats;     // the selected stream's statistics (Details pane) as CSV
    QAction *const exportHistogram; // the latency chart's histogram buckets as CSV
    QAction *const exportRatePng;   // the rate chart as PNG
    QAction *const exportLatencyPng;
    QAction *const exportRateSvg; // the rate chart as SVG (vector: for reports and slides)
    QAction *const exportLatencySvg;
    QAction *const exportMessages; // the inspector's filtered messages as NDJSON
    // Filled by the window when it is about to show (recent files).
    QMenu *recentMenu() const { return m_recentMenu; }
    // Puts the inspector's Freeze / Resume (Ctrl+Shift+F) in the Streams menu, after Record.
    void addFreeze(QAction *freeze);

private:
    QMainWindow *m_window = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_streamsMenu = nullptr;
};

} // namespace streamscope::ui
