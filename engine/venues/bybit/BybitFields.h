#pragma once

// Where Bybit's own fields of a data message land in DecodedFields (the venue slots BybitSpec.cpp
// maps them to, read back by BybitVenue). A message's topic ("orderbook.50.BTCUSDT") is its
// event type, data.s its symbol, data.u its update id (finalUpdateId).
//
// Thread contract: constants only.

#include "protocol/DecodedFields.h"

#include <string_view>

namespace streamscope::bybit {

// DecodedFields::texts
enum Text : quint8 { kType = 0 }; // "snapshot" or "delta"

inline std::string_view text(const DecodedFields &f, Text slot)
{
    return f.texts[slot];
}

} // namespace streamscope::bybit
