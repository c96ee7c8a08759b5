#pragma once

// One stream's view of its venue's clock: the latency floor of its messages and, where the
// venue has one, the server-time probe; from them the offset used to correct latency, its
// source and uncertainty (published to ClockShared), and an explanation when the offset is
// large or raw latencies are negative (docs/clock.md).
//
// Choice of the offset (venue − local):
//   - a server-time estimate: its offset, ± its uncertainty;
//   - else the latency floor F (min of receive − event time over about a minute): F < 0 proves
//     the local clock behind by at least −F, so the offset is −F; F ≥ 0 proves nothing and
//     the offset is 0. A one-sided bound: no uncertainty is given.
//
// Hot path: observe() is one compare; offsetUs()/correcting() are plain reads of values set
// on the tick.
//
// Thread contract: the stream's worker only.

#include "LatencyFloor.h"
#include "ServerTimeProbe.h"

#include <QtCore/QString>

#include <memory>

namespace streamscope {

class ClockShared;

class ClockTracker {
public:
    // An offset this large (and beyond twice its uncertainty) is explained even when no raw
    // latency is negative.
    static constexpr qint64 kExplainOffsetUs = 20000;
    // A new explanation for a change of the estimate, at most this often.
    static constexpr qint64 kNoteIntervalMs = 30000;
    static constexpr qint64 kUpdateIntervalMs = 250;

    explicit ClockTracker(ClockShared &out);

    void setProbe(std::shared_ptr<ServerTimeProbe> probe);
    // The wall clock was stepped: the latencies before the step say nothing about the clocks now.
    void wallStepped() { m_floor.reset(); }
    bool hasProbe() const { return bool(m_probe); }

    void observe(qint64 latencyUs) noexcept { m_floor.observe(latencyUs); }
    bool correcting() const { return m_correcting; }
    qint64 offsetUs() const { return m_offsetUs; }

    // On the housekeeping tick (monotonic ms). Returns an explanation to publish as an event,
    // or an empty string.
    QString tick(qint64 nowMs);

private:
    QString explanation(bool serverTime, qint64 offsetUs, qint64 uncertaintyUs, qint64 floorUs) const;

    ClockShared &m_out;
    LatencyFloor m_floor;
    std::shared_ptr<ServerTimeProbe> m_probe;
    bool m_correcting = false;
    qint64 m_offsetUs = 0;
    qint64 m_lastUpdateMs = 0;
    bool m_updated = false;

    // The last explanation given.
    int m_notedSource = 0;
    qint64 m_notedOffsetUs = 0;
    qint64 m_notedAtMs = 0;
};

} // namespace streamscope
