// Coinbase's registry entry (VenueList.h): its handler, decode spec, presets and subscription
// names.

#include "CoinbaseSpec.h"
#include "CoinbaseVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::coinbase {

namespace {

// The dialog's data: Advanced Trade's market data websocket and the channels whose messages
// StreamScope reads (event time "timestamp"; every message carries "sequence_num").
VenuePresets presets()
{
    VenuePresets p;
    p.markets = {
        VenueMarket{.id = QStringLiteral("advanced-trade"),
                    .title = QStringLiteral("Advanced Trade"),
                    .endpoints = {QUrl(QStringLiteral("wss://advanced-trade-ws.coinbase.com"))},
                    .channels = {QStringLiteral("level2"), QStringLiteral("market_trades"), QStringLiteral("ticker"),
                                 QStringLiteral("ticker_batch"), QStringLiteral("candles")},
                    .choices = {}}};
    p.exampleInstruments = {QStringLiteral("BTC-USD"), QStringLiteral("ETH-USD"), QStringLiteral("SOL-USD")};
    return p;
}

} // namespace

VenueEntry entry()
{
    return channelVenueEntry<CoinbaseVenue, &decodeSpec>("Coinbase", &presets);
}

} // namespace streamscope::coinbase
