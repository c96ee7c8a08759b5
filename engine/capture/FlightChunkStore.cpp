#include "FlightChunkStore.h"

#include "FlightBudget.h"

namespace streamscope {

FlightChunkStore::FlightChunkStore(FlightBudget *budget)
    : m_budget(budget)
{
}

FlightChunkStore::~FlightChunkStore()
{
    if (m_budget)
        m_budget->charge(-qint64(m_bytes.load(std::memory_order_relaxed)));
}

void FlightChunkStore::append(Chunk chunk)
{
    const quint64 size = chunk.bytes.size();
    m_messages.store(m_messages.load(std::memory_order_relaxed) + chunk.messages, std::memory_order_relaxed);
    m_bytes.store(m_bytes.load(std::memory_order_relaxed) + size, std::memory_order_relaxed);
    if (m_budget)
        m_budget->charge(qint64(size));
    m_chunks.push_back(std::move(chunk));
    publishSpan();
}

quint64 FlightChunkStore::popFront()
{
    const Chunk &c = m_chunks.front();
    const quint64 size = c.bytes.size();
    const quint64 messages = c.messages;
    m_chunks.pop_front();
    m_messages.store(m_messages.load(std::memory_order_relaxed) - messages, std::memory_order_relaxed);
    m_bytes.store(m_bytes.load(std::memory_order_relaxed) - size, std::memory_order_relaxed);
    if (m_budget)
        m_budget->charge(-qint64(size));
    publishSpan();
    return messages;
}

quint64 FlightChunkStore::evictOlderThan(qint64 cutoffUs)
{
    quint64 messages = 0;
    while (!m_chunks.empty() && m_chunks.front().lastUs < cutoffUs)
        messages += popFront();
    if (messages)
        m_evictedAge.store(m_evictedAge.load(std::memory_order_relaxed) + messages, std::memory_order_relaxed);
    return messages;
}

quint64 FlightChunkStore::evictOldest()
{
    if (m_chunks.empty())
        return 0;
    const quint64 messages = popFront();
    m_evictedCap.store(m_evictedCap.load(std::memory_order_relaxed) + messages, std::memory_order_relaxed);
    m_evictedCapChunks.store(m_evictedCapChunks.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return messages;
}

void FlightChunkStore::publishSpan()
{
    m_firstUs.store(m_chunks.empty() ? 0 : m_chunks.front().firstUs, std::memory_order_relaxed);
    m_lastUs.store(m_chunks.empty() ? 0 : m_chunks.back().lastUs, std::memory_order_relaxed);
}

qint64 FlightChunkStore::spanMs() const
{
    const qint64 first = m_firstUs.load(std::memory_order_relaxed);
    const qint64 last = m_lastUs.load(std::memory_order_relaxed);
    return last > first ? (last - first) / 1000 : 0;
}

} // namespace streamscope
