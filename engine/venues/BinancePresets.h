#pragma once

// Binance stream URLs and ready-made stream configurations for spot and USD-M futures:
// stream names from symbols and stream types ("BTCUSDT" + "aggTrade" → "btcusdt@aggTrade"),
// raw (/ws/<name>) and combined (/stream?streams=a/b) URLs, and presets carrying each
// market's limits (control messages per second, ping/pong timing).
//
// Thread contract: pure functions, callable from any thread.

#include "model/StreamConfig.h"

#include <QtCore/QStringList>
#include <QtCore/QUrl>

namespace streamscope {

class BinancePresets {
public:
    enum class Market : quint8 { Unknown = 0, Spot, SpotMarketData, UsdmFutures };

    // Streams named in a combined URL before the rest is SUBSCRIBEd after connect: keeps
    // the URL short.
    static constexpr int kMaxStreamsInUrl = 100;

    // wss://stream.binance.com:9443, wss://data-stream.binance.vision, wss://fstream.binance.com
    static QUrl baseUrl(Market market);
    // symbol@type for every pair, lower-case symbols, in the order given; a type that names
    // an all-market stream ("!miniTicker@arr", starting with '!') appears once, as is.
    static QStringList streamNames(const QStringList &symbols, const QStringList &types);
    static QUrl rawUrl(Market market, const QString &stream);
    static QUrl combinedUrl(Market market, const QStringList &streams);
    // A stream of `streams` on `market`: a combined URL with the first kMaxStreamsInUrl, the
    // rest subscribed after connect (and split over connections past 1,024), the market's
    // pacing (futures flag) and ping/pong timing.
    static StreamConfig preset(Market market, const QString &name, const QStringList &streams);
};

} // namespace streamscope
