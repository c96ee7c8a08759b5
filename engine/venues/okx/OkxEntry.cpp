// OKX's registry entry (VenueList.h): its handler, decode spec, presets and subscription names.

#include "OkxSpec.h"
#include "OkxVenue.h"
#include "model/ChannelSubscription.h"
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

// "channel:instrument" for every pair (ChannelSubscription.h), in the order given.
QStringList streamNames(const QStringList &instruments, const QStringList &channels)
{
    QStringList names;
    for (const QString &channel : channels) {
        for (const QString &instrument : instruments) {
            const QString name = ChannelSubscription{channel.trimmed(), instrument.trimmed()}.text();
            if (ChannelSubscription::parse(name) && !names.contains(name))
                names << name;
        }
    }
    return names;
}

} // namespace

VenueEntry entry()
{
    VenueEntry e;
    e.title = "OKX";
    e.channelSubscriptions = true;
    e.createHandler = [](const StreamConfig &config, VenueHost &host) -> std::unique_ptr<VenueHandler> {
        return std::make_unique<OkxVenue>(config, host, decodeSpec());
    };
    e.decodeSpec = &decodeSpec;
    e.presets = &presets;
    e.streamNames = &streamNames;
    return e;
}

} // namespace streamscope::okx
