#pragma once

// Limits a stream's events for the log to ten of one kind a second, so that a stream
// sending only bad JSON, or gaps on every message, cannot flood the event log or the
// queue to the facade; the counters keep the exact numbers.
//
// Thread contract: the session's worker only.

#include "model/StreamRecords.h"

#include <array>

namespace streamscope {

class EventThrottle {
public:
    static constexpr qint64 kMinIntervalMs = 100;

    // Whether an event of `kind` may go out at monotonic time `nowMs`; if so, it counts.
    bool allow(EventKind kind, qint64 nowMs)
    {
        qint64 &last = m_lastMs[std::size_t(kind) % m_lastMs.size()];
        if (m_seen[std::size_t(kind) % m_seen.size()] && nowMs - last < kMinIntervalMs)
            return false;
        m_seen[std::size_t(kind) % m_seen.size()] = true;
        last = nowMs;
        return true;
    }

private:
    std::array<qint64, 16> m_lastMs{};
    std::array<bool, 16> m_seen{};
};

} // namespace streamscope
