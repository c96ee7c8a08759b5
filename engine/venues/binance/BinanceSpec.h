#pragma once

// What the head scan and the decoder find in Binance's messages (BinanceSpec.cpp).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::binance {

const DecodeSpec &decodeSpec();

} // namespace streamscope::binance
