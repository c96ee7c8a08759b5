// BetfairVenue's side of the price ladders (BetfairVenue.h; the rules: BetfairBookRules): which
// ladder the market subscription delivers, and a book that lost sync asking for a new image.

#include "BetfairBookRules.h"
#include "BetfairVenue.h"

#include "venues/VenueHost.h"

namespace streamscope {

namespace {
// Books that lose sync together (a market's runners) ask within one tick: one subscription
// serves them all.
constexpr qint64 kBookResubscribeMinMs = 1000;
} // namespace

const book::BookRules *BetfairVenue::bookRules() const
{
    return betfair::BetfairBookRules::forLadder(betfair::BetfairBookRules::ladderOf(m_config.marketSubscription));
}

// Betfair images a market only for a new subscription: the market subscription is sent again
// without clk/initialClk, and the venue answers with a SUB_IMAGE of every market it covers (the
// other markets' books take it as a legal reset).
bool BetfairVenue::resubscribeBook(const QString &instrument)
{
    Q_UNUSED(instrument);
    if (m_link < 0 || m_config.marketSubscription.isEmpty())
        return false;
    const qint64 nowMs = m_host.monotonicMs();
    if (m_bookResubscribedMs >= 0 && nowMs - m_bookResubscribedMs < kBookResubscribeMinMs)
        return true; // asked already: its image covers this book too
    m_bookResubscribedMs = nowMs;
    m_host.venueEvent(EventKind::Info,
                      QStringLiteral("a price ladder lost sync: market subscription sent again "
                                     "without clk, for a new image"));
    subscribe(m_link, QStringLiteral("marketSubscription"), m_config.marketSubscription, Resume{});
    return true;
}

} // namespace streamscope
