#pragma once

// The smallest raw latency (receive time − event time) of a stream over a sliding window of
// about a minute: the venue's clock offset plus the smallest one-way delay. Below zero, the
// local clock is behind the venue's by at least that much (docs/clock.md).
//
// The hot path costs one compare (observe); the housekeeping tick rotates the window, which
// is kSlots slots of kSlotMs each: the floor is the minimum over the current slot and the
// kSlots − 1 before it, so an old minimum leaves the window within a minute.
//
// Thread contract: the stream's worker only (no atomics; the session publishes the floor).

#include <QtCore/QtGlobal>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>

namespace streamscope {

class LatencyFloor {
public:
    static constexpr int kSlots = 6;
    static constexpr qint64 kSlotMs = 10000;

    // Hot path: one compare.
    void observe(qint64 latencyUs) noexcept
    {
        if (latencyUs < m_current)
            m_current = latencyUs;
    }

    // On the tick, with the monotonic time: closes the current slot once it is kSlotMs old.
    void tick(qint64 nowMs)
    {
        if (!m_slotStartMs) {
            m_slotStartMs = nowMs;
            return;
        }
        if (nowMs - *m_slotStartMs < kSlotMs)
            return;
        // A long pause (no tick for a whole window) empties the window.
        const qint64 elapsedSlots = std::min<qint64>((nowMs - *m_slotStartMs) / kSlotMs, kSlots);
        for (qint64 i = 0; i < elapsedSlots; ++i) {
            m_slots[std::size_t(m_next)] = i == 0 ? m_current : kNone;
            m_next = (m_next + 1) % (kSlots - 1);
        }
        m_current = kNone;
        m_slotStartMs = *m_slotStartMs + elapsedSlots * kSlotMs;
    }

    std::optional<qint64> floorUs() const
    {
        qint64 m = m_current;
        for (qint64 s : m_slots)
            m = std::min(m, s);
        return m == kNone ? std::nullopt : std::optional<qint64>(m);
    }

    void reset()
    {
        m_current = kNone;
        m_slots.fill(kNone);
        m_slotStartMs.reset();
    }

private:
    static constexpr qint64 kNone = std::numeric_limits<qint64>::max();

    qint64 m_current = kNone;
    std::array<qint64, kSlots - 1> m_slots{kNone, kNone, kNone, kNone, kNone};
    int m_next = 0;
    std::optional<qint64> m_slotStartMs;
};

} // namespace streamscope
