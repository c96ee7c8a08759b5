#pragma once

// Log-linear latency histogram in microseconds, on the buckets of LatencyBuckets
// (model/LatencySnapshot.h). Negative latencies (clock skew) are counted apart, and so are
// event times that are no plausible time at all (recordInvalid()).
//
// Thread contract: record() is called by one writer thread (the stream's worker); snapshot()
// may be called from any thread at any time and never blocks the writer.
//
// Memory: the buckets come in rows of 32 (one power of two each), allocated by the writer the
// first time a value falls in the row and published with a release store; a stream's latencies
// span a few rows, so a histogram holds ~1–2 KiB instead of 8 (every stream has two, and a
// stream with several event types one more per type). At most kRows allocations in its life,
// never one per message once its range is seen.

#include "RelaxedCounter.h"
#include "model/LatencySnapshot.h"

#include <QtCore/QVector>

#include <array>
#include <cstdint>

namespace streamscope {

class LatencyHistogram {
public:
    static constexpr int kBucketCount = LatencyBuckets::kCount;
    static constexpr int kRowBuckets = LatencyBuckets::kSubBuckets;
    static constexpr int kRows = kBucketCount / kRowBuckets;
    static_assert(kBucketCount % kRowBuckets == 0);

    LatencyHistogram() = default;
    ~LatencyHistogram()
    {
        for (auto &row : m_rows)
            delete row.load(std::memory_order_relaxed);
    }
    LatencyHistogram(const LatencyHistogram &) = delete;
    LatencyHistogram &operator=(const LatencyHistogram &) = delete;

    void record(std::int64_t valueUs) noexcept
    {
        if (valueUs < 0) {
            m_negative.add();
            return;
        }
        const auto v = static_cast<std::uint64_t>(valueUs);
        const int index = LatencyBuckets::index(v);
        Row *row = m_rows[std::size_t(index / kRowBuckets)].load(std::memory_order_relaxed);
        if (!row) [[unlikely]]
            row = addRow(index / kRowBuckets);
        auto &bucket = (*row)[std::size_t(index % kRowBuckets)];
        bucket.store(bucket.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        if (index >= m_usedBuckets.load())
            m_usedBuckets.store(index + 1);
        m_sumUs.add(v);
        m_count.add();
        if (v > m_maxUs.load())
            m_maxUs.store(v);
    }

    void recordInvalid() noexcept { m_invalid.add(); }
    // The writer's totals so far (for the worker's own per-second figures).
    std::uint64_t count() const noexcept { return m_count.load(); }
    std::uint64_t sumUs() const noexcept { return m_sumUs.load(); }
    // Every value recorded, negative and invalid ones included: moves whenever snapshot() would.
    std::uint64_t recorded() const noexcept { return m_count.load() + m_negative.load() + m_invalid.load(); }

    LatencySnapshot snapshot() const;
    // Rows of buckets allocated so far (the memory it holds: rows × 256 B).
    int rowsAllocated() const noexcept
    {
        int n = 0;
        for (const auto &row : m_rows)
            n += row.load(std::memory_order_relaxed) != nullptr;
        return n;
    }

private:
    using Row = std::array<std::atomic<std::uint64_t>, kRowBuckets>;
    Row *addRow(int row)
    {
        auto *r = new Row{}; // zeroed
        m_rows[std::size_t(row)].store(r, std::memory_order_release);
        return r;
    }

    std::array<std::atomic<Row *>, kRows> m_rows{}; // null until a value falls in the row
    RelaxedCounter m_count;
    RelaxedCounter m_sumUs;
    RelaxedCounter m_negative;
    RelaxedCounter m_invalid;
    RelaxedValue<std::uint64_t> m_maxUs;
    // One past the highest bucket ever recorded into: a snapshot copies only that far, which
    // for latencies in the ms range is a fifth of the array (the GUI copies every stream's
    // histogram once a second, /metrics on every scrape).
    RelaxedValue<int> m_usedBuckets;
};

} // namespace streamscope
