#include "ConnectionPacer.h"

#include <algorithm>

namespace streamscope {

qint64 ConnectionPacer::reserve(Venue venue, Limit limit, qint64 nowMs)
{
    if (limit.attempts <= 0 || limit.windowMs <= 0)
        return nowMs;
    const qint64 window = windowMs(limit);
    const std::lock_guard lock(m_mutex);
    std::deque<qint64> &reserved = m_slots[std::string(venue.name())];
    while (!reserved.empty() && nowMs - reserved.front() >= window)
        reserved.pop_front();
    // Every `attempts` consecutive reserved span at least the window: the new one comes a window
    // after the one `attempts` places back, and never before the last (the reserved stay sorted).
    qint64 at = nowMs;
    if (qsizetype(reserved.size()) >= limit.attempts)
        at = std::max(at, reserved[reserved.size() - std::size_t(limit.attempts)] + window);
    if (!reserved.empty())
        at = std::max(at, reserved.back());
    reserved.push_back(at);
    return at;
}

void ConnectionPacer::release(Venue venue, qint64 slotMs)
{
    const std::lock_guard lock(m_mutex);
    const auto found = m_slots.find(std::string(venue.name()));
    if (found == m_slots.end())
        return;
    std::deque<qint64> &reserved = found->second;
    // The last of equal reserved: the earlier ones stay where later reservations counted them.
    const auto it = std::upper_bound(reserved.begin(), reserved.end(), slotMs);
    if (it != reserved.begin() && *std::prev(it) == slotMs)
        reserved.erase(std::prev(it));
}

bool ConnectionPacer::tryBeginHandshake()
{
    int now = m_handshakes.load();
    while (now < m_maxHandshakes.load())
        if (m_handshakes.compare_exchange_weak(now, now + 1))
            return true;
    return false;
}

HandshakeTicket HandshakeTicket::tryTake(const std::shared_ptr<ConnectionPacer> &pacer)
{
    HandshakeTicket ticket;
    if (pacer && pacer->tryBeginHandshake())
        ticket.m_pacer = pacer;
    return ticket;
}

ConnectSlot::ConnectSlot(std::shared_ptr<ConnectionPacer> pacer, Venue venue, qint64 atMs)
    : m_pacer(std::move(pacer))
    , m_venue(venue)
    , m_atMs(atMs)
{
}

ConnectSlot::ConnectSlot(ConnectSlot &&other) noexcept
    : m_pacer(std::move(other.m_pacer))
    , m_venue(other.m_venue)
    , m_atMs(other.m_atMs)
{
}

ConnectSlot &ConnectSlot::operator=(ConnectSlot &&other) noexcept
{
    if (this != &other) {
        release();
        m_pacer = std::move(other.m_pacer);
        m_venue = other.m_venue;
        m_atMs = other.m_atMs;
    }
    return *this;
}

void ConnectSlot::release()
{
    if (m_pacer)
        m_pacer->release(m_venue, m_atMs);
    m_pacer.reset();
}

} // namespace streamscope
