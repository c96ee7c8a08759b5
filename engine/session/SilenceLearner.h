#pragma once

// Learns a stream's usual gap between data messages and says when a silence goes well
// beyond it: quiet channels are normal for some streams (a market with no trades, a kline)
// and not for others (a busy trade stream). The gaps are timed on the housekeeping tick
// (100 ms resolution) and counted in log buckets (a factor √2 apart, from 100 ms), in two
// generations of kGenerationMs so that what is learned follows the stream within minutes.
// The usual gap is the bucket bound of the kQuantile-th gap; a silence past
// max(kMinAlarmMs, kFactor × usual gap) raises one alarm, once kMinGaps gaps were seen (a
// stream quieter than one message in 24 s never gets there: the fixed stall timeout is its
// watch). A silence that raised an alarm is not learned as a usual gap.
//
// Thread contract: the stream's worker only; nothing on the hot path.

#include <QtCore/QtGlobal>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace streamscope {

class SilenceLearner {
public:
    static constexpr qint64 kMinAlarmMs = 2000;
    static constexpr qint64 kFactor = 4;
    static constexpr int kMinGaps = 10;
    static constexpr qint64 kGenerationMs = 120000;
    static constexpr double kQuantile = 0.99;
    static constexpr int kBuckets = 48;
    static constexpr double kFirstBoundMs = 100.0;

    struct Verdict {
        bool alarm = false; // this silence just went past the threshold (once per silence)
        qint64 silentMs = 0;
        qint64 usualGapMs = 0;
        qint64 thresholdMs = 0;
    };

    // The connection came up: the wait for its first message is no usual gap.
    void connected(qint64 nowMs)
    {
        m_lastDataMs = nowMs;
        m_haveLast = false;
        m_alarmed = false;
    }

    // On a tick at which data had arrived since the previous tick.
    void onData(qint64 nowMs)
    {
        rotate(nowMs);
        // A silence that raised an alarm was no usual gap: it is not learned.
        if (m_haveLast && !m_alarmed) {
            const qint64 gap = nowMs - m_lastDataMs;
            ++m_current[std::size_t(bucketOf(gap))];
        }
        m_haveLast = true;
        m_lastDataMs = nowMs;
        m_alarmed = false;
    }

    std::optional<qint64> usualGapMs() const
    {
        int total = 0;
        for (int i = 0; i < kBuckets; ++i)
            total += m_current[std::size_t(i)] + m_previous[std::size_t(i)];
        if (total < kMinGaps)
            return std::nullopt;
        const double wanted = kQuantile * double(total);
        int cumulative = 0;
        for (int i = 0; i < kBuckets; ++i) {
            cumulative += m_current[std::size_t(i)] + m_previous[std::size_t(i)];
            if (double(cumulative) >= wanted)
                return upperBoundMs(i);
        }
        return upperBoundMs(kBuckets - 1);
    }

    // On the tick, while the stream should be delivering.
    Verdict check(qint64 nowMs)
    {
        Verdict v;
        if (!m_haveLast)
            return v;
        v.silentMs = nowMs - m_lastDataMs;
        if (v.silentMs < kMinAlarmMs || m_alarmed)
            return v;
        const std::optional<qint64> usual = usualGapMs();
        if (!usual)
            return v;
        v.usualGapMs = *usual;
        v.thresholdMs = std::max(kMinAlarmMs, kFactor * *usual);
        if (v.silentMs > v.thresholdMs) {
            v.alarm = true;
            m_alarmed = true;
        }
        return v;
    }

    static int bucketOf(qint64 gapMs)
    {
        if (gapMs <= qint64(kFirstBoundMs))
            return 0;
        const int i = int(std::ceil(2.0 * std::log2(double(gapMs) / kFirstBoundMs)));
        return std::min(i, kBuckets - 1);
    }
    // Bucket i holds gaps up to kFirstBoundMs · √2^i.
    static qint64 upperBoundMs(int i) { return qint64(std::ceil(kFirstBoundMs * std::pow(2.0, i / 2.0))); }

private:
    void rotate(qint64 nowMs)
    {
        if (!m_generationStarted) {
            m_generationStarted = true;
            m_generationStartMs = nowMs;
            return;
        }
        if (nowMs - m_generationStartMs < kGenerationMs)
            return;
        m_previous = nowMs - m_generationStartMs < 2 * kGenerationMs ? m_current : std::array<int, kBuckets>{};
        m_current = {};
        m_generationStartMs = nowMs;
    }

    std::array<int, kBuckets> m_current{};
    std::array<int, kBuckets> m_previous{};
    qint64 m_generationStartMs = 0;
    bool m_generationStarted = false;
    qint64 m_lastDataMs = 0;
    bool m_haveLast = false;
    bool m_alarmed = false;
};

} // namespace streamscope
