#pragma once

// What the head scan and the decoder find in Betfair's messages (BetfairSpec.cpp; where its
// own fields land: BetfairFields.h).
//
// Thread contract: the spec is built once on first use and immutable after.

#include "protocol/DecodeSpec.h"

namespace streamscope::betfair {

const DecodeSpec &decodeSpec();

} // namespace streamscope::betfair
