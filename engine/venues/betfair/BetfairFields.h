#pragma once

// Where Betfair's own fields of a change message land in DecodedFields (the venue slots
// BetfairSpec.cpp maps them to, read back by BetfairVenue). A change message's "op" (mcm,
// ocm) is its event type.
//
// Thread contract: constants only.

#include "protocol/DecodedFields.h"

#include <string_view>

namespace streamscope::betfair {

// DecodedFields::texts
enum Text : quint8 { kClk = 0, kInitialClk, kChangeType, kSegmentType };
// DecodedFields::numbers
enum Number : quint8 { kStatus = 0, kConflateMs, kHeartbeatMs };
// Bits of DecodedFields::flags: some mc[]/oc[] element had con=true, img=true.
enum Flag : quint8 { kConflated = 0, kImage };

inline std::string_view text(const DecodedFields &f, Text slot)
{
    return f.texts[slot];
}
inline std::int64_t number(const DecodedFields &f, Number slot)
{
    return f.numbers[slot];
}

} // namespace streamscope::betfair
