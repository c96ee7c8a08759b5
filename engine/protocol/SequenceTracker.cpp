#include "SequenceTracker.h"

#include <climits>

namespace streamscope {

namespace {
std::uint64_t fnv1a(std::string_view s)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ULL;
    return h | 1; // never 0: 0 marks an empty slot
}
} // namespace

SequenceTracker::Gap SequenceTracker::check(std::string_view symbol, std::int64_t firstId, std::int64_t finalId,
                                            std::int64_t prevFinalId)
{
    Gap gap;
    const std::uint64_t h = fnv1a(symbol);
    Slot *slot = nullptr;
    for (int i = 0; i < m_used; ++i) {
        if (m_slots[std::size_t(i)].hash == h) {
            slot = &m_slots[std::size_t(i)];
            break;
        }
    }
    if (!slot) {
        // First event of this symbol (or table full: reuse the last slot) starts the chain.
        slot = &m_slots[std::size_t(m_used < kSlots ? m_used++ : kSlots - 1)];
        slot->hash = h;
        slot->lastFinal = finalId;
        return gap;
    }
    const std::int64_t last = slot->lastFinal;
    const bool canFollow = last < INT64_MAX; // nothing follows INT64_MAX
    const std::int64_t next = canFollow ? last + 1 : last;
    if (prevFinalId != INT64_MIN) {
        gap.found = prevFinalId != last;
    } else {
        // Spot: U must be last u + 1. An event overlapping the last one, or older, is not a gap.
        gap.found = canFollow && firstId > next;
    }
    if (gap.found) {
        gap.expectedFrom = canFollow ? next : last;
        gap.resumedAt = firstId;
        // Both are int64: when resumedAt is the larger, their difference fits in uint64.
        if (firstId > gap.expectedFrom)
            gap.missing = std::uint64_t(firstId) - std::uint64_t(gap.expectedFrom);
    }
    slot->lastFinal = finalId;
    return gap;
}

void SequenceTracker::reset()
{
    m_slots.fill(Slot{});
    m_used = 0;
}

} // namespace streamscope
