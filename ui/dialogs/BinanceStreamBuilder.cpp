#include "BinanceStreamBuilder.h"

#include "VenueCatalog.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QRegularExpression>

namespace streamscope::ui {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("BinanceStreamBuilder", text);
}

const Venue kBinance("binance");
} // namespace

const VenuePresets &BinanceStreamBuilder::presets()
{
    static const VenuePresets binance = VenueCatalog::presets(kBinance);
    return binance;
}

const VenueMarket &BinanceStreamBuilder::marketPresets(BinanceRequest::Market market)
{
    static const VenueMarket none;
    const VenueMarket *m = presets().market(market == BinanceRequest::Market::UsdmFutures ? QStringLiteral("usdm")
                                                                                          : QStringLiteral("spot"));
    return m ? *m : none;
}

int BinanceStreamBuilder::maxStreamsInUrl()
{
    return presets().maxStreamsInUrl;
}

QStringList BinanceStreamBuilder::endpoints(BinanceRequest::Market market)
{
    QStringList out;
    for (const QUrl &url : marketPresets(market).endpoints)
        out << url.toString();
    return out;
}

QString BinanceStreamBuilder::defaultEndpoint(BinanceRequest::Market market)
{
    // The market-data-only host is spot's alternative endpoint.
    const QStringList all = endpoints(market);
    return all.value(market == BinanceRequest::Market::SpotMarketData ? 1 : 0);
}

QStringList BinanceStreamBuilder::klineIntervals()
{
    return marketPresets(BinanceRequest::Market::Spot).values(QStringLiteral("interval"));
}

QStringList BinanceStreamBuilder::depthSpeeds(BinanceRequest::Market market)
{
    return marketPresets(market).values(QStringLiteral("speed"));
}

bool BinanceStreamBuilder::hasTradeStream(BinanceRequest::Market market)
{
    return marketPresets(market).channels.contains(QStringLiteral("trade"));
}

QStringList BinanceStreamBuilder::parseSymbols(const QString &text, QString *error)
{
    static const QRegularExpression separators(QStringLiteral("[\\s,;]+"));
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9]{2,20}$"));
    QStringList out;
    const QStringList parts = text.split(separators, Qt::SkipEmptyParts);
    for (const QString &p : parts) {
        if (!valid.match(p).hasMatch()) {
            if (error)
                *error = tr("Symbol \"%1\" is not valid: use 2 to 20 letters and digits, for example BTCUSDT.").arg(p);
            return {};
        }
        const QString s = p.toLower();
        if (!out.contains(s))
            out.append(s);
    }
    if (out.isEmpty() && error)
        *error = tr("Enter at least one symbol, for example BTCUSDT.");
    return out;
}

BinanceStreams BinanceStreamBuilder::build(const BinanceRequest &req)
{
    BinanceStreams out;
    const QStringList symbols = parseSymbols(req.symbolsText, &out.error);
    if (symbols.isEmpty())
        return out;

    const QStringList speeds = depthSpeeds(req.market);
    const auto speedSuffix = [&](const QString &speed, QString *error) -> QString {
        if (speed.isEmpty() || speed == speeds.first())
            return QString(); // the market's default speed has no suffix
        if (!speeds.contains(speed)) {
            *error = tr("Update speed %1 is not available on this market (choose %2).")
                         .arg(speed, speeds.join(QStringLiteral(", ")));
            return QString();
        }
        return QLatin1Char('@') + speed;
    };
    QString err;
    const QString depthSuffix = req.partialDepth ? speedSuffix(req.depthSpeed, &err) : QString();
    const QString diffSuffix = req.depthDiff ? speedSuffix(req.diffSpeed, &err) : QString();
    if (!err.isEmpty()) {
        out.error = err;
        return out;
    }
    if (req.trade && !hasTradeStream(req.market)) {
        out.error = tr("USD-M futures have no trade stream: use aggTrade.");
        return out;
    }
    if (req.kline && !klineIntervals().contains(req.klineInterval)) {
        out.error = tr("Kline interval \"%1\" is not one of %2.")
                        .arg(req.klineInterval, klineIntervals().join(QStringLiteral(", ")));
        return out;
    }
    const QStringList levels = marketPresets(req.market).values(QStringLiteral("levels"));
    if (req.partialDepth && !levels.contains(QString::number(req.depthLevels))) {
        out.error =
            tr("Partial depth levels must be %1 or %2.")
                .arg(levels.mid(0, levels.size() - 1).join(QStringLiteral(", ")), levels.value(levels.size() - 1));
        return out;
    }

    QStringList types;
    if (req.trade)
        types.append(QStringLiteral("trade"));
    if (req.aggTrade)
        types.append(QStringLiteral("aggTrade"));
    if (req.kline)
        types.append(QStringLiteral("kline_") + req.klineInterval);
    if (req.partialDepth)
        types.append(QStringLiteral("depth") + QString::number(req.depthLevels) + depthSuffix);
    if (req.depthDiff)
        types.append(QStringLiteral("depth") + diffSuffix);
    if (req.bookTicker)
        types.append(QStringLiteral("bookTicker"));
    // Symbol by symbol, so that a symbol's streams stay together in the URL and the preview.
    for (const QString &symbol : symbols)
        out.streams += VenueCatalog::streamNames(kBinance, {symbol}, types);
    if (out.streams.isEmpty()) {
        out.error = tr("Pick at least one stream type (trade, aggTrade, kline, depth or bookTicker).");
        return out;
    }

    QString endpoint = req.endpoint.trimmed();
    if (endpoint.isEmpty())
        endpoint = defaultEndpoint(req.market);
    while (endpoint.endsWith(QLatin1Char('/')))
        endpoint.chop(1);
    const QUrl base(endpoint, QUrl::StrictMode);
    if (!base.isValid() || (base.scheme() != QLatin1String("wss") && base.scheme() != QLatin1String("ws"))
        || base.host().isEmpty() || !(base.path().isEmpty() || base.path() == QLatin1String("/")) || base.hasQuery()) {
        out.error = tr("Endpoint \"%1\" is not valid: expected wss://host[:port], for example %2.")
                        .arg(req.endpoint.trimmed(), defaultEndpoint(req.market));
        return out;
    }

    if (req.delivery == BinanceRequest::Delivery::InUrl && out.streams.size() > maxStreamsInUrl()) {
        out.error = tr("%1 streams are too many for one URL (at most %2): choose \"Subscribe after connect\".")
                        .arg(out.streams.size())
                        .arg(maxStreamsInUrl());
        return out;
    }

    // The combined endpoint wraps each message as {"stream":..,"data":..}, so every message
    // says which stream it belongs to. With SUBSCRIBE delivery the URL opens the first
    // stream and the rest are subscribed after connect (and the engine spreads more than
    // 1024 over several connections).
    const QStringList inUrl = req.delivery == BinanceRequest::Delivery::Subscribe ? out.streams.mid(0, 1) : out.streams;
    out.url = VenueCatalog::streamUrl(kBinance, base, inUrl);
    if (req.delivery == BinanceRequest::Delivery::Subscribe)
        out.subscribe = out.streams.mid(1);
    out.ok = true;
    return out;
}

} // namespace streamscope::ui
