#pragma once

// Where Kraken's own fields of a data message land in DecodedFields (the venue slots
// KrakenSpec.cpp maps them to). A message's channel ("book", "trade") is its event type, the
// first data element's symbol its symbol.
//
// Thread contract: constants only.

#include <QtCore/QtGlobal>

namespace streamscope::kraken {

// DecodedFields::texts
enum Text : quint8 { kType = 0 }; // "snapshot" or "update"

} // namespace streamscope::kraken
