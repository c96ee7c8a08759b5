#pragma once

// The one source of stream snapshots for the main window's table and panes: the engine's own
// streams, the streams of the headless agents the window watches (RemoteAgent) and the
// captures it has opened (CaptureList), read together once per tick. Each tick hands on what
// changed: an engine stream that changed since the last tick (Engine::changedSnapshots reads
// no other) and, for two seconds after its last change, at every tick (its rates fall to 0), an
// agent's streams when the agent answered or stopped answering, a capture once when it was
// opened; and the rows that went. A quiet engine stream's row keeps its reading, with the
// tick's time. Ten ticks a second; every tenth is slow: the once-a-second consumers (charts,
// details, CPU, host clock) run.
//
// The per-stream work of a second is spread over its ten ticks, so that no tick carries a
// thousand streams' histograms: each tick is due for a tenth of the streams (those whose id
// modulo kSlowEvery is the tick's phase); the engine's readings of those carry their latency
// histograms (read again only when the stream changed since its last reading with them), and
// the table windows their latency and the alerts judge them on that tick. Each stream is so
// read and judged once a second, at most 0.9 s after a slow tick. The one other pass over every
// stream, the cross-venue view's, runs on the tick half a second after the slow one
// (kCrossVenuePhase). A poll out of the timer's turn is due for none (fast) or for every stream
// (slow: all of it, at once).
//
// Two stages per tick, so that no consumer depends on the order of connections within one:
// snapshotsChanged() first (the stream table derives its rates and percentiles from the
// readings), then ticked(), after which the table's rows and snapshots() are current. The
// timer's ticks run the read and each stage in a turn of the event loop of its own (a zero
// timer between them), so that what waits (input, a repaint, another timer) runs between them
// and the GUI thread is never busy with a whole tick at once; the stages keep their order and
// run within a few ms. A tick out of turn (poll(), tickNow()) runs them at once, after the
// stages a timer tick left pending.
//
// Thread contract: GUI thread only. Owns the agents, the capture list and the tick timer;
// does not own the engine (held by QPointer: when it goes first, the hub reads nothing more).

#include "CaptureList.h"
#include "Engine.h"
#include "RemoteAgent.h"
#include "StreamSnapshot.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QSet>

class QTimer;

namespace streamscope::ui {

class SnapshotHub : public QObject {
    Q_OBJECT
public:
    static constexpr int kTickMs = 100;   // the table's refresh
    static constexpr int kSlowEvery = 10; // latency, charts, alerts, details, CPU: every 10th tick
    // How many ticks an engine stream is handed on after its last change: a rate over the last
    // second needs the readings of the second after it (StreamTableModel's window is 1 s).
    static constexpr quint64 kRecentPolls = 2 * kSlowEvery;

    enum class TickKind {
        Unknown = 0,
        Fast, // the table, the status bar's counts and rates, the actions' states
        Slow, // also what changes once a second: latency, charts, alerts, CPU, the host clock
    };
    static constexpr int kAllDue = -1;  // a slow poll out of turn: every stream is due
    static constexpr int kNoneDue = -2; // a fast poll out of turn: none is
    // The tick of each second, half a second after the slow one, that runs the cross-venue
    // pass over every stream (AlertsController): so that no tick carries both full passes.
    static constexpr int kCrossVenuePhase = kSlowEvery / 2;
    struct Tick {
        TickKind kind = TickKind::Unknown;
        qint64 nowMs = 0;     // epoch ms when the tick read its sources
        qint64 steadyMs = 0;  // monotonic ms (the latency windows)
        int phase = kNoneDue; // 0..kSlowEvery-1: the streams whose id % kSlowEvery is this are due
        // Whether this tick reads the stream's latency histograms and judges its alerts.
        bool due(StreamId id) const
        {
            return phase == kAllDue || (phase >= 0 && int(id % StreamId(kSlowEvery)) == phase);
        }
    };

    explicit SnapshotHub(Engine *engine, QObject *parent = nullptr); // does not own the engine
    ~SnapshotHub() override;

    // Ticks on a timer from now on (kTickMs, every kSlowEvery-th slow).
    void start();
    // One tick now, out of the timer's turn (after a command, so that its effect shows at once).
    void poll(TickKind kind);
    // The timer's next tick now, with its phase, its stages at once (the UI harness times the
    // ticks with it).
    void tickNow();
    // The engine streams whose latency histograms the last tick read.
    qsizetype latencyReadsLastTick() const { return m_latencyReads; }

    // Watches a headless agent: its streams join the next ticks. Each agent has its own block
    // of ids, never reused while the hub lives.
    RemoteAgent *addAgent(const RemoteAgent::Settings &settings);
    // Lets go of every agent; their rows go at the next tick.
    void removeAgents();
    const QList<RemoteAgent *> &agents() const { return m_agents; }
    CaptureList *captures() const { return m_captures; }

    // The engine's streams the last tick read (the others had not changed) and left unread.
    int lastRead() const { return m_cursor.lastRead(); }
    int lastUnchanged() const { return m_cursor.lastUnchanged(); }
    // Of those read, the ones whose figures alone moved, refreshed in their rows in place
    // (lastRead() − lastRefreshed() readings were made whole).
    int lastRefreshed() const { return m_cursor.lastRefreshed(); }

    // Every row as of the last tick, in the table's order: the engine's streams, each
    // agent's, the captures.
    const QVector<StreamSnapshot> &snapshots() const { return m_snapshots; }
    const StreamSnapshot *find(StreamId id) const;
    // The row's name; a stream the last tick did not see by the engine's configuration; else "#id".
    QString streamName(StreamId id) const;

signals:
    // Stage 1: the readings that are new since the last tick (new rows among them), as their
    // positions in snapshots() (ascending; snapshots() is current), and the rows that went.
    void snapshotsChanged(const QList<qsizetype> &changed, const QList<streamscope::StreamId> &removed,
                          const streamscope::ui::SnapshotHub::Tick &tick);
    // Stage 2: every consumer of stage 1 has run.
    void ticked(const streamscope::ui::SnapshotHub::Tick &tick);
    // Between ticks: the engine changed a stream's state (shown at once, not at the next tick).
    void stateChanged(streamscope::StreamId id, streamscope::StreamState state, const QString &reason);
    // An agent connected, stopped answering, or its reason changed.
    void agentStatusChanged(const QString &agent, const QString &status, bool connected);

private:
    void read(TickKind kind, int phase); // readSources() and both stages, at once
    // Reads the sources into the rows; m_tick, m_changed and m_removed say what the stages hand on.
    bool readSources(TickKind kind, int phase);
    void timerTick();
    void runStage();    // the next stage a timer tick left pending
    void flushStages(); // all of them, now

    QPointer<Engine> m_engine;
    QList<RemoteAgent *> m_agents;        // owned (children)
    int m_agentsEver = 0;                 // agents added so far: the next one's id block
    QSet<const RemoteAgent *> m_answered; // agents with an answer (or a failure) not yet handed on
    CaptureList *m_captures = nullptr;    // owned (child)
    QVector<StreamSnapshot> m_snapshots;
    // Kept from tick to tick for their storage: the engine's readings, the last tick's rows
    // (moved from when the rows are built again), the positions of the readings handed on.
    QVector<StreamSnapshot> m_fresh;
    QVector<StreamSnapshot> m_spare;
    QList<StreamId> m_refreshed; // the engine streams refreshed in place
    QList<qsizetype> m_changed;
    QHash<StreamId, qsizetype> m_index;   // id → position in m_snapshots
    Engine::SnapshotCursor m_cursor;      // what the engine's changedSnapshots() handed on
    QHash<StreamId, quint64> m_changedAt; // an engine stream → the poll that last read it
    quint64 m_polls = 0;
    qsizetype m_engineRows = 0; // the engine's rows at the head of m_snapshots
    QTimer *m_timer = nullptr;
    // A timer tick's stages still to run, what they hand on, and the zero timer between them.
    enum class Stage { None, SnapshotsChanged, Ticked };
    Stage m_stage = Stage::None;
    Tick m_tick;
    QList<StreamId> m_removed;
    QTimer *m_stageTimer = nullptr;
    QElapsedTimer m_steady;
    quint64 m_ticks = 0;
    qsizetype m_latencyReads = 0;
};

} // namespace streamscope::ui
