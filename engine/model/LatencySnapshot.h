#pragma once

// Latency buckets and a plain copy of a histogram's counters: the value types that the
// engine's LatencyHistogram (stats/) fills and that its users read. Any thread.

#include <QtCore/QVector>

#include <cstdint>

namespace streamscope {

// Log-linear buckets in microseconds (HdrHistogram-style): values below 32 µs get a bucket
// each; above, every power of two is split into 32 linear sub-buckets, so any recorded value
// is known to within 1/32 (about 3 %). Range 0 to 2^36 µs (19 h); larger values land in the
// last bucket.
struct LatencyBuckets {
    static constexpr int kSubBucketBits = 5;
    static constexpr int kSubBuckets = 1 << kSubBucketBits; // 32
    static constexpr int kMaxExponent = 35;                 // top bucket: [2^35, 2^36)
    static constexpr int kCount = kSubBuckets + (kMaxExponent - kSubBucketBits + 1) * kSubBuckets;

    static int index(std::uint64_t valueUs) noexcept;
    static std::uint64_t lowerUs(int index) noexcept;
    static std::uint64_t upperUs(int index) noexcept; // inclusive
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
    std::uint64_t invalid = 0; // event times not plausible (not between 2000 and 2100): no latency
    std::uint64_t maxUs = 0;   // since start; for a difference: upper bound of the top bucket

    bool isEmpty() const { return count == 0; }
    // Value (µs) at quantile q in [0, 1]: the upper bound of the bucket holding it, capped
    // at the maximum. 0 when empty.
    double percentileUs(double q) const;
    double meanUs() const { return count ? double(sumUs) / double(count) : 0.0; }

    LatencySnapshot minus(const LatencySnapshot &earlier) const;
    // Counts one value, as LatencyHistogram::record() does (for a single thread's own tally).
    void record(std::int64_t valueUs);
    void add(const LatencySnapshot &other);
};

} // namespace streamscope
