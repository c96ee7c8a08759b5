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
    VenuePresets p;
    p.markets = {VenueMarket{.id = QStringLiteral("public"),
                             .title = QStringLiteral("Public"),
                             .endpoints = {QUrl(QStringLiteral("wss://ws.okx.com:8443/ws/v5/public")),
                                           QUrl(QStringLiteral("wss://wspap.okx.com:8443/ws/v5/public"))},
                             .channels = {QStringLiteral("books"), QStringLiteral("books5"), QStringLiteral("bbo-tbt"),
                                          QStringLiteral("trades"), QStringLiteral("tickers")},
                             .choices = {}}};
    p.exampleInstruments = {QStringLiteral("BTC-USDT"), QStringLiteral("ETH-USDT"), QStringLiteral("BTC-USDT-SWAP")};
    return p;
}

} // namespace

VenueEntry entry()
{
    return channelVenueEntry<OkxVenue, &decodeSpec>("OKX", &presets);
}

} // namespace streamscope::okx
