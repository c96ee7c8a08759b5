#pragma once

// One instrument's price levels: bids and asks, each sorted, with exact prices and quantities
// (FixedPoint.h). A venue sets a level's absolute quantity; 0 removes it. Best bid and ask,
// level counts, the level at a rank from the best, whether the book is crossed (best bid ≥
// best ask).
//
// Storage: each side is one array sorted from its worst level to its best, so the best is the
// last element and a change near the top of the book, by far the most common, moves only the
// few levels above it. Capacity is reserved up front (reserve(), from the snapshot's size) and
// a side holds at most its limit (maxLevelsPerSide): at the limit, a level worse than every
// level held is dropped, else the worst held level makes room; both are counted as pruned. In
// the steady state (the book's size within what was reserved) a change allocates nothing.
// At 1,000 levels a side a book takes 2 × 1,024 × 16 bytes plus the object (memoryBytes()).
//
// Thread contract: a plain value, used by one thread (the stream's worker).

#include "FixedPoint.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace streamscope::book {

enum class Side : std::uint8_t { Bid = 0, Ask = 1 };

struct Level {
    Fixed price = 0;
    Fixed qty = 0;
    bool operator==(const Level &) const = default;
};

class OrderBook {
public:
    static constexpr std::size_t kDefaultReserve = 1024;
    static constexpr std::size_t kDefaultMaxLevels = 20'000; // per side

    explicit OrderBook(std::size_t maxLevelsPerSide = kDefaultMaxLevels);

    // Room for `levelsPerSide` levels a side without allocating (at least kDefaultReserve,
    // at most the limit).
    void reserve(std::size_t levelsPerSide);
    // No levels; the capacity stays.
    void clear();

    // Sets the level at `price` to `qty` (absolute); 0 removes it.
    void set(Side side, Fixed price, Fixed qty);

    std::size_t levels(Side side) const { return m_sides[int(side)].size(); }
    // The level `rank` places from the best (0: the best); rank < levels(side).
    const Level &at(Side side, std::size_t rank) const
    {
        const std::vector<Level> &v = m_sides[int(side)];
        return v[v.size() - 1 - rank];
    }
    std::optional<Level> best(Side side) const
    {
        const std::vector<Level> &v = m_sides[int(side)];
        if (v.empty())
            return std::nullopt;
        return v.back();
    }
    // The quantity at `price`, 0 if there is no such level.
    Fixed quantity(Side side, Fixed price) const;
    // Best bid ≥ best ask (both sides non-empty).
    bool crossed() const
    {
        return !m_sides[0].empty() && !m_sides[1].empty() && m_sides[0].back().price >= m_sides[1].back().price;
    }

    // Drops the levels of `side` beyond `depth` from the best; returns how many went.
    std::size_t pruneBeyond(Side side, std::size_t depth);
    // Levels dropped at the limit since the book was made (pruneBeyond() not included).
    std::uint64_t pruned() const { return m_pruned; }
    std::size_t maxLevelsPerSide() const { return m_maxLevels; }
    // Heap and object together.
    std::size_t memoryBytes() const
    {
        return sizeof(*this) + (m_sides[0].capacity() + m_sides[1].capacity()) * sizeof(Level);
    }
    // The whole side, worst first (for comparisons and tests).
    const std::vector<Level> &side(Side s) const { return m_sides[int(s)]; }

private:
    // The position of `price` in `side`'s array, or where it would go.
    std::size_t find(Side side, Fixed price) const;

    std::vector<Level> m_sides[2]; // worst first: bids ascending, asks descending by price
    std::size_t m_maxLevels;
    std::uint64_t m_pruned = 0;
};

} // namespace streamscope::book
