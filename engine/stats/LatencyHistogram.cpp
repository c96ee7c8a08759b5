#include "LatencyHistogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace streamscope {

int LatencyHistogram::bucketIndex(std::uint64_t v) noexcept
{
    if (v < std::uint64_t(kSubBuckets))
        return int(v);
    int exponent = 63 - std::countl_zero(v); // >= kSubBucketBits
    if (exponent > kMaxExponent)
        return kBucketCount - 1;
    const int shift = exponent - kSubBucketBits;
    const int sub = int((v >> shift) & (kSubBuckets - 1));
    return kSubBuckets + shift * kSubBuckets + sub;
}

std::uint64_t LatencyHistogram::bucketLowerUs(int index) noexcept
{
    if (index < kSubBuckets)
        return std::uint64_t(index);
    const int shift = (index - kSubBuckets) / kSubBuckets;
    const int sub = (index - kSubBuckets) % kSubBuckets;
    return (std::uint64_t(kSubBuckets + sub)) << shift;
}

std::uint64_t LatencyHistogram::bucketUpperUs(int index) noexcept
{
    if (index < kSubBuckets)
        return std::uint64_t(index);
    const int shift = (index - kSubBuckets) / kSubBuckets;
    return bucketLowerUs(index) + (std::uint64_t(1) << shift) - 1;
}

LatencySnapshot LatencyHistogram::snapshot() const
{
    LatencySnapshot s;
    // Totals first: buckets read later may hold a few more records than `count` says, never
    // fewer. The used range is read first too: a bucket beyond it was empty when `count` was.
    const int used = m_usedBuckets.load();
    s.count = m_count.load();
    s.sumUs = m_sumUs.load();
    s.negative = m_negative.load();
    s.maxUs = m_maxUs.load();
    s.buckets.resize(used);
    std::uint64_t inBuckets = 0;
    for (int i = 0; i < used; ++i) {
        s.buckets[i] = m_buckets[std::size_t(i)].load(std::memory_order_relaxed);
        inBuckets += s.buckets[i];
    }
    s.count = std::max(s.count, inBuckets);
    return s;
}

double LatencySnapshot::percentileUs(double q) const
{
    if (count == 0 || buckets.isEmpty())
        return 0.0;
    q = std::clamp(q, 0.0, 1.0);
    const auto rank = std::max<std::uint64_t>(1, std::uint64_t(std::ceil(q * double(count))));
    std::uint64_t seen = 0;
    for (int i = 0; i < buckets.size(); ++i) {
        seen += buckets[i];
        if (seen >= rank)
            return double(std::min(LatencyHistogram::bucketUpperUs(i), maxUs ? maxUs : LatencyHistogram::bucketUpperUs(i)));
    }
    return double(maxUs);
}

LatencySnapshot LatencySnapshot::minus(const LatencySnapshot &earlier) const
{
    LatencySnapshot d;
    d.buckets.resize(buckets.size());
    int top = -1;
    std::uint64_t total = 0;
    for (int i = 0; i < buckets.size(); ++i) {
        const std::uint64_t now = i < buckets.size() ? buckets[i] : 0;
        const std::uint64_t then = i < earlier.buckets.size() ? earlier.buckets[i] : 0;
        d.buckets[i] = now > then ? now - then : 0;
        if (d.buckets[i]) {
            top = i;
            total += d.buckets[i];
        }
    }
    d.buckets.resize(top + 1);
    d.count = total;
    d.sumUs = sumUs > earlier.sumUs ? sumUs - earlier.sumUs : 0;
    d.negative = negative > earlier.negative ? negative - earlier.negative : 0;
    d.maxUs = top >= 0 ? std::min(LatencyHistogram::bucketUpperUs(top), maxUs) : 0;
    return d;
}

void LatencySnapshot::add(const LatencySnapshot &other)
{
    if (buckets.size() < other.buckets.size())
        buckets.resize(other.buckets.size());
    for (int i = 0; i < other.buckets.size(); ++i)
        buckets[i] += other.buckets[i];
    count += other.count;
    sumUs += other.sumUs;
    negative += other.negative;
    maxUs = std::max(maxUs, other.maxUs);
}

} // namespace streamscope
