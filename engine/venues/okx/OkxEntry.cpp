// OKX's registry entry (VenueList.h): its handler, decode spec, presets and subscription names.

#include "OkxSpec.h"
#include "OkxVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::okx {

namespace {

// The dialog's data: the public websocket (live, then demo trading) and the public channels
// whose messages StreamScope reads (event time "ts"; the books channels carry seqId).
VenuePresets presets()
{
    VenueMarket market;
    market.id = QStringLiteral("public");
    market.title = QStringLiteral("Public");
    market.endpoints = {QUrl(QStringLiteral("wss://ws.okx.com:8443/ws/v5/public")),
                        QUrl(QStringLiteral("wss://wspap.okx.com:8443/ws/v5/public"))};
    market.channels = {QStringLiteral("books"), QStringLiteral("books5"), QStringLiteral("bbo-tbt"),
                       QStringLiteral("trades"), QStringLiteral("tickers")};
    VenuePresets p;
    p.markets = {market};
    p.exampleInstruments = {QStringLiteral("BTC-USDT"), QStringLiteral("ETH-USDT"), QStringLiteral("BTC-USDT-SWAP")};
    return p;
}

} // namespace

VenueEntry entry()
{
    VenueEntry e = venueEntry<OkxVenue, &decodeSpec>("OKX", &presets);
    e.channelSubscriptions = true;
    e.streamNames = &channelStreamNames;
    return e;
}

} // namespace streamscope::okx
