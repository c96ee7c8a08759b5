#pragma once

// Where Coinbase's own fields of a data message land in DecodedFields (the venue slots
// CoinbaseSpec.cpp maps them to). A message's channel ("l2_data") is its event type, its first
// event's product_id the symbol, its sequence_num the finalUpdateId.
//
// Thread contract: constants only.

#include <QtCore/QtGlobal>

namespace streamscope::coinbase {

// DecodedFields::texts
enum Text : quint8 { kEventType = 0 }; // the first event's "type": "snapshot" or "update"

} // namespace streamscope::coinbase
