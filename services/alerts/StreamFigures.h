#pragma once

// The figures an alert rule is evaluated on, derived from engine snapshots in one place so
// that the desktop app (its stream table) and headless mode compute the same numbers:
//   - LatencyWindow: p50/p99 over the last 5–10 s from two latency anchors taken 5 s
//     apart; while the stream does not run, the anchors stay put (the figures keep the last
//     seconds before the stop) and the window starts afresh when it runs again;
//   - ratePerSecond(): a counter per second between two snapshots, 0 at once for a stream that
//     does not run;
//   - StreamFigures: one stream's rate and latency window fed once a second (headless);
//   - alertSample(): the AlertMonitor sample from those figures.
// Plain value types, any one thread.

#include "AlertMonitor.h"
#include "StreamSnapshot.h"

namespace streamscope::alerts {

class LatencyWindow {
public:
    static constexpr qint64 kAnchorMs = 5000;

    // With the stream's latency totals (a snapshot that carries latency) and whether it runs;
    // `steadyMs` is a monotonic clock.
    void update(const LatencySnapshot &total, bool running, qint64 steadyMs);
    // The older anchor: the window is `total.minus(oldAnchor())`.
    const LatencySnapshot &oldAnchor() const { return m_old; }
    double p50Ms() const { return m_p50Ms; }
    double p99Ms() const { return m_p99Ms; }

private:
    LatencySnapshot m_old;
    LatencySnapshot m_mid;
    qint64 m_midAtMs = 0;
    bool m_held = false;
    double m_p50Ms = qQNaN();
    double m_p99Ms = qQNaN();
};

// A counter per second from (count, steady ns) then to now; 0 when the stream does not run,
// the counter went back or less than 50 ms passed.
double ratePerSecond(quint64 countThen, qint64 nsThen, quint64 countNow, qint64 nsNow, bool running);

// What the alert monitor needs of one stream: `startedAtMs` is when it was added or last
// restarted (epoch ms), for the rate rule's warm-up and a silence that began before any data.
AlertMonitor::Sample alertSample(const StreamSnapshot &s, double msgsPerSec, double p99Ms, qint64 startedAtMs,
                                 qint64 nowMs);

class StreamFigures {
public:
    // Once a second, with a snapshot that carries latency.
    void update(const StreamSnapshot &s, qint64 steadyMs);
    double msgsPerSec() const { return m_msgsPerSec; }
    const LatencyWindow &latency() const { return m_latency; }

private:
    quint64 m_lastMessages = 0;
    qint64 m_lastNs = 0;
    bool m_seen = false;
    double m_msgsPerSec = 0.0;
    LatencyWindow m_latency;
};

} // namespace streamscope::alerts
