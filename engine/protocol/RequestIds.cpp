#include "RequestIds.h"

#include <atomic>

namespace streamscope {

namespace {
std::atomic<qint64> g_nextRequestId{1};
} // namespace

qint64 nextRequestId()
{
    return g_nextRequestId.fetch_add(1, std::memory_order_relaxed);
}

} // namespace streamscope
