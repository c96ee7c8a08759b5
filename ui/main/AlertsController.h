#pragma once

// The desktop app's side of the alerts. AlertService evaluates the rules, sends the
// notifications and saves the flight recorder, for the window as for headless mode; this
// controller feeds it each stream once a second with the stream table's figures, a tenth of
// the rows on each tick (those the tick is due for: see SnapshotHub) (the rows the engine
// and the agents run; an open capture raises nothing), tells it when a stream starts or goes,
// hands it the destinations, and shows what it reports: the row's alert colour, the Alerts
// list, the event log, the taskbar flash, a beep when asked for, a tray message and a status
// bar message. Streams → Alert rules… edits the rules (with a preview from the samples kept in
// an AlertTrail), Streams → Alert destinations… the destinations of every stream.
//
// Thread contract: GUI thread only. Owns the Alerts list's model and the tray icon; the
// service, the engine, the table, the event log and the workspace are the window's.

#include "AlertTrail.h"
#include "SnapshotHub.h"
#include "StreamConfig.h"
#include "StreamTypes.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

class QMainWindow;
class QStandardItemModel;
class QSystemTrayIcon;

namespace streamscope {
class Engine;
}
namespace streamscope::alerts {
class AlertService;
struct AlertEvent;
} // namespace streamscope::alerts

namespace streamscope::ui {

class EventLogModel;
class MainActions;
class StreamTableModel;
class WorkspaceController;

class AlertsController : public QObject {
    Q_OBJECT
public:
    AlertsController(Engine *engine, alerts::AlertService *service, StreamTableModel *model, EventLogModel *eventLog,
                     MainActions *actions, WorkspaceController *workspace, QMainWindow *window);

    // The alerts active now, one row each until they clear: since, stream, text; the stream's
    // id (Qt::UserRole) and the condition (Qt::UserRole + 1) in column 0's data.
    QStandardItemModel *activeAlerts() const { return m_active; }

    // Every tick: the rows the engine or an agent runs that the tick is due for, with the
    // table's figures; on slow ticks the cross-venue view of every row first.
    void onTick(const SnapshotHub::Tick &tick);
    // The rows the last tick evaluated.
    int evaluatedLastTick() const { return m_evaluatedLastTick; }
    // The stream was restarted or edited: its rate rule warms up again.
    void streamStarted(StreamId id);
    // Rows that went (an agent let go of; the engine's own streams are forgotten as it removes
    // them): their open episodes end without a notification.
    void forgetRows(const QList<StreamId> &ids);
    // The workspace's destinations (every stream's alerts) and the streams' own, to the service.
    void syncDestinations();
    // Streams → Alert destinations…
    void editDestinations();
    // Streams → Alert rules…
    void editRules();
    // What the rules were evaluated on, the last ten minutes of every row (the rules editor's preview).
    const alerts::AlertTrail &trail() const { return m_trail; }

signals:
    // One per alert episode raised (also shown as a tray notification when a tray exists).
    void alertNotified(const QString &title, const QString &text);
    // The Alerts list holds `count` rows now (the dock's title).
    void activeCountChanged(int count);

private:
    void onRaised(StreamId id, int condition, const alerts::AlertEvent &event);
    void onCleared(StreamId id, int condition, const alerts::AlertEvent &event);
    void forget(StreamId id);
    QVector<StreamConfig> streamConfigs() const; // the engine's streams, for their own destinations
    // Drops the stream's rows of the Alerts list: those of `condition`, or all with -1.
    void removeRows(StreamId id, int condition);

    QPointer<Engine> m_engine;
    alerts::AlertService *m_service = nullptr;
    StreamTableModel *m_model = nullptr;
    EventLogModel *m_eventLog = nullptr;
    MainActions *m_actions = nullptr;
    WorkspaceController *m_workspace = nullptr;
    QMainWindow *m_window = nullptr;
    QStandardItemModel *m_active = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
    alerts::AlertTrail m_trail;
    int m_evaluatedLastTick = 0;
};

} // namespace streamscope::ui
