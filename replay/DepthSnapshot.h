#pragma once

#include "ScenarioPool.h"

#include <QByteArray>

namespace streamscope::replay {

// The REST snapshot of a book scenario (ScenarioPool::bookSymbol(), e.g. book_depth_diff), as
// Binance answers GET /api/v3/depth: {"lastUpdateId":N,"bids":[[p,q],...],"asks":[...]}, best
// first, at most `limit` a side.
//
// The book after the pool message `lastIndex` (the last depth diff a connection sent) is the
// pool's last round of messages ending there, applied in order: each diff sets absolute
// quantities, and the pool repeats, so a level's latest value was always set within the last
// round. With no message sent yet (lastIndex < 0) it is the whole pool, the book a connection's
// first diff continues. `lastUpdateId` is that diff's `u` (kFirstSeq − 1 before the first).
//
// Thread contract: a pure function of an immutable pool; any thread.
QByteArray depthSnapshotJson(const ScenarioPool &pool, qint64 lastIndex, quint64 lastUpdateId, int limit);

} // namespace streamscope::replay
