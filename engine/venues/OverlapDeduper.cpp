#include "OverlapDeduper.h"

#include "protocol/MessageDecoder.h"

#include <algorithm>

namespace streamscope {

namespace {
std::uint64_t fnv1a(std::uint64_t h, std::string_view s)
{
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ULL;
    return h;
}
} // namespace

bool OverlapDeduper::keyOf(const DecodedFields &f, std::uint64_t &key, std::int64_t &id)
{
    id = f.tradeId != DecodedFields::kNone        ? f.tradeId
        : f.finalUpdateId != DecodedFields::kNone ? f.finalUpdateId
                                                  : f.eventTime;
    if (id == DecodedFields::kNone)
        return false;
    std::uint64_t h = 1469598103934665603ULL;
    h = f.stream.empty() ? fnv1a(fnv1a(h, f.symbol), f.eventType) : fnv1a(h, f.stream);
    key = h | 1; // never 0: 0 marks an empty slot
    return true;
}

void OverlapDeduper::begin()
{
    m_slots.assign(std::size_t(kSlots), Slot{});
    m_used = m_boundaries = m_waiting = m_pendingNew = 0;
    m_active = true;
    m_switched = false;
}

void OverlapDeduper::end()
{
    m_active = false;
    m_switched = false;
    std::vector<Slot>().swap(m_slots);
}

OverlapDeduper::Slot *OverlapDeduper::find(std::uint64_t key)
{
    std::size_t i = std::size_t(key) & std::size_t(kSlots - 1);
    for (int probes = 0; probes < kSlots; ++probes, i = (i + 1) & std::size_t(kSlots - 1)) {
        Slot &s = m_slots[i];
        if (s.key == key)
            return &s;
        if (s.key == 0) {
            if (m_used >= kSlots / 2)
                return nullptr; // full: such keys are counted as if keyless
            ++m_used;
            s.key = key;
            if (m_switched)
                ++m_pendingNew; // only the new connection will see it now
            return &s;
        }
    }
    return nullptr;
}

bool OverlapDeduper::acceptOld(const DecodedFields &f)
{
    std::uint64_t key;
    std::int64_t id;
    if (!keyOf(f, key, id))
        return !m_switched;
    Slot *s = find(key);
    if (!s)
        return !m_switched;
    if (s->hasBoundary && id >= s->boundary) {
        if (!s->oldReached) {
            s->oldReached = true;
            --m_waiting;
        }
        return false; // the new connection counts it
    }
    if (s->hasOld && id <= s->maxOld)
        return false;
    s->hasOld = true;
    s->maxOld = id;
    return true;
}

bool OverlapDeduper::acceptNew(const DecodedFields &f)
{
    std::uint64_t key;
    std::int64_t id;
    if (!keyOf(f, key, id))
        return m_switched;
    Slot *s = find(key);
    if (!s)
        return m_switched;
    if (!s->hasBoundary) {
        s->hasBoundary = true;
        ++m_boundaries;
        if (s->hasOld && s->maxOld >= id) {
            // The old connection is ahead: it has counted up to maxOld already.
            s->boundary = s->maxOld + 1;
            s->oldReached = true;
        } else {
            s->boundary = id;
            s->oldReached = m_switched; // after the switch the old connection delivers nothing more
            if (!s->oldReached)
                ++m_waiting;
        }
    }
    if (id < s->boundary)
        return false;
    if (m_switched && !s->newPassed) {
        s->newPassed = true;
        --m_pendingNew;
    }
    s->newPassed = true;
    return true;
}

void OverlapDeduper::switchOver()
{
    m_switched = true;
    m_waiting = 0;
    m_pendingNew = 0;
    for (Slot &s : m_slots) {
        if (s.key == 0)
            continue;
        s.oldReached = true;
        if (!s.newPassed)
            ++m_pendingNew;
        // Keys the new connection has not delivered yet: it counts what comes after the
        // old connection's last event.
        if (!s.hasBoundary && s.hasOld) {
            s.hasBoundary = true;
            s.boundary = s.maxOld + 1;
        }
    }
}

} // namespace streamscope
