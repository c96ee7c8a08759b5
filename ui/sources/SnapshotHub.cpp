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
    , m_stageTimer(new QTimer(this))
{
    m_steady.start();
    m_timer->setInterval(kTickMs);
    m_timer->setTimerType(Qt::CoarseTimer);
    connect(m_timer, &QTimer::timeout, this, &SnapshotHub::timerTick);
    m_stageTimer->setSingleShot(true);
    m_stageTimer->setInterval(0);
    m_stageTimer->setTimerType(Qt::PreciseTimer);
    connect(m_stageTimer, &QTimer::timeout, this, &SnapshotHub::runStage);
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

void SnapshotHub::timerTick()
{
    // The read now, each stage in a later turn of the event loop: between them the loop runs
    // what waits (a timer, input, a repaint), so the GUI thread is busy with a third of a tick
    // at a time, not with the whole of it.
    flushStages();
    ++m_ticks;
    const int phase = int(m_ticks % kSlowEvery);
    if (!readSources(phase == 0 ? TickKind::Slow : TickKind::Fast, phase))
        return;
    m_stage = Stage::SnapshotsChanged;
    m_stageTimer->start();
}

void SnapshotHub::runStage()
{
    switch (m_stage) {
    case Stage::SnapshotsChanged:
        m_stage = Stage::Ticked;
        emit snapshotsChanged(m_changed, m_removed, m_tick);
        if (m_stage == Stage::Ticked) // unless a consumer polled meanwhile (flushStages)
            m_stageTimer->start();
        break;
    case Stage::Ticked:
        m_stage = Stage::None;
        emit ticked(m_tick);
        break;
    case Stage::None: break;
    }
}

void SnapshotHub::flushStages()
{
    m_stageTimer->stop();
    while (m_stage != Stage::None)
        runStage();
    m_stageTimer->stop();
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
    flushStages(); // a timer tick's stages first: their positions are of the rows as they are
    if (!readSources(kind, phase))
        return;
    emit snapshotsChanged(m_changed, m_removed, m_tick);
    emit ticked(m_tick);
}

bool SnapshotHub::readSources(TickKind kind, int phase)
{
    if (!m_engine)
        return false;
    m_tick = Tick{kind, QDateTime::currentMSecsSinceEpoch(), m_steady.elapsed(), phase};
    const Tick &tick = m_tick;
    ++m_polls;
    // Only the engine's streams that changed are read (Engine::changedSnapshots); the others
    // keep their last reading, now as of this poll. The tick's due tenth is read with its
    // histograms (16 KiB a stream: a hundred of a thousand streams a tick, where a slow tick
    // once read all of them), unless its reading has them and nothing changed since. A row
    // stays among the changed ones for kRecentPolls after its last change, so that the rates
    // derived from its readings fall to 0 once it is quiet; after that, a quiet row costs
    // nothing.
    // While the engine's rows stay where they are (no stream added, removed or moved), a stream
    // whose figures alone moved is refreshed in its row, in place: its names and lists are not
    // copied, and no reading is made, moved or destroyed for it. Otherwise the rows are built
    // again from the readings; the buffers are kept from one tick to the next (a thousand
    // readings are megabytes, which allocated afresh every tick cost more in page faults than
    // reading them).
    const QList<StreamId> ids = m_engine->streamIds();
    bool inPlace = m_engineRows == ids.size();
    for (qsizetype i = 0; inPlace && i < ids.size(); ++i)
        inPlace = m_snapshots.at(i).id == ids.at(i);
    const auto held = [this](StreamId id) -> StreamSnapshot * {
        const auto it = m_index.constFind(id);
        return it == m_index.cend() ? nullptr : &m_snapshots[*it];
    };
    m_engine->changedSnapshots(
        m_cursor, [&tick](StreamId id) { return tick.due(id); },
        inPlace ? std::function<StreamSnapshot *(StreamId)>(held) : nullptr, m_fresh, m_refreshed);
    m_latencyReads = m_cursor.lastLatencyReads();

    QList<qsizetype> &changed = m_changed; // positions in `all`
    changed.clear();
    QVector<StreamSnapshot> &all = inPlace ? m_snapshots : m_spare;
    // Whether every row is where it was: then the index stands and no row went.
    bool sameRows = true;
    const auto place = [&](StreamSnapshot &&s) {
        sameRows = sameRows && m_index.value(s.id, -1) == all.size();
        all.append(std::move(s));
    };
    qsizetype next = 0;          // the readings come in the order of ids
    qsizetype nextRefreshed = 0; // so do the rows refreshed in place
    if (inPlace) {
        all.resize(m_engineRows); // the agents' and captures' rows are placed again below
        for (qsizetype i = 0; i < ids.size(); ++i) {
            const StreamId id = ids.at(i);
            if (next < m_fresh.size() && m_fresh.at(next).id == id)
                all[i] = std::move(m_fresh[next++]);
            else if (nextRefreshed < m_refreshed.size() && m_refreshed.at(nextRefreshed) == id)
                ++nextRefreshed;
            else {
                all[i].takenAtNs = m_cursor.takenAtNs();
                if (m_polls - m_changedAt.value(id) <= kRecentPolls)
                    changed.append(i);
                continue;
            }
            m_changedAt.insert(id, m_polls);
            changed.append(i);
        }
    } else {
        all.clear();
        all.reserve(ids.size() + m_snapshots.size() - m_engineRows);
        for (const StreamId id : ids) {
            if (next < m_fresh.size() && m_fresh.at(next).id == id) {
                m_changedAt.insert(id, m_polls);
                changed.append(all.size());
                place(std::move(m_fresh[next++]));
                continue;
            }
            const auto old = m_index.constFind(id);
            if (old == m_index.cend()) { // unread yet unknown: cannot be; read every stream next time
                m_cursor.reset();
                sameRows = false;
                continue;
            }
            place(std::move(m_snapshots[*old]));
            all.last().takenAtNs = m_cursor.takenAtNs();
            if (m_polls - m_changedAt.value(id) <= kRecentPolls)
                changed.append(all.size() - 1);
        }
    }
    m_fresh.clear();
    m_engineRows = all.size();
    if (m_changedAt.size() > ids.size())
        m_changedAt.removeIf([this](const auto &it) { return !m_index.contains(it.key()); }); // gone a poll ago
    for (const RemoteAgent *agent : std::as_const(m_agents)) {
        const bool answered = m_answered.contains(agent);
        for (const StreamSnapshot &s : agent->streams()) {
            if (answered || !m_index.contains(s.id))
                changed.append(all.size());
            place(StreamSnapshot(s));
        }
    }
    m_answered.clear();
    for (const CaptureList::Capture &c : m_captures->captures()) {
        if (!m_index.contains(c.id))
            changed.append(all.size()); // a capture never changes once open
        place(StreamSnapshot(c.snap));
    }

    QList<StreamId> &removed = m_removed;
    removed.clear();
    if (!sameRows || all.size() != m_index.size()) {
        QHash<StreamId, qsizetype> index;
        index.reserve(all.size());
        for (qsizetype i = 0; i < all.size(); ++i)
            index.insert(all.at(i).id, i);
        QList<std::pair<qsizetype, StreamId>> gone; // in the order of the rows
        for (auto it = m_index.cbegin(); it != m_index.cend(); ++it)
            if (!index.contains(it.key()))
                gone.append({it.value(), it.key()});
        std::sort(gone.begin(), gone.end());
        for (const auto &g : std::as_const(gone))
            removed.append(g.second);
        m_index = std::move(index);
    }
    if (!inPlace)
        m_snapshots.swap(m_spare); // `all` is m_spare: the new rows in, the old ones kept for their storage
    return true;
}

} // namespace streamscope::ui
