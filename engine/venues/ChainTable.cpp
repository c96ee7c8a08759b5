#include "ChainTable.h"

namespace streamscope {

std::uint64_t ChainTable::key(std::string_view first, std::string_view second)
{
    std::uint64_t h = 1469598103934665603ULL;
    const auto mix = [&h](std::string_view s) {
        for (const unsigned char c : s)
            h = (h ^ c) * 1099511628211ULL;
    };
    mix(first);
    h = (h ^ 0x1f) * 1099511628211ULL;
    mix(second);
    return h | 1; // never 0: 0 marks an empty slot
}

void ChainTable::set(std::uint64_t key, std::int64_t last)
{
    if (std::int64_t *slot = find(key)) {
        *slot = last;
        return;
    }
    Slot &slot = m_slots[std::size_t(m_used < kSlots ? m_used++ : kSlots - 1)];
    slot.key = key;
    slot.last = last;
}

void ChainTable::reset()
{
    m_slots.fill(Slot{});
    m_used = 0;
}

} // namespace streamscope
