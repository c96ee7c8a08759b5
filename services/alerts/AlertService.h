#pragma once

// The one alert path of the desktop app and headless mode: evaluates the workspace's rules
// once a second (AlertMonitor), saves the stream's flight recorder when an alert fires
// (FlightAlertSaver), sends every episode to the workspace's "notify" destinations
// (Notifier) and counts episodes for the report and /metrics. It also compares one instrument
// across venues (CrossVenueMonitor) before the rules are evaluated, for the cross-venue rules,
// the report's "cross_venue", /metrics and the window's Cross-venue pane. What it evaluates on is the
// same in both: headless mode hands it the engine's snapshots and it derives the figures
// (StreamFigures); the desktop app hands it the figures its stream table derived the same way.
// Who shows an episode subscribes: headless mode prints message(), the window shows
// alertRaised() / alertCleared() (its Alerts list, the row, the event log, a tray message).
//
// Thread contract: the thread that owns it (the GUI or headless main thread); evaluate()
// once a second. Owns the monitor, the flight saver, the notifier and the per-stream figures;
// does not own the engine.

#include "AlertMonitor.h"
#include "CrossVenueMonitor.h"
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

    // Headless mode: every stream of the engine's snapshots (they carry latency), its figures
    // derived here, the cross-venue comparison first. `nowMs` epoch, `steadyMs` monotonic.
    void evaluate(const QVector<StreamSnapshot> &snapshots, qint64 nowMs, qint64 steadyMs);
    // The desktop app: the cross-venue comparison over every stream's snapshot and latency p50,
    // once a second before the streams' evaluate(); emits crossVenueUpdated().
    void updateCrossVenue(const QVector<CrossVenueMonitor::Input> &inputs, qint64 nowMs);
    const CrossVenueMonitor &crossVenue() const { return m_crossVenue; }
    // When a venue is flagged: the workspace's "cross_venue" (configure() sets it), or settings
    // to the millisecond (tests).
    void setCrossVenueConfig(const CrossVenueConfig &config);
    const CrossVenueConfig &crossVenueConfig() const { return m_crossVenueConfig; }
    void setCrossVenueSettings(const CrossVenueMonitor::Settings &settings) { m_crossVenue.setSettings(settings); }
    // The user's instrument mapping (the workspace's "instrument_aliases"; configure() sets it);
    // emits instrumentAliasesChanged() when it differs.
    void setInstrumentAliases(const InstrumentAliases &aliases);
    // One stream's figures as the caller derived them (the desktop app's stream table, from
    // the same StreamFigures functions).
    struct Figures {
        double msgsPerSec = 0.0;
        double p99Ms = qQNaN();
        qint64 firstSeenMs = 0; // epoch ms the caller first saw the stream (0: now)
    };
    // Returns the sample the rules were evaluated on (for the editor's preview, AlertTrail).
    AlertMonitor::Sample evaluate(const StreamSnapshot &snapshot, const Figures &figures, qint64 nowMs);
    // The stream was (re)started or edited at `nowMs`: its rate rule warms up again and a
    // silence counts from here. Without a call, a stream counts from when it was first seen.
    void streamStarted(StreamId id, qint64 nowMs);
    // The stream is gone: its open episodes end without a notification.
    void forget(StreamId id);

    // The destinations of every stream's alerts and each stream's own (its StreamConfig's
    // notify); a list equal to the current one keeps the counters.
    void setDestinations(const QList<NotifyTarget> &all, const QVector<StreamConfig> &streams);
    // The destinations of every stream (the workspace's top-level "notify").
    const QList<NotifyTarget> &destinations() const { return m_destinations; }

    // Per stream "alerts_raised" and "alerts_active" (the episodes still open), and at the top
    // level "alerts": {"raised", "active"}, "notify": [{"destination", "sent", ...}] and
    // "cross_venue" (CrossVenueMonitor::toJson()).
    void addToReport(QJsonObject &report) const;
    // streamscope_alerts_active{stream}, streamscope_alerts_raised_total{stream}, the
    // notifier's families and the cross-venue gauges.
    QByteArray renderMetrics(bool classic) const;

    // Runs the event loop until no notification is in flight, at most `timeoutMs`.
    void drain(int timeoutMs);

    // An alert that fires saves the stream's flight recorder (when it is on) and names the
    // file in its line and notification.
    // The cross-venue comparison hands the engine each of its streams' wanted last trade prices
    // (CrossVenueMonitor::lastTradeWanted(), Engine::setLastTradeInstruments) when they change.
    void setEngine(Engine *engine)
    {
        m_engine = engine;
        m_flight.setEngine(engine);
    }
    // Where those saves go when the flight recorder names no folder (the desktop app's
    // recording folder); empty: the current folder.
    void setFlightFallbackDir(const QString &dir) { m_flight.setFallbackDir(dir); }

    AlertMonitor &monitor() { return m_monitor; }
    const AlertMonitor &monitor() const { return m_monitor; }
    Notifier &notifier() { return *m_notifier; }

signals:
    // One line for the log (stderr), peer text already escaped.
    void message(const QString &line);
    // An episode began (`event.kind` Raised, with the flight recorder's file if one is being
    // saved) or ended (Cleared); sent to the destinations already. `condition`: an
    // AlertMonitor::Condition, telling one stream's episodes apart.
    void alertRaised(streamscope::StreamId id, int condition, const streamscope::alerts::AlertEvent &event);
    void alertCleared(streamscope::StreamId id, int condition, const streamscope::alerts::AlertEvent &event);
    // The cross-venue comparison was brought up to date (crossVenue()).
    void crossVenueUpdated();
    void instrumentAliasesChanged();

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
    void handOutLastTrades();

    AlertMonitor m_monitor;
    CrossVenueMonitor m_crossVenue;
    CrossVenueConfig m_crossVenueConfig;
    Engine *m_engine = nullptr;
    QHash<StreamId, QSet<QString>> m_lastTradesHandedOut; // as the engine was last told
    InstrumentAliases m_lastTradeAliases;
    FlightAlertSaver m_flight;
    QElapsedTimer m_steady;
    Notifier *m_notifier = nullptr;
    QHash<StreamId, StreamFigures> m_figures;
    QHash<StreamId, qint64> m_startedAtMs;
    QMap<QString, StreamAlerts> m_streams; // by name, for the report and metrics
    QStringList m_order;                   // stream names in workspace order
    QList<NotifyTarget> m_destinations;    // every stream's
};

} // namespace streamscope::alerts
