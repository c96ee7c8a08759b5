#include "../common/TestRegistry.h"
#include "BinanceStreamBuilder.h"

#include <QtTest/QTest>

using namespace streamscope::ui;
using Market = BinanceRequest::Market;
using Delivery = BinanceRequest::Delivery;

class tst_BinanceStreamBuilder : public QObject {
    Q_OBJECT
private slots:
    void build_data();
    void build();
    void rejects_data();
    void rejects();
    void manyStreamsNeedSubscribe();
    void urlLimitIsTheEngines();
};

void tst_BinanceStreamBuilder::build_data()
{
    QTest::addColumn<int>("market");
    QTest::addColumn<QString>("symbols");
    QTest::addColumn<QStringList>("types"); // trade aggTrade kline:1m depth:20:100ms diff:100ms bookTicker
    QTest::addColumn<int>("delivery");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QStringList>("subscribe");

    QTest::newRow("one aggTrade, spot") << int(Market::Spot) << QStringLiteral("BTCUSDT")
                                        << QStringList{QStringLiteral("aggTrade")} << int(Delivery::InUrl)
                                        << QStringLiteral(
                                               "wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade")
                                        << QStringList{};
    QTest::newRow("two symbols, mixed case and separators, two types")
        << int(Market::Spot) << QStringLiteral(" btcUSDT ,  ethusdt;")
        << QStringList{QStringLiteral("trade"), QStringLiteral("bookTicker")} << int(Delivery::InUrl)
        << QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@trade/btcusdt@bookTicker/ethusdt@trade/"
                          "ethusdt@bookTicker")
        << QStringList{};
    QTest::newRow("kline and depth with speeds, spot")
        << int(Market::Spot) << QStringLiteral("BNBUSDT")
        << QStringList{QStringLiteral("kline:5m"), QStringLiteral("depth:10:100ms"), QStringLiteral("diff:1000ms")}
        << int(Delivery::InUrl)
        << QStringLiteral(
               "wss://stream.binance.com:9443/stream?streams=bnbusdt@kline_5m/bnbusdt@depth10@100ms/bnbusdt@depth")
        << QStringList{};
    QTest::newRow("futures default depth speed has no suffix")
        << int(Market::UsdmFutures) << QStringLiteral("BTCUSDT")
        << QStringList{QStringLiteral("depth:5:250ms"), QStringLiteral("diff:500ms")} << int(Delivery::InUrl)
        << QStringLiteral("wss://fstream.binance.com/stream?streams=btcusdt@depth5/btcusdt@depth@500ms")
        << QStringList{};
    QTest::newRow("subscribe after connect")
        << int(Market::Spot) << QStringLiteral("BTCUSDT ETHUSDT SOLUSDT") << QStringList{QStringLiteral("aggTrade")}
        << int(Delivery::Subscribe) << QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade")
        << QStringList{QStringLiteral("ethusdt@aggTrade"), QStringLiteral("solusdt@aggTrade")};
    QTest::newRow("duplicate symbols once")
        << int(Market::Spot) << QStringLiteral("BTCUSDT btcusdt") << QStringList{QStringLiteral("aggTrade")}
        << int(Delivery::InUrl) << QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade")
        << QStringList{};
}

static BinanceRequest requestFor(int market, const QString &symbols, const QStringList &types, int delivery)
{
    BinanceRequest r;
    r.market = Market(market);
    r.symbolsText = symbols;
    r.delivery = Delivery(delivery);
    for (const QString &t : types) {
        const QStringList p = t.split(QLatin1Char(':'));
        if (p[0] == QLatin1String("trade"))
            r.trade = true;
        else if (p[0] == QLatin1String("aggTrade"))
            r.aggTrade = true;
        else if (p[0] == QLatin1String("bookTicker"))
            r.bookTicker = true;
        else if (p[0] == QLatin1String("kline")) {
            r.kline = true;
            r.klineInterval = p[1];
        } else if (p[0] == QLatin1String("depth")) {
            r.partialDepth = true;
            r.depthLevels = p[1].toInt();
            r.depthSpeed = p[2];
        } else if (p[0] == QLatin1String("diff")) {
            r.depthDiff = true;
            r.diffSpeed = p[1];
        }
    }
    return r;
}

void tst_BinanceStreamBuilder::build()
{
    QFETCH(int, market);
    QFETCH(QString, symbols);
    QFETCH(QStringList, types);
    QFETCH(int, delivery);
    QFETCH(QString, url);
    QFETCH(QStringList, subscribe);
    const BinanceStreams s = BinanceStreamBuilder::build(requestFor(market, symbols, types, delivery));
    QVERIFY2(s.ok, qPrintable(s.error));
    QCOMPARE(s.url.toString(), url);
    QCOMPARE(s.subscribe, subscribe);
}

void tst_BinanceStreamBuilder::rejects_data()
{
    QTest::addColumn<int>("market");
    QTest::addColumn<QString>("symbols");
    QTest::addColumn<QStringList>("types");
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("error");

    QTest::newRow("no symbol") << int(Market::Spot) << QStringLiteral("  ") << QStringList{QStringLiteral("trade")}
                               << QString() << QStringLiteral("Enter at least one symbol, for example BTCUSDT.");
    QTest::newRow("bad symbol")
        << int(Market::Spot) << QStringLiteral("BTC-USDT") << QStringList{QStringLiteral("trade")} << QString()
        << QStringLiteral("Symbol \"BTC-USDT\" is not valid: use 2 to 20 letters and digits, for example BTCUSDT.");
    QTest::newRow("no type") << int(Market::Spot) << QStringLiteral("BTCUSDT") << QStringList{} << QString()
                             << QStringLiteral(
                                    "Pick at least one stream type (trade, aggTrade, kline, depth or bookTicker).");
    QTest::newRow("trade on futures") << int(Market::UsdmFutures) << QStringLiteral("BTCUSDT")
                                      << QStringList{QStringLiteral("trade")} << QString()
                                      << QStringLiteral("USD-M futures have no trade stream: use aggTrade.");
    QTest::newRow("spot speed on futures")
        << int(Market::UsdmFutures) << QStringLiteral("BTCUSDT") << QStringList{QStringLiteral("diff:1000ms")}
        << QString()
        << QStringLiteral("Update speed 1000ms is not available on this market (choose 250ms, 500ms, 100ms).");
    QTest::newRow("http endpoint") << int(Market::Spot) << QStringLiteral("BTCUSDT")
                                   << QStringList{QStringLiteral("trade")}
                                   << QStringLiteral("https://stream.binance.com")
                                   << QStringLiteral("Endpoint \"https://stream.binance.com\" is not valid: expected "
                                                     "wss://host[:port], for example wss://stream.binance.com:9443.");
}

void tst_BinanceStreamBuilder::rejects()
{
    QFETCH(int, market);
    QFETCH(QString, symbols);
    QFETCH(QStringList, types);
    QFETCH(QString, endpoint);
    QFETCH(QString, error);
    BinanceRequest r = requestFor(market, symbols, types, int(Delivery::InUrl));
    r.endpoint = endpoint;
    const BinanceStreams s = BinanceStreamBuilder::build(r);
    QVERIFY(!s.ok);
    QCOMPARE(s.error, error);
}

void tst_BinanceStreamBuilder::manyStreamsNeedSubscribe()
{
    QStringList symbols;
    for (int i = 0; i < 120; ++i)
        symbols.append(QStringLiteral("SYM%1USDT").arg(i));
    BinanceRequest r = requestFor(int(Market::Spot), symbols.join(QLatin1Char(' ')),
                                  {QStringLiteral("aggTrade"), QStringLiteral("bookTicker")}, int(Delivery::InUrl));
    BinanceStreams s = BinanceStreamBuilder::build(r);
    QVERIFY(!s.ok);
    QVERIFY(s.error.contains(QStringLiteral("Subscribe after connect")));
    r.delivery = Delivery::Subscribe;
    s = BinanceStreamBuilder::build(r);
    QVERIFY(s.ok);
    QCOMPARE(s.streams.size(), 240);
    QCOMPARE(s.subscribe.size(), 239);
}

// The dialog and the engine's presets share one per-URL limit, the Binance presets'
// maxStreamsInUrl (VenueCatalog): 100 names always fit a 4 KB request line (the dialog allowed 200 before,
// which could need 7.4 KB). The 101st stream asks for "Subscribe after connect".
void tst_BinanceStreamBuilder::urlLimitIsTheEngines()
{
    QCOMPARE(BinanceStreamBuilder::maxStreamsInUrl(), 100);
    QStringList symbols;
    for (int i = 0; i < 101; ++i)
        symbols.append(QStringLiteral("SYM%1USDT").arg(i));
    BinanceRequest r = requestFor(int(Market::Spot), symbols.mid(0, 100).join(QLatin1Char(' ')),
                                  {QStringLiteral("aggTrade")}, int(Delivery::InUrl));
    BinanceStreams s = BinanceStreamBuilder::build(r);
    QVERIFY2(s.ok, qPrintable(s.error));
    QCOMPARE(s.streams.size(), 100);
    r.symbolsText = symbols.join(QLatin1Char(' '));
    s = BinanceStreamBuilder::build(r);
    QVERIFY(!s.ok);
    QCOMPARE(s.error,
             QStringLiteral("101 streams are too many for one URL (at most 100): choose \"Subscribe after connect\"."));
}

STREAMSCOPE_TEST_MAIN(tst_BinanceStreamBuilder)
#include "tst_binancestreambuilder.moc"
