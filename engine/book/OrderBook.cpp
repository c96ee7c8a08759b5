#include "OrderBook.h"

#include <algorithm>

namespace streamscope::book {

OrderBook::OrderBook(std::size_t maxLevelsPerSide)
    : m_maxLevels(std::max<std::size_t>(1, maxLevelsPerSide))
{
    reserve(kDefaultReserve);
}

void OrderBook::reserve(std::size_t levelsPerSide)
{
    const std::size_t n = std::min(std::max(levelsPerSide, kDefaultReserve), m_maxLevels);
    for (std::vector<Level> &v : m_sides)
        v.reserve(n);
}

void OrderBook::clear()
{
    for (std::vector<Level> &v : m_sides)
        v.clear();
}

std::size_t OrderBook::find(Side side, Fixed price) const
{
    const std::vector<Level> &v = m_sides[int(side)];
    // Bids ascend and asks descend, so that the best of each is last.
    const auto it = side == Side::Bid
        ? std::lower_bound(v.begin(), v.end(), price, [](const Level &l, Fixed p) { return l.price < p; })
        : std::lower_bound(v.begin(), v.end(), price, [](const Level &l, Fixed p) { return l.price > p; });
    return std::size_t(it - v.begin());
}

Fixed OrderBook::quantity(Side side, Fixed price) const
{
    const std::vector<Level> &v = m_sides[int(side)];
    const std::size_t i = find(side, price);
    return i < v.size() && v[i].price == price ? v[i].qty : 0;
}

void OrderBook::set(Side side, Fixed price, Fixed qty)
{
    std::vector<Level> &v = m_sides[int(side)];
    std::size_t i = find(side, price);
    if (i < v.size() && v[i].price == price) {
        if (qty == 0)
            v.erase(v.begin() + std::ptrdiff_t(i));
        else
            v[i].qty = qty;
        return;
    }
    if (qty == 0)
        return; // removing a level we do not hold
    if (v.size() >= m_maxLevels) {
        ++m_pruned;
        if (i == 0)
            return;         // worse than every level held
        v.erase(v.begin()); // the worst makes room
        --i;
    }
    v.insert(v.begin() + std::ptrdiff_t(i), Level{price, qty});
}

std::size_t OrderBook::pruneBeyond(Side side, std::size_t depth)
{
    std::vector<Level> &v = m_sides[int(side)];
    if (v.size() <= depth)
        return 0;
    const std::size_t drop = v.size() - depth;
    v.erase(v.begin(), v.begin() + std::ptrdiff_t(drop));
    return drop;
}

} // namespace streamscope::book
