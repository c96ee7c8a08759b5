#pragma once

// What the head scan and the decoder find in Bybit's messages (BybitSpec.cpp; where its own
// fields land: BybitFields.h).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::bybit {

const DecodeSpec &decodeSpec();

} // namespace streamscope::bybit
