#include "NearestAudit.h"

#include "BookSync.h"

#include <algorithm>

namespace streamscope::book {

NearestAudit::NearestAudit(std::size_t maxLevelsPerSide)
    : m_local(maxLevelsPerSide)
{
}

void NearestAudit::begin(const OrderBook &book)
{
    m_local = book;
    rolled = 0;
    waitSinceMs = -1;
}

void NearestAudit::rollForward(const KeptMessage &message, std::size_t depth)
{
    if (message.snapshot)
        m_local.clear();
    for (std::size_t i = 0; i < message.count; ++i)
        m_local.set(message.levels[i].side, message.levels[i].price, message.levels[i].qty);
    if (depth > 0) {
        m_local.pruneBeyond(Side::Bid, depth);
        m_local.pruneBeyond(Side::Ask, depth);
    }
}

bool NearestAudit::changedBy(const KeptMessage &message, Side side, Fixed price, Fixed &qty)
{
    bool found = false;
    for (std::size_t i = 0; i < message.count; ++i) {
        const LevelChange &c = message.levels[i];
        if (c.side == side && c.price == price) {
            qty = c.qty;
            found = true;
        }
    }
    if (!found && message.snapshot) {
        qty = 0;
        return true;
    }
    return found;
}

AuditFigures NearestAudit::compare(const OrderBook &venue, const KeptMessage *next, std::size_t top) const
{
    constexpr std::size_t kMaxTop = BookSync::kAuditTopLevels;
    top = std::min(top, kMaxTop);
    AuditFigures f;
    for (int s = 0; s < 2; ++s) {
        const Side side = Side(s);
        // The prices of the best `top` levels of either book, each once.
        Fixed prices[2 * kMaxTop];
        std::size_t k = 0;
        for (std::size_t r = 0; r < std::min(top, venue.levels(side)); ++r)
            prices[k++] = venue.at(side, r).price;
        const std::size_t venueCount = k;
        for (std::size_t r = 0; r < std::min(top, m_local.levels(side)); ++r) {
            const Fixed p = m_local.at(side, r).price;
            if (std::find(prices, prices + venueCount, p) == prices + venueCount)
                prices[k++] = p;
        }
        for (std::size_t i = 0; i < k; ++i) {
            ++f.compared;
            const Fixed theirs = venue.quantity(side, prices[i]);
            Fixed after = 0;
            if (m_local.quantity(side, prices[i]) == theirs
                || (next && changedBy(*next, side, prices[i], after) && after == theirs))
                ++f.matched;
        }
        if (venue.levels(side) == 0)
            continue;
        const Fixed worst = venue.at(side, venue.levels(side) - 1).price;
        for (std::size_t r = 0; r < m_local.levels(side); ++r) {
            const Level &l = m_local.at(side, r);
            if (side == Side::Bid ? l.price < worst : l.price > worst)
                break;
            Fixed after = 0;
            if (venue.quantity(side, l.price) == 0 && !(next && changedBy(*next, side, l.price, after)))
                ++f.stale;
        }
    }
    return f;
}

} // namespace streamscope::book
