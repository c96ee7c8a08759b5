#pragma once

// One stream's flight-recorder history: compressed chunks of capture lines (each a complete
// zstd frame) with the time span they cover, oldest first. Chunks leave from the front:
// when their last line is older than the time kept (evictOlderThan) or when the memory cap
// over all streams needs room (FlightBudget::enforce, through evictOldest). The store counts
// what left for each reason, and charges its bytes to its budget.
//
// Thread contract: append(), the evictions and chunks() on one thread (the capture writer
// thread; FlightBudget::enforce runs there too); the figures (bytes(), messages(), spanMs(),
// the eviction counts) are atomics, read on any thread.

#include <QtCore/QtGlobal>

#include <atomic>
#include <deque>
#include <string>

namespace streamscope {

class FlightBudget;

class FlightChunkStore {
public:
    struct Chunk {
        qint64 firstUs = 0;   // receive time of its first line
        qint64 lastUs = 0;    // and of its last
        quint64 messages = 0; // message lines (events are not counted)
        std::string bytes;    // one zstd frame
    };

    explicit FlightChunkStore(FlightBudget *budget = nullptr);
    ~FlightChunkStore();
    FlightChunkStore(const FlightChunkStore &) = delete;
    FlightChunkStore &operator=(const FlightChunkStore &) = delete;

    void append(Chunk chunk);
    // Drops the chunks whose last line is older than `cutoffUs`; returns the messages dropped.
    quint64 evictOlderThan(qint64 cutoffUs);
    // Drops the oldest chunk to make room under the memory cap; returns its messages.
    quint64 evictOldest();
    const std::deque<Chunk> &chunks() const { return m_chunks; }
    bool empty() const { return m_chunks.empty(); }
    // The first line's time of the oldest chunk (owner thread).
    qint64 oldestUs() const { return m_chunks.empty() ? 0 : m_chunks.front().firstUs; }

    // Any thread.
    quint64 bytes() const { return m_bytes.load(std::memory_order_relaxed); }
    quint64 messages() const { return m_messages.load(std::memory_order_relaxed); }
    qint64 spanMs() const;
    quint64 evictedAgeMessages() const { return m_evictedAge.load(std::memory_order_relaxed); }
    quint64 evictedCapMessages() const { return m_evictedCap.load(std::memory_order_relaxed); }
    quint64 evictedCapChunks() const { return m_evictedCapChunks.load(std::memory_order_relaxed); }

private:
    quint64 popFront();
    void publishSpan();

    FlightBudget *const m_budget;
    std::deque<Chunk> m_chunks;
    std::atomic<quint64> m_bytes{0};
    std::atomic<quint64> m_messages{0};
    std::atomic<qint64> m_firstUs{0};
    std::atomic<qint64> m_lastUs{0};
    std::atomic<quint64> m_evictedAge{0};
    std::atomic<quint64> m_evictedCap{0};
    std::atomic<quint64> m_evictedCapChunks{0};
};

} // namespace streamscope
