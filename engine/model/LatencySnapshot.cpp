#include "LatencySnapshot.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace streamscope {

int LatencyBuckets::index(std::uint64_t v) noexcept
{
    if (v < std::uint64_t(kSubBuckets))
        return int(v);
    int exponent = 63 - std::countl_zero(v); // >= kSubBucketBits
    if (exponent > kMaxExponent)
        return kCount - 1;
    const int shift = exponent - kSubBucketBits;
    const int sub = int((v >> shift) & (kSubBuckets - 1));
    return kSubBuckets + shift * kSubBuckets + sub;
}

std::uint64_t LatencyBuckets::lowerUs(int index) noexcept
{
    if (index < kSubBuckets)
        return std::uint64_t(index);
    const int shift = (index - kSubBuckets) / kSubBuckets;
    const int sub = (index - kSubBuckets) % kSubBuckets;
    return (std::uint64_t(kSubBuckets + sub)) << shift;
}

std::uint64_t LatencyBuckets::upperUs(int index) noexcept
{
    if (index < kSubBuckets)
        return std::uint64_t(index);
    const int shift = (index - kSubBuckets) / kSubBuckets;
    return lowerUs(index) + (std::uint64_t(1) << shift) - 1;
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
            return double(std::min(LatencyBuckets::upperUs(i), maxUs ? maxUs : LatencyBuckets::upperUs(i)));
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
    d.invalid = invalid > earlier.invalid ? invalid - earlier.invalid : 0;
    d.maxUs = top >= 0 ? std::min(LatencyBuckets::upperUs(top), maxUs) : 0;
    return d;
}

void LatencySnapshot::record(std::int64_t valueUs)
{
    if (valueUs < 0) {
        ++negative;
        return;
    }
    const auto v = std::uint64_t(valueUs);
    const int i = LatencyBuckets::index(v);
    if (buckets.size() <= i)
        buckets.resize(i + 1);
    ++buckets[i];
    ++count;
    sumUs += v;
    maxUs = std::max(maxUs, v);
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
    invalid += other.invalid;
    maxUs = std::max(maxUs, other.maxUs);
}

} // namespace streamscope
