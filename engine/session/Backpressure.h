#pragma once

// The backpressure view of one stream (docs/freshness.md, "Backpressure"): bytes that came
// in but were not read yet (the socket's buffer plus the kernel's receive queue, sampled on
// the tick, never per message), and the time the worker takes to handle one message,
// sampled on one message in kSampleEvery (two clock reads per sample, none otherwise).
// Unread bytes above kBackedUpBytes at most of the last ten ticks say "we are slow" even when
// the worker's busy share cannot (a worker starved of CPU by other processes).
//
// Thread contract: the stream's worker only; due()/processed() on the hot path.

#include <QtCore/QtGlobal>

#include <algorithm>
#include <array>

namespace streamscope {

class BackpressureMeter {
public:
    static constexpr int kSampleEvery = 64;
    static constexpr qint64 kBackedUpBytes = 32 * 1024;
    static constexpr qint64 kMaxSampleUs = 1'000'000; // longer: the wall clock stepped
    static constexpr int kTicksPerSecond = 10;        // the housekeeping tick is 100 ms
    static constexpr int kPeakSeconds = 10;
    static constexpr int kMinSamples = 5;

    struct Figures {
        qint64 unreadBytes = -1;
        qint64 unreadBytesPeak = -1; // the most over the last kPeakSeconds
        double processingUs = -1; // mean of the last second's samples (of the last second that had some); -1 none yet
        bool backedUp = false;    // unread ≥ kBackedUpBytes at most of the last (up to) 10 samples, 5 at least
    };

    // Hot path: whether this message is one to time.
    bool due() noexcept
    {
        if (--m_countdown > 0)
            return false;
        m_countdown = kSampleEvery;
        return true;
    }
    void processed(qint64 us) noexcept
    {
        if (us < 0 || us > kMaxSampleUs)
            return;
        m_sumUs += us;
        ++m_samples;
    }

    // On the tick: `unread` is this stream's unread bytes now (-1 unknown).
    Figures tick(qint64 nowMs, qint64 unread)
    {
        m_recent[std::size_t(m_next)] = unread;
        m_next = (m_next + 1) % kTicksPerSecond;
        m_recentSize = std::min(m_recentSize + 1, kTicksPerSecond);
        if (m_secondStartMs < 0)
            m_secondStartMs = nowMs;
        if (nowMs - m_secondStartMs >= 1000) {
            // A slow stream has no sample in most seconds: the last known mean stays.
            if (m_samples > 0)
                m_processingUs = double(m_sumUs) / double(m_samples);
            m_sumUs = 0;
            m_samples = 0;
            m_secondStartMs = nowMs;
            m_peaks[std::size_t(m_peakNext)] = m_secondPeak;
            m_peakNext = (m_peakNext + 1) % kPeakSeconds;
            m_secondPeak = -1;
        }
        m_secondPeak = std::max(m_secondPeak, unread);
        Figures f;
        f.unreadBytes = unread;
        f.unreadBytesPeak = m_secondPeak;
        for (const qint64 p : m_peaks)
            f.unreadBytesPeak = std::max(f.unreadBytesPeak, p);
        f.processingUs = m_processingUs;
        // A sample may fall just after the socket was drained: most of them, not all.
        int full = 0;
        for (int i = 0; i < m_recentSize; ++i)
            full += m_recent[std::size_t(i)] >= kBackedUpBytes ? 1 : 0;
        f.backedUp = m_recentSize >= kMinSamples && 2 * full > m_recentSize;
        return f;
    }

    void reset()
    {
        m_recentSize = 0;
        m_next = 0; // the samples counted from index 0 on are the new connection's
        m_peaks.fill(-1);
        m_secondPeak = -1;
    }

private:
    int m_countdown = kSampleEvery;
    qint64 m_sumUs = 0;
    qint64 m_samples = 0;
    qint64 m_secondStartMs = -1;
    double m_processingUs = -1;
    std::array<qint64, kTicksPerSecond> m_recent{};
    int m_next = 0;
    int m_recentSize = 0;
    std::array<qint64, kPeakSeconds> m_peaks{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    int m_peakNext = 0;
    qint64 m_secondPeak = -1;
};

} // namespace streamscope
