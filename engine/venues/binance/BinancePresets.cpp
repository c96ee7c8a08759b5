#include "BinancePresets.h"

#include <QtCore/QUrlQuery>

namespace streamscope {

QUrl BinancePresets::baseUrl(Market market)
{
    switch (market) {
    case Market::Spot: return QUrl(QStringLiteral("wss://stream.binance.com:9443"));
    case Market::SpotMarketData: return QUrl(QStringLiteral("wss://data-stream.binance.vision"));
    case Market::UsdmFutures: return QUrl(QStringLiteral("wss://fstream.binance.com"));
    case Market::Unknown: break;
    }
    return {};
}

QStringList BinancePresets::streamNames(const QStringList &symbols, const QStringList &types)
{
    QStringList names;
    for (const QString &type : types) {
        if (type.startsWith(QLatin1Char('!'))) {
            if (!names.contains(type))
                names << type;
            continue;
        }
        for (const QString &symbol : symbols) {
            const QString name = symbol.trimmed().toLower() + QLatin1Char('@') + type.trimmed();
            if (!symbol.trimmed().isEmpty() && !names.contains(name))
                names << name;
        }
    }
    return names;
}

QUrl BinancePresets::rawUrl(Market market, const QString &stream)
{
    QUrl url = baseUrl(market);
    url.setPath(QStringLiteral("/ws/") + stream);
    return url;
}

QUrl BinancePresets::combinedUrl(Market market, const QStringList &streams)
{
    return combinedUrl(baseUrl(market), streams);
}

QUrl BinancePresets::combinedUrl(const QUrl &base, const QStringList &streams)
{
    QUrl url = base.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
    url.setPath(QStringLiteral("/stream"));
    if (!streams.isEmpty()) {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("streams"), streams.join(QLatin1Char('/')));
        url.setQuery(query);
    }
    return url;
}

StreamConfig BinancePresets::preset(Market market, const QString &name, const QStringList &streams)
{
    StreamConfig c;
    c.name = name;
    c.venue = Venue("binance");
    c.url = combinedUrl(market, streams.mid(0, kMaxStreamsInUrl));
    c.subscribe = streams.mid(kMaxStreamsInUrl);
    c.futures = market == Market::UsdmFutures;
    if (c.futures) {
        // Futures: the server pings every 3 min and wants a pong within 10 min.
        c.pingIntervalMs = 180000;
        c.pongTimeoutMs = 600000;
    } else {
        // Spot: the server pings every 20 s and wants a pong within 1 min.
        c.pingIntervalMs = 20000;
        c.pongTimeoutMs = 60000;
    }
    return c;
}

VenuePresets BinancePresets::presets()
{
    const QStringList intervals = {
        QStringLiteral("1s"),  QStringLiteral("1m"),  QStringLiteral("3m"), QStringLiteral("5m"),
        QStringLiteral("15m"), QStringLiteral("30m"), QStringLiteral("1h"), QStringLiteral("2h"),
        QStringLiteral("4h"),  QStringLiteral("6h"),  QStringLiteral("8h"), QStringLiteral("12h"),
        QStringLiteral("1d"),  QStringLiteral("3d"),  QStringLiteral("1w"), QStringLiteral("1M")};
    const VenueChoice interval{QStringLiteral("interval"), intervals, QStringLiteral("1m")};
    const VenueChoice levels{QStringLiteral("levels"),
                             {QStringLiteral("5"), QStringLiteral("10"), QStringLiteral("20")},
                             QStringLiteral("20")};
    // The first speed is the market's default: a stream name at that speed has no suffix.
    VenueMarket spot{QStringLiteral("spot"),
                     QStringLiteral("Spot"),
                     {baseUrl(Market::Spot), baseUrl(Market::SpotMarketData)},
                     {QStringLiteral("trade"), QStringLiteral("aggTrade"), QStringLiteral("kline"),
                      QStringLiteral("depth"), QStringLiteral("depthDiff"), QStringLiteral("bookTicker")},
                     {interval, levels,
                      VenueChoice{QStringLiteral("speed"), {QStringLiteral("1000ms"), QStringLiteral("100ms")}, {}}}};
    // USD-M futures have no trade stream (aggTrade only).
    VenueMarket futures{QStringLiteral("usdm"),
                        QStringLiteral("USD-M futures"),
                        {baseUrl(Market::UsdmFutures), QUrl(QStringLiteral("wss://fstream.binancefuture.com"))},
                        {QStringLiteral("aggTrade"), QStringLiteral("kline"), QStringLiteral("depth"),
                         QStringLiteral("depthDiff"), QStringLiteral("bookTicker")},
                        {interval, levels,
                         VenueChoice{QStringLiteral("speed"),
                                     {QStringLiteral("250ms"), QStringLiteral("500ms"), QStringLiteral("100ms")},
                                     {}}}};
    VenuePresets p;
    p.markets = {spot, futures};
    p.exampleInstruments = {QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT")};
    p.maxStreamsInUrl = kMaxStreamsInUrl;
    return p;
}

} // namespace streamscope
