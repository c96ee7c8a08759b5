#pragma once

// What the head scan and the decoder find in a generic stream's messages (GenericSpec.cpp).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::generic {

const DecodeSpec &decodeSpec();

} // namespace streamscope::generic
