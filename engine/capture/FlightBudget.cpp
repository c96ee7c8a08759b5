#include "FlightBudget.h"

#include "FlightChunkStore.h"

#include <algorithm>

namespace streamscope {

FlightBudget::FlightBudget(quint64 capBytes)
    : m_cap(capBytes)
{
}

void FlightBudget::attach(FlightChunkStore *store)
{
    std::lock_guard lock(m_mutex);
    if (std::find(m_stores.begin(), m_stores.end(), store) == m_stores.end())
        m_stores.push_back(store);
}

void FlightBudget::detach(FlightChunkStore *store)
{
    std::lock_guard lock(m_mutex);
    m_stores.erase(std::remove(m_stores.begin(), m_stores.end(), store), m_stores.end());
}

quint64 FlightBudget::enforce(quint64 extraBytes)
{
    std::lock_guard lock(m_mutex);
    quint64 evicted = 0;
    while (usedBytes() + extraBytes > capBytes()) {
        // The oldest history goes first, whichever stream holds it.
        FlightChunkStore *oldest = nullptr;
        for (FlightChunkStore *s : m_stores)
            if (!s->empty() && (!oldest || s->oldestUs() < oldest->oldestUs()))
                oldest = s;
        if (!oldest)
            break;
        oldest->evictOldest();
        ++evicted;
    }
    return evicted;
}

} // namespace streamscope
