#include "BetfairBookRules.h"

#include "BetfairFields.h"

#include <QtCore/QJsonArray>

namespace streamscope::betfair {

using Ladder = BetfairBookRules::Ladder;

BetfairBookRules::BetfairBookRules(Ladder ladder)
{
    m_layout.messageType = "mcm";
    m_layout.groups = "mc";
    m_layout.groupId = "id";
    m_layout.groupImage = "img";
    m_layout.definition = "marketDefinition";
    m_layout.version = "version";
    m_layout.items = "rc";
    m_layout.itemId = "id";
    m_layout.itemSub = "hc";
    m_layout.positional = ladder != Ladder::AllOffers;
    m_layout.bids = ladder == Ladder::AllOffers ? "atb" : ladder == Ladder::BestOffers ? "batb" : "bdatb";
    m_layout.asks = ladder == Ladder::AllOffers ? "atl" : ladder == Ladder::BestOffers ? "batl" : "bdatl";
    m_layout.kindSlot = kChangeType;
    m_layout.imageKind = "SUB_IMAGE";
    m_layout.segmentSlot = kSegmentType;
    m_layout.segmentStart = "SEG_START";
    m_layout.segmentEnd = "SEG_END";
}

Ladder BetfairBookRules::ladderOf(const QJsonObject &marketSubscription)
{
    const QJsonArray fields = marketSubscription.value(QStringLiteral("marketDataFilter"))
                                  .toObject()
                                  .value(QStringLiteral("fields"))
                                  .toArray();
    // The deepest ladder asked for.
    if (fields.contains(QStringLiteral("EX_ALL_OFFERS")))
        return Ladder::AllOffers;
    if (fields.contains(QStringLiteral("EX_BEST_OFFERS")))
        return Ladder::BestOffers;
    if (fields.contains(QStringLiteral("EX_BEST_OFFERS_DISP")))
        return Ladder::BestOffersVirtual;
    return Ladder::None;
}

const BetfairBookRules *BetfairBookRules::forLadder(Ladder ladder)
{
    static const BetfairBookRules all(Ladder::AllOffers);
    static const BetfairBookRules best(Ladder::BestOffers);
    static const BetfairBookRules bestVirtual(Ladder::BestOffersVirtual);
    switch (ladder) {
    case Ladder::AllOffers: return &all;
    case Ladder::BestOffers: return &best;
    case Ladder::BestOffersVirtual: return &bestVirtual;
    case Ladder::None: break;
    }
    return nullptr;
}

} // namespace streamscope::betfair
