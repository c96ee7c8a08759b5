#pragma once

// Alerts in headless mode: the workspace's rules evaluated once a second on the same figures
// as the desktop app (StreamFigures), episodes printed (message()) and sent to the
// workspace's "notify" destinations (Notifier), counted for the report and /metrics.
//
// Thread contract: the headless main thread only; evaluate() once a second with a snapshot
// that carries latency. Owns the monitor, the notifier and the per-stream figures.

#include "AlertMonitor.h"
#include "FlightAlertSaver.h"
#include "Notifier.h"
#include "StreamFigures.h"
#include "Workspace.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonObject>
#include <QtCore/QMap>
#include <QtCore/QObject>

namespace streamscope::alerts {

class AlertService : public QObject {
    Q_OBJECT
public:
    explicit AlertService(QObject *parent = nullptr);
    AlertService(const Notifier::Timing &timing, QObject *parent = nullptr);

    // Reads the workspace's alert rules and destinations. False with `error` naming the key
    // ("alerts[1].silent_s: expected ...", "notify[0].token: ...") when a rule is bad or,
    // without a keychain (`keychainAvailable` false: headless), a destination refers to one;
    // then nothing changes. Called again (a reload), the new rules and destinations apply.
    bool configure(const Workspace &workspace, bool keychainAvailable, QString *error);

    // `nowMs` epoch, `steadyMs` monotonic.
    void evaluate(const QVector<StreamSnapshot> &snapshots, qint64 nowMs, qint64 steadyMs);

    // Per stream "alerts_raised" and "alerts_active" (the episodes still open), and at the top
    // level "alerts": {"raised", "active"} and "notify": [{"destination", "sent", ...}].
    void addToReport(QJsonObject &report) const;
    // streamscope_alerts_active{stream}, streamscope_alerts_raised_total{stream} and the
    // notifier's families.
    QByteArray renderMetrics(bool classic) const;

    // Runs the event loop until no notification is in flight, at most `timeoutMs`.
    void drain(int timeoutMs);

    // An alert that fires saves the stream's flight recorder (when it is on) and names the
    // file in its line and notification.
    void setEngine(Engine *engine) { m_flight.setEngine(engine); }

    AlertMonitor &monitor() { return m_monitor; }
    Notifier &notifier() { return *m_notifier; }

signals:
    // One line for the log (stderr), peer text already escaped.
    void message(const QString &line);

private:
    struct Active {
        QString condition;
        QString text;
        qint64 sinceMs = 0;
    };
    struct StreamAlerts {
        quint64 raised = 0;
        QMap<int, Active> active; // by condition
    };
    void onRaised(StreamId id, const QString &stream, const QString &text, int condition);
    void onCleared(StreamId id, const QString &stream, const QString &text, int condition);

    AlertMonitor m_monitor;
    FlightAlertSaver m_flight;
    QElapsedTimer m_steady;
    Notifier *m_notifier = nullptr;
    QHash<StreamId, StreamFigures> m_figures;
    QHash<StreamId, qint64> m_startedAtMs;
    QMap<QString, StreamAlerts> m_streams; // by name, for the report and metrics
    QStringList m_order;                   // stream names in workspace order
};

} // namespace streamscope::alerts
