#pragma once

// How a stream's subscriptions are spread over connections when one connection may carry
// only so many (Binance: 1,024): the first connection also carries the streams its URL
// names, the others only their SUBSCRIBEd share. Pure functions.
//
// Thread contract: any thread.

#include <QtCore/QList>
#include <QtCore/QStringList>

namespace streamscope {

class ShardPlan {
public:
    // The share of each connection, in order; one share (possibly empty) when unlimited
    // (perConnection <= 0).
    static QList<QStringList> split(const QStringList &subscriptions, int perConnection, int namedInUrl);
    // Room left on a connection that carries `carried` subscribed streams; `shard` 0 also
    // carries the `namedInUrl` streams of the URL. Unlimited: `wanted`.
    static int room(int perConnection, int shard, int carried, int namedInUrl, int wanted);
};

} // namespace streamscope
