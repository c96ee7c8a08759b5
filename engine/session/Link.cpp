#include "Link.h"

#include <QtCore/QTimer>

namespace streamscope {

// Link::onMessage() is in MessageRouter.cpp, beside the hot path it calls.

Link::Link(MessageRouter *messageRouter, int linkId, int shardIndex, bool isRollover)
    : router(messageRouter)
    , id(linkId)
    , shard(shardIndex)
    , rollover(isRollover)
{
}

Link::~Link()
{
    delete outboxTimer;
}

} // namespace streamscope
