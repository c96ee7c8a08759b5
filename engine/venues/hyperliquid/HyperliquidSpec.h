#pragma once

// What the head scan and the decoder find in Hyperliquid's messages (HyperliquidSpec.cpp).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::hyperliquid {

const DecodeSpec &decodeSpec();

} // namespace streamscope::hyperliquid
