#pragma once

// Betfair's price ladders as order books (docs/books.md, "Betfair's rules"), given to the
// engine's book keeper as a BookRules of nested ladders (book::LadderLayout; the keeper's side:
// session/BookLadders): one book per market and runner of the market change messages (op "mcm"),
// `marketId/selectionId`, plus `/hc` when the runner's handicap is not zero. The snapshot is in
// the stream: a SUB_IMAGE (ct) is an image of every market it carries, a market with img=true an
// image of that market; other changes set levels. A market's version (marketDefinition.version)
// never goes back. A segmented image (segmentType SEG_START .. SEG_END) is whole at SEG_END.
// Available to back is the bid side, available to lay the ask side; a book whose best back is at
// or above its best lay is crossed.
//
// Which ladder a book follows is the subscription's (its marketDataFilter.fields): EX_ALL_OFFERS
// the full ladder atb/atl ([price, size], size 0 removes the level); else EX_BEST_OFFERS the best
// offers batb/batl ([position, price, size], at most 10 places); else EX_BEST_OFFERS_DISP the
// virtual best offers bdatb/bdatl; none of them: no books. Traded volumes (trd), the last traded
// price and starting prices are not ladders of offers and are not kept.
//
// Thread contract: immutable static objects.

#include "book/BookRules.h"

#include <QtCore/QJsonObject>

namespace streamscope::betfair {

class BetfairBookRules final : public book::BookRules {
public:
    enum class Ladder : std::uint8_t { None = 0, AllOffers, BestOffers, BestOffersVirtual };

    // The ladder a market subscription delivers ("marketDataFilter":{"fields":[..]}).
    static Ladder ladderOf(const QJsonObject &marketSubscription);
    // The rules of that ladder; null for Ladder::None.
    static const BetfairBookRules *forLadder(Ladder ladder);

    book::SnapshotSource snapshotSource() const override { return book::SnapshotSource::Stream; }
    std::string_view diffEventType() const override { return m_layout.messageType; }
    // Continuity is the market's version, kept by the ladders (BookLadders): every change applies.
    book::DiffAction next(const book::DiffIds &, std::int64_t) const override { return book::DiffAction::Apply; }
    const book::LadderLayout *ladders() const override { return &m_layout; }
    book::LevelKeys diffKeys() const override { return {}; }
    book::LevelKeys snapshotKeys() const override { return {}; }

private:
    explicit BetfairBookRules(Ladder ladder);

    book::LadderLayout m_layout;
};

} // namespace streamscope::betfair
