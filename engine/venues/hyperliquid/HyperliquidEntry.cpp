// Hyperliquid's registry entry (VenueList.h): its handler, decode spec, presets and subscription
// names.

#include "HyperliquidSpec.h"
#include "HyperliquidVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::hyperliquid {

namespace {

// The dialog's data: the public websocket (mainnet, then testnet) and the subscription types
// whose messages StreamScope reads (event time "time").
VenuePresets presets()
{
    VenuePresets p;
    p.markets = {VenueMarket{.id = QStringLiteral("public"),
                             .title = QStringLiteral("Public"),
                             .endpoints = {QUrl(QStringLiteral("wss://api.hyperliquid.xyz/ws")),
                                           QUrl(QStringLiteral("wss://api.hyperliquid-testnet.xyz/ws"))},
                             .channels = {QStringLiteral("l2Book"), QStringLiteral("trades")},
                             .choices = {}}};
    p.exampleInstruments = {QStringLiteral("BTC"), QStringLiteral("ETH"), QStringLiteral("SOL")};
    return p;
}

} // namespace

VenueEntry entry()
{
    return channelVenueEntry<HyperliquidVenue, &decodeSpec>("Hyperliquid", &presets);
}

} // namespace streamscope::hyperliquid
