#pragma once

// Counts every event exactly once while two connections of one stream overlap during a
// make-before-break rollover.
//
// Both connections deliver the same per-key ordered event sequence (key: the combined
// stream name, else symbol + event type; id: trade id "a"/"t", else the final update id
// "u", else the event time). The new connection starts somewhere in the old one's
// sequence. When the new connection's first event of a key arrives, that key gets a
// boundary: the old connection counts the key's events below it, the new connection those
// at or above it. Each side is in order, so the two shares are disjoint and together
// complete: nothing is lost, nothing counted twice, whichever side is ahead. The old
// connection may close once it has reached the boundary of every key the new one has
// delivered (caughtUp()); after that the table stays until every key has been seen past
// its boundary on the new connection (settled()).
//
// Events without an id are counted from the old connection until the switch, then from
// the new one.
//
// Thread contract: the session's worker only. The table is allocated once when an overlap
// begins (a rare event), never per message.

#include <cstdint>
#include <string_view>
#include <vector>

namespace streamscope {

struct DecodedFields;

class OverlapDeduper {
public:
    static constexpr int kSlots = 4096; // two full connections of 1,024 streams, at most half full

    void begin();
    void end();
    bool active() const { return m_active; }
    bool switched() const { return m_switched; }

    // True if the message counts, false if it is a duplicate.
    bool acceptOld(const DecodedFields &fields);
    bool acceptNew(const DecodedFields &fields);
    // The old connection has delivered everything below every boundary set so far.
    bool caughtUp() const { return m_boundaries > 0 && m_waiting == 0; }
    // The old connection is gone: from now on the new one counts everything past the
    // old one's last event.
    void switchOver();
    // After the switch: every key has been seen past its boundary on the new connection.
    bool settled() const { return m_switched && m_pendingNew == 0; }

    static bool keyOf(const DecodedFields &fields, std::uint64_t &key, std::int64_t &id);

private:
    struct Slot {
        std::uint64_t key = 0; // 0: empty
        std::int64_t maxOld = 0;
        std::int64_t boundary = 0;
        bool hasOld = false;
        bool hasBoundary = false;
        bool oldReached = false;
        bool newPassed = false;
    };
    Slot *find(std::uint64_t key);

    std::vector<Slot> m_slots;
    int m_used = 0;
    int m_boundaries = 0;
    int m_waiting = 0;    // keys with a boundary the old connection has not reached yet
    int m_pendingNew = 0; // after the switch: keys not yet seen past their boundary on the new one
    bool m_active = false;
    bool m_switched = false;
};

} // namespace streamscope
