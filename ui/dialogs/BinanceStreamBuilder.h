#pragma once

// The UI side of the Binance preset: checks the user's choices (symbols, stream types,
// update speeds, endpoint, delivery) against what the engine's VenueCatalog says Binance
// offers (its presets: endpoints, intervals, speeds, the per-URL limit), with messages a user
// can act on, then asks the catalog for the stream names and the combined URL, so the dialog
// and the engine build URLs one way. Pure logic, no network; any thread.

#include "VenuePresets.h"

#include <QtCore/QStringList>
#include <QtCore/QUrl>

namespace streamscope::ui {

struct BinanceRequest {
    // Spot (with its market-data-only host as an alternative endpoint) or USD-M futures.
    enum class Market : quint8 { Unknown = 0, Spot, SpotMarketData, UsdmFutures };
    enum class Delivery { Unknown = 0, InUrl, Subscribe };

    Market market = Market::Spot;
    QString endpoint;    // empty: the market's default host
    QString symbolsText; // "BTCUSDT, ethusdt bnbusdt"
    bool trade = false;
    bool aggTrade = false;
    bool kline = false;
    QString klineInterval = QStringLiteral("1m");
    bool partialDepth = false;
    int depthLevels = 20; // 5, 10, 20
    QString depthSpeed;   // "" (market default) or "100ms", "250ms", "500ms", "1000ms"
    bool depthDiff = false;
    QString diffSpeed;
    bool bookTicker = false;
    Delivery delivery = Delivery::InUrl;
};

struct BinanceStreams {
    bool ok = false;
    QString error;
    QStringList streams;   // every stream name, in order
    QUrl url;              // combined endpoint: <host>/stream?streams=a/b/c
    QStringList subscribe; // names sent as SUBSCRIBE after connect
};

class BinanceStreamBuilder {
public:
    // The venue's presets (VenueCatalog) and a market's part of them.
    static const VenuePresets &presets();
    static const VenueMarket &marketPresets(BinanceRequest::Market market);
    // Streams one URL may name.
    static int maxStreamsInUrl();
    static QString defaultEndpoint(BinanceRequest::Market market);
    // The market's endpoints: the default first, then its alternatives.
    static QStringList endpoints(BinanceRequest::Market market);
    static QStringList klineIntervals();
    static QStringList depthSpeeds(BinanceRequest::Market market); // first entry: the default
    static bool hasTradeStream(BinanceRequest::Market market);

    // Splits and normalises the symbols; sets `error` and returns {} if one is malformed.
    static QStringList parseSymbols(const QString &text, QString *error);
    static BinanceStreams build(const BinanceRequest &request);
};

} // namespace streamscope::ui
