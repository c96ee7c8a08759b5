#pragma once

// "Falling behind": a stream whose messages keep arriving but whose latency keeps growing.
// Every second the mean latency of that second's messages (from the histogram's totals, so
// nothing is added to the hot path); over the last kWindows seconds, the least-squares slope
// of those means. Behind once at least kMinWindows seconds with data show a slope of
// kAlarmSlopeMsPerS or more and a growth of kAlarmGrowthMs over their span; no longer behind
// when the slope falls under kClearSlopeMsPerS.
//
// Thread contract: the stream's worker only, on the housekeeping tick.

#include <QtCore/QtGlobal>

#include <algorithm>
#include <array>
#include <cstdint>

namespace streamscope {

class LatencyTrend {
public:
    static constexpr qint64 kWindowMs = 1000;
    static constexpr int kWindows = 10;
    static constexpr int kMinWindows = 5;
    static constexpr double kAlarmSlopeMsPerS = 20.0;
    static constexpr double kAlarmGrowthMs = 200.0;
    static constexpr double kClearSlopeMsPerS = 5.0;

    enum class Change { None, Started, Ended };

    // The stream (re)connected, or the latency's source changed: start over.
    void reset()
    {
        m_started = false;
        m_size = 0;
        m_behind = false;
        m_slopeMsPerS = 0;
        m_growthMs = 0;
    }

    // On the tick: `count` and `sumUs` are the latency histogram's totals now.
    Change tick(qint64 nowMs, std::uint64_t count, std::uint64_t sumUs)
    {
        if (!m_started) {
            m_started = true;
            m_windowStartMs = nowMs;
            m_count = count;
            m_sumUs = sumUs;
            return Change::None;
        }
        if (nowMs - m_windowStartMs < kWindowMs)
            return Change::None;
        const std::uint64_t n = count - m_count;
        if (n > 0) {
            m_windows[std::size_t(m_next)] = {double(nowMs) / 1000.0, double(sumUs - m_sumUs) / double(n) / 1000.0};
            m_next = (m_next + 1) % kWindows;
            m_size = std::min(m_size + 1, kWindows);
        }
        m_windowStartMs = nowMs;
        m_count = count;
        m_sumUs = sumUs;
        fit();
        const bool was = m_behind;
        if (!m_behind)
            m_behind = m_size >= kMinWindows && m_slopeMsPerS >= kAlarmSlopeMsPerS && m_growthMs >= kAlarmGrowthMs;
        else if (m_slopeMsPerS < kClearSlopeMsPerS)
            m_behind = false;
        return m_behind == was ? Change::None : (m_behind ? Change::Started : Change::Ended);
    }

    bool behind() const { return m_behind; }
    double slopeMsPerS() const { return m_slopeMsPerS; }
    double growthMs() const { return m_growthMs; }
    int windows() const { return m_size; }

private:
    struct Window {
        double atS;
        double meanMs;
    };

    void fit()
    {
        m_slopeMsPerS = 0;
        m_growthMs = 0;
        if (m_size < 2)
            return;
        double sx = 0, sy = 0, sxx = 0, sxy = 0, first = 1e300, last = -1e300;
        const double origin = m_windows[std::size_t((m_next + kWindows - 1) % kWindows)].atS;
        for (int i = 0; i < m_size; ++i) {
            const Window &w = m_windows[std::size_t((m_next + kWindows - 1 - i) % kWindows)];
            const double x = w.atS - origin;
            sx += x;
            sy += w.meanMs;
            sxx += x * x;
            sxy += x * w.meanMs;
            first = std::min(first, x);
            last = std::max(last, x);
        }
        const double n = m_size;
        const double d = n * sxx - sx * sx;
        if (d <= 0)
            return;
        m_slopeMsPerS = (n * sxy - sx * sy) / d;
        m_growthMs = m_slopeMsPerS * (last - first);
    }

    bool m_started = false;
    qint64 m_windowStartMs = 0;
    std::uint64_t m_count = 0;
    std::uint64_t m_sumUs = 0;
    std::array<Window, kWindows> m_windows{};
    int m_next = 0;
    int m_size = 0;
    bool m_behind = false;
    double m_slopeMsPerS = 0;
    double m_growthMs = 0;
};

} // namespace streamscope
