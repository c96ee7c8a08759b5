#include "PaceTicker.h"

#include <QTimer>

#include <algorithm>

namespace streamscope::replay {

PaceTicker::PaceTicker(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &PaceTicker::onTimeout);
    m_clock.start();
}

PaceTicker::~PaceTicker() = default;

int PaceTicker::add(int intervalMs, std::function<void()> tick)
{
    const qint64 interval = std::max(1, intervalMs);
    int handle;
    if (!m_free.empty()) {
        handle = m_free.back();
        m_free.pop_back();
    } else {
        handle = int(m_entries.size());
        m_entries.emplace_back();
    }
    Entry &e = m_entries[std::size_t(handle)];
    e.tick = std::move(tick);
    e.intervalMs = interval;
    e.dueMs = m_clock.elapsed() + interval;
    ++m_intervals[interval];
    ++m_live;
    restartTimer();
    return handle;
}

void PaceTicker::remove(int handle)
{
    if (handle < 0 || std::size_t(handle) >= m_entries.size() || !m_entries[std::size_t(handle)].tick)
        return;
    Entry &e = m_entries[std::size_t(handle)];
    e.tick = nullptr;
    if (const auto it = m_intervals.find(e.intervalMs); it != m_intervals.end() && --it->second == 0)
        m_intervals.erase(it);
    m_free.push_back(handle);
    --m_live;
    restartTimer();
}

void PaceTicker::restartTimer()
{
    if (m_intervals.empty()) {
        m_timer->stop();
        return;
    }
    const int interval = int(m_intervals.begin()->first);
    if (!m_timer->isActive() || m_timer->interval() != interval)
        m_timer->start(interval);
}

void PaceTicker::onTimeout()
{
    const qint64 now = m_clock.elapsed();
    // The timer fires on whole milliseconds as this clock counts them: an entry due within
    // half the timer's interval is due now, else one at the timer's interval would run every
    // other pass. Entries added by a callback wait for the next pass; a removed one is skipped.
    const qint64 early = m_timer->interval() / 2;
    const std::size_t count = m_entries.size();
    for (std::size_t i = 0; i < count; ++i) {
        Entry &e = m_entries[i];
        if (!e.tick || now + early < e.dueMs)
            continue;
        e.dueMs = std::max(e.dueMs + e.intervalMs, now + 1);
        const std::function<void()> tick = e.tick; // the entry may be removed (and reused) inside
        tick();
    }
}

} // namespace streamscope::replay
