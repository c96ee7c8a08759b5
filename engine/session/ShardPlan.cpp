#include "ShardPlan.h"

#include <algorithm>

namespace streamscope {

QList<QStringList> ShardPlan::split(const QStringList &subscriptions, int perConnection, int namedInUrl)
{
    QList<QStringList> shards;
    if (perConnection <= 0) {
        shards << subscriptions;
        return shards;
    }
    int room = std::max(0, perConnection - namedInUrl);
    QStringList current;
    for (const QString &s : subscriptions) {
        if (int(current.size()) >= room) {
            shards << current;
            current.clear();
            room = perConnection;
        }
        current << s;
    }
    shards << current;
    return shards;
}

int ShardPlan::room(int perConnection, int shard, int carried, int namedInUrl, int wanted)
{
    if (perConnection <= 0)
        return wanted;
    return perConnection - carried - (shard == 0 ? namedInUrl : 0);
}

} // namespace streamscope
