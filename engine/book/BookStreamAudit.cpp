// BookSync's audit of an in-stream book against the venue's REST snapshot (BookSync.h,
// docs/books.md "The audit"): at the same update id it is the REST books' audit (BookSync.cpp);
// at the nearest, the book as it was when the snapshot was asked for, rolled forward through the
// messages kept since up to the snapshot's point, compared price by price.

#include "BookSync.h"

#include <algorithm>

namespace streamscope::book {

void BookSync::streamAuditRequested()
{
    m_auditPoint = m_rules.auditPoint(m_streamDepth);
    m_auditWaitSinceMs = -1;
    if (m_auditPoint != AuditPoint::Nearest)
        return;
    m_auditStartId = m_key; // a snapshot from before this point cannot be placed
    if (!m_auditLocal)
        m_auditLocal = std::make_unique<OrderBook>(m_book.maxLevelsPerSide());
    *m_auditLocal = m_book;
    m_auditRolled = 0;
}

void BookSync::keepForAudit(const StreamMessage &message, const LevelChange *changes, std::size_t count)
{
    if (!buffer(message.ids, changes, count)) {
        m_audit = AuditStage::None; // the audit's buffer is full: given up, not counted
        clearPending(false);
        return;
    }
    m_pending.back().key = message.auditKey;
    m_pending.back().snapshot = message.snapshot;
}

void BookSync::rollForward(const Pending &p)
{
    OrderBook &book = *m_auditLocal;
    if (p.snapshot)
        book.clear();
    apply(book, m_pendingLevels.data() + p.begin, p.count);
    if (m_streamDepth > 0) {
        book.pruneBeyond(Side::Bid, m_streamDepth);
        book.pruneBeyond(Side::Ask, m_streamDepth);
    }
}

// `settled`: no message has come after the snapshot's point for kAuditSettleMs; the book as it
// is stands for that point.
void BookSync::tryCompleteNearest(bool settled)
{
    const std::int64_t at = m_auditSnapshotId;
    while (m_auditRolled < m_pending.size() && m_pending[m_auditRolled].key <= at)
        rollForward(m_pending[m_auditRolled++]);
    const Pending *next = m_auditRolled < m_pending.size() ? &m_pending[m_auditRolled] : nullptr;
    if (!next && !settled)
        return; // the book has not passed the snapshot's point yet
    compareNearest(next);
    if (m_audit != AuditStage::None) { // not desynced by the comparison
        m_audit = AuditStage::None;
        clearPending(false);
    }
}

// Whether the kept message `p` sets the level at `price` (a snapshot sets every level: those it
// does not hold to 0), and to what.
bool BookSync::changedBy(const Pending &p, Side side, Fixed price, Fixed &qty) const
{
    bool found = false;
    for (std::uint32_t i = 0; i < p.count; ++i) {
        const LevelChange &c = m_pendingLevels[p.begin + i];
        if (c.side == side && c.price == price) {
            qty = c.qty;
            found = true;
        }
    }
    if (!found && p.snapshot) {
        qty = 0;
        return true;
    }
    return found;
}

void BookSync::compareNearest(const Pending *next)
{
    const OrderBook &venue = *m_auditBook;
    const OrderBook &local = *m_auditLocal;
    const std::size_t n = m_streamDepth > 0 ? std::min(kAuditTopLevels, m_streamDepth) : kAuditTopLevels;
    std::size_t compared = 0;
    std::size_t matched = 0;
    qint64 stale = 0;
    for (int s = 0; s < 2; ++s) {
        const Side side = Side(s);
        // The prices of the best n levels of either book, each once.
        Fixed prices[2 * kAuditTopLevels];
        std::size_t k = 0;
        for (std::size_t r = 0; r < std::min(n, venue.levels(side)); ++r)
            prices[k++] = venue.at(side, r).price;
        const std::size_t venueCount = k;
        for (std::size_t r = 0; r < std::min(n, local.levels(side)); ++r) {
            const Fixed p = local.at(side, r).price;
            if (std::find(prices, prices + venueCount, p) == prices + venueCount)
                prices[k++] = p;
        }
        for (std::size_t i = 0; i < k; ++i) {
            ++compared;
            const Fixed theirs = venue.quantity(side, prices[i]);
            Fixed after = 0;
            if (local.quantity(side, prices[i]) == theirs
                || (next && changedBy(*next, side, prices[i], after) && after == theirs))
                ++matched;
        }
        // Stale: held here, within the snapshot's depth, absent there, and not changed by the
        // next message either.
        if (!m_auditHasSide[s])
            continue;
        const Fixed worst = m_auditWorst[s];
        for (std::size_t r = 0; r < local.levels(side); ++r) {
            const Level &l = local.at(side, r);
            if (side == Side::Bid ? l.price < worst : l.price > worst)
                break;
            Fixed after = 0;
            if (venue.quantity(side, l.price) == 0 && !(next && changedBy(*next, side, l.price, after)))
                ++stale;
        }
    }
    recordAudit(matched, compared, stale, true);
}

void BookSync::auditTick(qint64 nowMs)
{
    if (m_audit != AuditStage::Comparing || m_auditPoint != AuditPoint::Nearest) {
        m_auditWaitSinceMs = -1;
        return;
    }
    if (m_auditWaitSinceMs < 0) {
        m_auditWaitSinceMs = nowMs;
        return;
    }
    if (nowMs - m_auditWaitSinceMs >= kAuditSettleMs)
        tryCompleteNearest(true);
}

} // namespace streamscope::book
