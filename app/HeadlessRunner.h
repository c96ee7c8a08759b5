#pragma once

// `streamscope --headless`: runs the engine on a workspace without any GUI, prints one live
// line per stream every second, serves metrics if asked, and with --report writes the report
// on exit — after --duration, on Ctrl-C or on SIGTERM alike. SIGHUP reloads the workspace
// file (WorkspaceReload): streams added, removed or changed take effect, unchanged ones run on.
//
// Thread contract: lives on the main thread, which runs the event loop.

#include "AppOptions.h"
#include "StreamSnapshot.h"
#include "Workspace.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QTimer>

#include <memory>

namespace streamscope {
class Engine;
}

namespace streamscope::alerts {
class AlertService;
}

namespace streamscope::app {

class MetricsServer;
class TerminationSignals;

class HeadlessRunner : public QObject {
    Q_OBJECT
public:
    HeadlessRunner(const AppOptions &options, const Workspace &workspace, QObject *parent = nullptr);
    ~HeadlessRunner() override;

    // Starts everything; returns false (with a message printed) when it cannot.
    bool start();
    int exitCode() const { return m_exitCode; }

signals:
    void finished(int exitCode);

private:
    // The workspace's flight recorder with --flight-recorder applied.
    FlightConfig flightConfig(const Workspace &workspace) const;
    // The streams with --record applied: every one records to its folder.
    QVector<StreamConfig> withRecordOption(QVector<StreamConfig> streams) const;
    void printLiveLines();
    void reloadWorkspace();
    void finish(const QString &why);

    AppOptions m_options;
    Workspace m_workspace;
    QHash<QString, StreamId> m_ids; // the running streams by name
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<MetricsServer> m_metrics;
    std::unique_ptr<TerminationSignals> m_signals;
    std::unique_ptr<alerts::AlertService> m_alerts; // the workspace's alert rules and notifications
    QTimer m_liveTimer;
    QTimer m_durationTimer;
    QElapsedTimer m_clock;
    QVector<StreamSnapshot> m_previous;
    int m_exitCode = 0;
    bool m_finished = false;
};

} // namespace streamscope::app
