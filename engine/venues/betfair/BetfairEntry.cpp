// Betfair's registry entry (VenueList.h): its handler, decode spec and presets.

#include "BetfairSpec.h"
#include "BetfairVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::betfair {

namespace {

// The dialog's data: the stream API's hosts (live, then integration) and the market data
// fields a market subscription may ask for (the first is the default).
VenuePresets presets()
{
    VenueMarket exchange;
    exchange.id = QStringLiteral("exchange");
    exchange.title = QStringLiteral("Exchange");
    exchange.endpoints = {QUrl(QStringLiteral("tls://stream-api.betfair.com:443")),
                          QUrl(QStringLiteral("tls://stream-api-integration.betfair.com:443"))};
    exchange.channels = {QStringLiteral("marketSubscription"), QStringLiteral("orderSubscription")};
    exchange.choices = {VenueChoice{
        QStringLiteral("fields"),
        {QStringLiteral("EX_BEST_OFFERS"), QStringLiteral("EX_BEST_OFFERS_DISP"), QStringLiteral("EX_ALL_OFFERS"),
         QStringLiteral("EX_TRADED"), QStringLiteral("EX_TRADED_VOL"), QStringLiteral("EX_LTP"),
         QStringLiteral("EX_MARKET_DEF"), QStringLiteral("SP_TRADED"), QStringLiteral("SP_PROJECTED")},
        {}}};
    VenuePresets p;
    p.markets = {exchange};
    p.exampleInstruments = {QStringLiteral("1.120684740")};
    return p;
}

} // namespace

VenueEntry entry()
{
    VenueEntry e = venueEntry<BetfairVenue, &decodeSpec>("Betfair", &presets);
    e.lineProtocol = true;
    return e;
}

} // namespace streamscope::betfair
