#include "SnapshotHub.h"

#include "Engine.h"

#include <QtCore/QDateTime>
#include <QtCore/QTimer>

#include <algorithm>

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
    ++m_polls;
    // Only the engine's streams that changed are read (Engine::changedSnapshots); the others
    // keep their last reading, now as of this poll. The tick's due tenth is read with its
    // histograms (16 KiB a stream: a hundred of a thousand streams a tick, where a slow tick
    // once read all of them), unless its reading has them and nothing changed since. A row
    // stays among the changed ones for kRecentPolls after its last change, so that the rates
    // derived from its readings fall to 0 once it is quiet; after that, a quiet row costs
    // nothing.
    QVector<StreamSnapshot> fresh = m_engine->changedSnapshots(m_cursor, [&tick](StreamId id) { return tick.due(id); });
    m_latencyReads = m_cursor.lastLatencyReads();
    const QList<StreamId> ids = m_engine->streamIds();
    QHash<StreamId, qsizetype> freshAt;
    freshAt.reserve(fresh.size());
    for (qsizetype i = 0; i < fresh.size(); ++i)
        freshAt.insert(fresh.at(i).id, i);

    QVector<StreamSnapshot> all;
    all.reserve(ids.size() + m_snapshots.size() - m_engineRows);
    QVector<StreamSnapshot> changed;
    changed.reserve(fresh.size());
    for (const StreamId id : ids) {
        if (const auto f = freshAt.constFind(id); f != freshAt.cend()) {
            m_changedAt.insert(id, m_polls);
            changed.append(fresh.at(*f));
            all.append(std::move(fresh[*f]));
            continue;
        }
        const auto old = m_index.constFind(id);
        if (old == m_index.cend()) { // unread yet unknown: cannot be; read every stream next time
            m_cursor.reset();
            continue;
        }
        all.append(std::move(m_snapshots[*old]));
        all.last().takenAtNs = m_cursor.takenAtNs();
        if (m_polls - m_changedAt.value(id) <= kRecentPolls)
            changed.append(all.last());
    }
    m_engineRows = all.size();
    if (m_changedAt.size() > ids.size())
        m_changedAt.removeIf([this](const auto &it) { return !m_index.contains(it.key()); }); // gone a poll ago
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
    for (qsizetype i = 0; i < all.size(); ++i)
        index.insert(all.at(i).id, i);
    QList<std::pair<qsizetype, StreamId>> gone; // in the order of the rows
    for (auto it = m_index.cbegin(); it != m_index.cend(); ++it)
        if (!index.contains(it.key()))
            gone.append({it.value(), it.key()});
    std::sort(gone.begin(), gone.end());
    QList<StreamId> removed;
    for (const auto &g : std::as_const(gone))
        removed.append(g.second);
    m_snapshots = std::move(all);
    m_index = std::move(index);

    emit snapshotsChanged(changed, removed, tick);
    emit ticked(tick);
}

} // namespace streamscope::ui
