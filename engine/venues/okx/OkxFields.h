#pragma once

// Where OKX's own fields of a data message land in DecodedFields (the venue slots OkxSpec.cpp
// maps them to, read back by OkxVenue). A message's channel ("books", "trades") is its event
// type, its instId the symbol; seqId and prevSeqId are the sequence fields (finalUpdateId,
// prevFinalUpdateId).
//
// Thread contract: constants only.

#include "protocol/DecodedFields.h"

#include <string_view>

namespace streamscope::okx {

// DecodedFields::texts
enum Text : quint8 { kAction = 0 }; // "snapshot" or "update" (order books)

inline std::string_view text(const DecodedFields &f, Text slot)
{
    return f.texts[slot];
}

} // namespace streamscope::okx
