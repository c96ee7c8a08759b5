#pragma once

// Log-linear latency histogram in microseconds (HdrHistogram-style buckets): values below
// 32 µs get a bucket each; above, every power of two is split into 32 linear sub-buckets,
// so any recorded value is known to within 1/32 (about 3 %). Range 0 to 2^36 µs (19 h);
// larger values land in the last bucket. Negative latencies (clock skew) are counted apart.
//
// Thread contract: record() is called by one writer thread (the stream's worker); snapshot()
// may be called from any thread at any time and never blocks the writer.

#include "RelaxedCounter.h"

#include <QtCore/QVector>

#include <array>
#include <cstdint>

namespace streamscope {

class LatencySnapshot;

class LatencyHistogram {
public:
    static constexpr int kSubBucketBits = 5;
    static constexpr int kSubBuckets = 1 << kSubBucketBits;         // 32
    static constexpr int kMaxExponent = 35;                          // top bucket: [2^35, 2^36)
    static constexpr int kBucketCount = kSubBuckets + (kMaxExponent - kSubBucketBits + 1) * kSubBuckets;

    static int bucketIndex(std::uint64_t valueUs) noexcept;
    static std::uint64_t bucketLowerUs(int index) noexcept;
    static std::uint64_t bucketUpperUs(int index) noexcept; // inclusive

    void record(std::int64_t valueUs) noexcept
    {
        if (valueUs < 0) {
            m_negative.add();
            return;
        }
        const auto v = static_cast<std::uint64_t>(valueUs);
        const int index = bucketIndex(v);
        auto &bucket = m_buckets[static_cast<std::size_t>(index)];
        bucket.store(bucket.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        if (index >= m_usedBuckets.load())
            m_usedBuckets.store(index + 1);
        m_sumUs.add(v);
        m_count.add();
        if (v > m_maxUs.load())
            m_maxUs.store(v);
    }

    LatencySnapshot snapshot() const;

private:
    std::array<std::atomic<std::uint64_t>, kBucketCount> m_buckets{};
    RelaxedCounter m_count;
    RelaxedCounter m_sumUs;
    RelaxedCounter m_negative;
    RelaxedValue<std::uint64_t> m_maxUs;
    // One past the highest bucket ever recorded into: a snapshot copies only that far, which
    // for latencies in the ms range is a fifth of the array (the GUI copies every stream's
    // histogram ten times a second).
    RelaxedValue<int> m_usedBuckets;
};

// A plain copy of a histogram's counters. Two snapshots subtract to the histogram of the
// interval between them; snapshots of several streams add up.
class LatencySnapshot {
public:
    // Counts from bucket 0 up to the highest non-empty one (at most kBucketCount entries); a
    // bucket past the end holds 0. Empty when nothing was recorded or taken.
    QVector<std::uint64_t> buckets;
    std::uint64_t count = 0;
    std::uint64_t sumUs = 0;
    std::uint64_t negative = 0;
    std::uint64_t maxUs = 0; // since start; for a difference: upper bound of the top bucket

    bool isEmpty() const { return count == 0; }
    // Value (µs) at quantile q in [0, 1]: the upper bound of the bucket holding it, capped
    // at the maximum. 0 when empty.
    double percentileUs(double q) const;
    double meanUs() const { return count ? double(sumUs) / double(count) : 0.0; }

    LatencySnapshot minus(const LatencySnapshot &earlier) const;
    void add(const LatencySnapshot &other);
};

} // namespace streamscope
