// Kraken's registry entry (VenueList.h): its handler, decode spec, presets and subscription
// names.

#include "KrakenSpec.h"
#include "KrakenVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::kraken {

namespace {

// The dialog's data: the public WebSocket v2 and the channels whose messages StreamScope reads
// (event time "timestamp").
VenuePresets presets()
{
    VenuePresets p;
    p.markets = {VenueMarket{.id = QStringLiteral("spot"),
                             .title = QStringLiteral("Spot"),
                             .endpoints = {QUrl(QStringLiteral("wss://ws.kraken.com/v2"))},
                             .channels = {QStringLiteral("book"), QStringLiteral("trade"), QStringLiteral("ticker")},
                             .choices = {}}};
    p.exampleInstruments = {QStringLiteral("BTC/USD"), QStringLiteral("ETH/USD"), QStringLiteral("SOL/USD")};
    return p;
}

} // namespace

VenueEntry entry()
{
    return channelVenueEntry<KrakenVenue, &decodeSpec>("Kraken", &presets);
}

} // namespace streamscope::kraken
