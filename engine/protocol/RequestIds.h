#pragma once

// Ids for outgoing requests (Binance SUBSCRIBE/UNSUBSCRIBE/LIST_SUBSCRIPTIONS, Betfair ops),
// unique across the process so that a response can be matched to its request whichever
// stream or connection it arrives on.
//
// Thread contract: any thread (one relaxed atomic increment).

#include <QtCore/QtGlobal>

namespace streamscope {

qint64 nextRequestId();

} // namespace streamscope
