#pragma once

// Binance stream names, URLs and ready-made stream configurations for spot and USD-M
// futures: stream names from symbols and stream types ("BTCUSDT" + "aggTrade" →
// "btcusdt@aggTrade"), raw (/ws/<name>) and combined (/stream?streams=a/b) URLs on a
// market's host or on any host the user names (a testnet, a local replay server), and
// presets carrying each market's limits (control messages per second, ping/pong timing), and
// what the add-stream dialog offers (presets()). The UI reaches it through the engine's
// VenueCatalog (BinanceEntry.cpp registers streamNames and the combined URL), so there is one
// Binance URL builder and one per-URL stream limit.
//
// Thread contract: pure functions, callable from any thread.

#include "model/StreamConfig.h"
#include "model/VenuePresets.h"

#include <QtCore/QStringList>
#include <QtCore/QUrl>

namespace streamscope {

class BinancePresets {
public:
    enum class Market : quint8 { Unknown = 0, Spot, SpotMarketData, UsdmFutures };

    // Streams named in a combined URL; the rest are SUBSCRIBEd after connect. Binance
    // documents no URL limit, but proxies and servers commonly refuse request lines over
    // 4 KB (8 KB at best). A stream name is at most 36 characters (a 20-character symbol and
    // "@depth20@1000ms"), so 100 names with their separators take at most 3.7 KB and always
    // fit; 200 could need 7.4 KB and be refused on the way.
    static constexpr int kMaxStreamsInUrl = 100;

    // wss://stream.binance.com:9443, wss://data-stream.binance.vision, wss://fstream.binance.com
    static QUrl baseUrl(Market market);
    // symbol@type for every pair, lower-case symbols, in the order given; a type that names
    // an all-market stream ("!miniTicker@arr", starting with '!') appears once, as is.
    static QStringList streamNames(const QStringList &symbols, const QStringList &types);
    static QUrl rawUrl(Market market, const QString &stream);
    static QUrl combinedUrl(Market market, const QStringList &streams);
    // The same on `base` (scheme, host and port; its path and query are replaced).
    static QUrl combinedUrl(const QUrl &base, const QStringList &streams);
    // A stream of `streams` on `market`: a combined URL with the first kMaxStreamsInUrl, the
    // rest subscribed after connect (and split over connections past 1,024), the market's
    // pacing (futures flag) and ping/pong timing.
    static StreamConfig preset(Market market, const QString &name, const QStringList &streams);
    // The dialog's data: markets "spot" (with the market-data-only host) and "usdm" (with the
    // futures testnet), their channels and the values of interval, levels and speed.
    static VenuePresets presets();
};

} // namespace streamscope
