#pragma once

// What the head scan and the decoder find in OKX's messages (OkxSpec.cpp; where its own
// fields land: OkxFields.h).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::okx {

const DecodeSpec &decodeSpec();

} // namespace streamscope::okx
