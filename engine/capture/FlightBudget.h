#pragma once

// The flight recorder's memory cap, one for all streams: every stream's FlightChunkStore
// charges what it holds here (compressed chunks, and the text it has not compressed yet), and
// enforce() evicts the oldest chunk of any stream until the total is within the cap again. So
// a busy stream cannot hold more than the cap, and a quiet one keeps its minutes as long as
// the memory allows.
//
// Thread contract: setCapBytes(), capBytes() and usedBytes() on any thread; charge() on the
// writer thread (and in a store's destructor); attach(), detach() and enforce() on the writer
// thread. A mutex guards the list of stores; it is never taken on a stream's hot path.

#include <QtCore/QtGlobal>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

namespace streamscope {

class FlightChunkStore;

class FlightBudget {
public:
    explicit FlightBudget(quint64 capBytes = 0);

    void setCapBytes(quint64 capBytes) { m_cap.store(capBytes, std::memory_order_relaxed); }
    quint64 capBytes() const { return m_cap.load(std::memory_order_relaxed); }
    quint64 usedBytes() const { return quint64(std::max<qint64>(0, m_used.load(std::memory_order_relaxed))); }
    void charge(qint64 deltaBytes) { m_used.fetch_add(deltaBytes, std::memory_order_relaxed); }

    void attach(FlightChunkStore *store);
    void detach(FlightChunkStore *store);
    // Evicts the oldest chunks over all stores until the bytes used plus `extraBytes` (about to
    // be charged) are within the cap, or no chunk is left; returns the chunks evicted.
    quint64 enforce(quint64 extraBytes = 0);

private:
    std::atomic<quint64> m_cap{0};
    std::atomic<qint64> m_used{0};
    std::mutex m_mutex;
    std::vector<FlightChunkStore *> m_stores; // guarded by m_mutex
};

} // namespace streamscope
