#pragma once

// Depth-diff continuity per symbol: on spot, each event's U must be the previous u + 1; on
// USD-M futures, each event's pu must equal the previous u. A break is a gap, reported with
// the missing range. Symbols are told apart by their name; a small fixed table, no
// allocation per message. The ids are the peer's: every step is checked, so ids at the
// int64 limits are a chain like any other (nothing follows INT64_MAX).
//
// Thread contract: one instance per session, used on the session's worker.

#include <QtCore/QtGlobal>

#include <array>
#include <cstdint>
#include <string_view>

namespace streamscope {

class SequenceTracker {
public:
    struct Gap {
        bool found = false;
        std::int64_t expectedFrom = 0; // first missing update id: the last one seen + 1 (INT64_MAX saturates)
        std::int64_t resumedAt = 0;    // first update id received after the gap
        std::uint64_t missing = 0;     // ids in expectedFrom..resumedAt-1; 0 when the ids went back
    };

    // U, u and pu as decoded (pu = INT64_MIN when absent). Returns the gap, if any.
    Gap check(std::string_view symbol, std::int64_t firstId, std::int64_t finalId, std::int64_t prevFinalId);
    void reset();

private:
    static constexpr int kSlots = 64;
    struct Slot {
        std::uint64_t hash = 0;
        std::int64_t lastFinal = 0;
    };
    std::array<Slot, kSlots> m_slots{};
    int m_used = 0;
};

} // namespace streamscope
