#include "SnapshotHub.h"

#include "Engine.h"

#include <QtCore/QDateTime>
#include <QtCore/QTimer>

namespace streamscope::ui {

SnapshotHub::SnapshotHub(Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_captures(new CaptureList(this))
    , m_timer(new QTimer(this))
{
    m_steady.start();
    m_timer->setInterval(kTickMs);
    m_timer->setTimerType(Qt::CoarseTimer);
    connect(m_timer, &QTimer::timeout, this, &SnapshotHub::tickNow);
    if (m_engine)
        connect(m_engine, &Engine::stateChanged, this, &SnapshotHub::stateChanged);
}

SnapshotHub::~SnapshotHub() = default;

void SnapshotHub::start()
{
    m_timer->start();
}

void SnapshotHub::tickNow()
{
    ++m_ticks;
    const int phase = int(m_ticks % kSlowEvery);
    read(phase == 0 ? TickKind::Slow : TickKind::Fast, phase);
}

void SnapshotHub::poll(TickKind kind)
{
    read(kind, kind == TickKind::Slow ? kAllDue : kNoneDue);
}

RemoteAgent *SnapshotHub::addAgent(const RemoteAgent::Settings &settings)
{
    auto *agent = new RemoteAgent(settings, m_agentsEver++, this);
    m_agents.append(agent);
    connect(agent, &RemoteAgent::statusChanged, this, &SnapshotHub::agentStatusChanged);
    connect(agent, &RemoteAgent::streamsChanged, this, [this, agent] { m_answered.insert(agent); });
    return agent;
}

void SnapshotHub::removeAgents()
{
    m_answered.clear();
    qDeleteAll(m_agents);
    m_agents.clear();
}

const StreamSnapshot *SnapshotHub::find(StreamId id) const
{
    const auto it = m_index.constFind(id);
    return it == m_index.cend() ? nullptr : &m_snapshots[*it];
}

QString SnapshotHub::streamName(StreamId id) const
{
    if (const StreamSnapshot *s = find(id))
        return s->name;
    if (m_engine && m_engine->contains(id))
        return m_engine->config(id).name;
    return QStringLiteral("#%1").arg(id);
}

void SnapshotHub::read(TickKind kind, int phase)
{
    if (!m_engine)
        return;
    const Tick tick{kind, QDateTime::currentMSecsSinceEpoch(), m_steady.elapsed(), phase};
    QVector<StreamSnapshot> all = m_engine->snapshot(phase == kAllDue);
    m_latencyReads = phase == kAllDue ? all.size() : 0;
    if (phase >= 0) {
        // The due tenth read again with its histograms (16 KiB a stream): a hundred of a
        // thousand streams a tick, where the slow tick read all of them.
        for (StreamSnapshot &s : all) {
            if (tick.due(s.id)) {
                s = m_engine->snapshot(s.id, true);
                ++m_latencyReads;
            }
        }
    }
    // Every engine stream is read anew: all of them changed.
    QVector<StreamSnapshot> changed = all;
    for (const RemoteAgent *agent : std::as_const(m_agents)) {
        const bool answered = m_answered.contains(agent);
        for (const StreamSnapshot &s : agent->streams()) {
            if (answered || !m_index.contains(s.id))
                changed.append(s);
            all.append(s);
        }
    }
    m_answered.clear();
    for (const CaptureList::Capture &c : m_captures->captures()) {
        if (!m_index.contains(c.id))
            changed.append(c.snap); // a capture never changes once open
        all.append(c.snap);
    }

    QHash<StreamId, qsizetype> index;
    index.reserve(all.size());
    // Read through at(): `all` still shares its data with `changed`, and a non-const [] would
    // copy every snapshot (a thousand streams' worth, ten times a second) before it is moved.
    for (qsizetype i = 0; i < all.size(); ++i)
        index.insert(all.at(i).id, i);
    QList<StreamId> removed;
    for (const StreamSnapshot &s : std::as_const(m_snapshots))
        if (!index.contains(s.id))
            removed.append(s.id);
    m_snapshots = std::move(all);
    m_index = std::move(index);

    emit snapshotsChanged(changed, removed, tick);
    emit ticked(tick);
}

} // namespace streamscope::ui
