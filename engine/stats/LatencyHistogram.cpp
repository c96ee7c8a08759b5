#include "LatencyHistogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace streamscope {

LatencySnapshot LatencyHistogram::snapshot() const
{
    LatencySnapshot s;
    // Totals first: buckets read later may hold a few more records than `count` says, never
    // fewer. The used range is read first too: a bucket beyond it was empty when `count` was.
    const int used = m_usedBuckets.load();
    s.count = m_count.load();
    s.sumUs = m_sumUs.load();
    s.negative = m_negative.load();
    s.invalid = m_invalid.load();
    s.maxUs = m_maxUs.load();
    s.buckets.resize(used);
    std::uint64_t inBuckets = 0;
    for (int r = 0; r * kRowBuckets < used; ++r) {
        const Row *row = m_rows[std::size_t(r)].load(std::memory_order_acquire);
        const int end = std::min(used, (r + 1) * kRowBuckets);
        for (int i = r * kRowBuckets; i < end; ++i) {
            s.buckets[i] = row ? (*row)[std::size_t(i % kRowBuckets)].load(std::memory_order_relaxed) : 0;
            inBuckets += s.buckets[i];
        }
    }
    s.count = std::max(s.count, inBuckets);
    return s;
}

} // namespace streamscope
