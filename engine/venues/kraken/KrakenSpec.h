#pragma once

// What the head scan and the decoder find in Kraken's messages (KrakenSpec.cpp).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::kraken {

const DecodeSpec &decodeSpec();

} // namespace streamscope::kraken
