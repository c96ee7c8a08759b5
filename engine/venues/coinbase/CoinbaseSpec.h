#pragma once

// What the head scan and the decoder find in Coinbase's messages (CoinbaseSpec.cpp).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::coinbase {

const DecodeSpec &decodeSpec();

} // namespace streamscope::coinbase
