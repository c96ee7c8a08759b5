#include "StreamFigures.h"

#include "PeerText.h"

#include <algorithm>

namespace streamscope::alerts {

void LatencyWindow::update(const LatencySnapshot &total, bool running, qint64 steadyMs)
{
    if (running && m_held) {
        m_mid = LatencySnapshot(); // running again: a new window from now
        m_held = false;
    }
    if (!running && !m_mid.buckets.isEmpty()) {
        m_held = true; // nothing arrives any more: the anchors stay
    } else if (m_mid.buckets.isEmpty()) {
        // First sample: the window starts now.
        m_old = total;
        m_mid = total;
        m_midAtMs = steadyMs;
    } else if (steadyMs - m_midAtMs >= kAnchorMs) {
        m_old = std::move(m_mid);
        m_mid = total;
        m_midAtMs = steadyMs;
    }
    const LatencySnapshot window = total.minus(m_old);
    m_p50Ms = window.isEmpty() ? qQNaN() : window.percentileUs(0.50) / 1000.0;
    m_p99Ms = window.isEmpty() ? qQNaN() : window.percentileUs(0.99) / 1000.0;
}

double ratePerSecond(quint64 countThen, qint64 nsThen, quint64 countNow, qint64 nsNow, bool running)
{
    const double dt = double(nsNow - nsThen) / 1e9;
    return running && dt > 0.05 && countNow >= countThen ? double(countNow - countThen) / dt : 0.0;
}

AlertMonitor::Sample alertSample(const StreamSnapshot &s, double msgsPerSec, double p99Ms, qint64 startedAtMs,
                                 qint64 nowMs)
{
    AlertMonitor::Sample sample;
    sample.state = s.state;
    sample.msgsPerSec = msgsPerSec;
    // A periodic stream's "latency" holds its interval: no latency rule applies
    // (docs/freshness.md, "Periodic streams").
    sample.p99Ms = s.freshness.periodic ? qQNaN() : p99Ms;
    sample.silentMs = nowMs - std::max(s.lastDataMs, startedAtMs);
    sample.gaps = s.gaps;
    for (const BookStatus &b : s.books) {
        sample.bookResyncs += b.resyncs;
        sample.bookCrossedEpisodes += b.crossedEpisodes;
        if (b.state == BookState::Desynced || b.state == BookState::Resyncing)
            sample.booksDesynced.append(b.instrument);
        else if (b.state == BookState::Crossed)
            sample.booksCrossed.append(b.instrument);
    }
    for (const InstrumentStatus &i : s.instruments) {
        sample.instrumentStaleEpisodes += i.staleEpisodes;
        if (i.stale)
            sample.instrumentsStale.append(peerText(i.instrument));
    }
    sample.runningForMs = nowMs - startedAtMs;
    return sample;
}

void StreamFigures::update(const StreamSnapshot &s, qint64 steadyMs)
{
    const bool runs = isRunning(s.state);
    m_msgsPerSec = m_seen ? ratePerSecond(m_lastMessages, m_lastNs, s.messages, s.takenAtNs, runs) : 0.0;
    m_seen = true;
    m_lastMessages = s.messages;
    m_lastNs = s.takenAtNs;
    if (!s.latency.buckets.isEmpty())
        m_latency.update(s.latency, runs, steadyMs);
}

} // namespace streamscope::alerts
