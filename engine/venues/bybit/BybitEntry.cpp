// Bybit's registry entry (VenueList.h): its handler, decode spec, presets and subscription names.

#include "BybitSpec.h"
#include "BybitVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::bybit {

namespace {

// The dialog's data: the v5 public websockets of spot and linear (USDT/USDC perpetuals and
// futures), live then testnet, and the public topics whose messages StreamScope reads (event
// time "ts"; the order books carry "u"). A channel and an instrument make the topic
// "<channel>.<instrument>".
VenuePresets presets()
{
    const QStringList channels = {QStringLiteral("orderbook.1"), QStringLiteral("orderbook.50"),
                                  QStringLiteral("orderbook.200"), QStringLiteral("publicTrade"),
                                  QStringLiteral("tickers")};
    VenuePresets p;
    p.markets = {
        VenueMarket{.id = QStringLiteral("spot"),
                    .title = QStringLiteral("Spot"),
                    .endpoints = {QUrl(QStringLiteral("wss://stream.bybit.com/v5/public/spot")),
                                  QUrl(QStringLiteral("wss://stream-testnet.bybit.com/v5/public/spot"))},
                    .channels = channels,
                    .choices = {}},
        VenueMarket{.id = QStringLiteral("linear"),
                    .title = QStringLiteral("Linear (USDT/USDC contracts)"),
                    .endpoints = {QUrl(QStringLiteral("wss://stream.bybit.com/v5/public/linear")),
                                  QUrl(QStringLiteral("wss://stream-testnet.bybit.com/v5/public/linear"))},
                    .channels = channels,
                    .choices = {}},
    };
    p.exampleInstruments = {QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT"), QStringLiteral("SOLUSDT")};
    return p;
}

} // namespace

VenueEntry entry()
{
    return channelVenueEntry<BybitVenue, &decodeSpec>("Bybit", &presets);
}

} // namespace streamscope::bybit
