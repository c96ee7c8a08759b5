// Binance URLs and presets: stream names from symbols and types, raw and combined URLs,
// spot and USD-M futures limits. No network.

#include "../common/TestRegistry.h"
#include "venues/binance/BinancePresets.h"

#include <QtTest/QtTest>

using namespace streamscope;
using Market = BinancePresets::Market;

class TestBinancePresets : public QObject {
    Q_OBJECT
private slots:
    void streamNames_data();
    void streamNames();
    void urls_data();
    void urls();
    void presets();
    void combinedUrlOnAnyHost();
};

void TestBinancePresets::streamNames_data()
{
    QTest::addColumn<QStringList>("symbols");
    QTest::addColumn<QStringList>("types");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("one symbol, one type")
        << QStringList{QStringLiteral("BTCUSDT")} << QStringList{QStringLiteral("aggTrade")}
        << QStringList{QStringLiteral("btcusdt@aggTrade")};
    QTest::newRow("symbols x types, type order first")
        << QStringList{QStringLiteral("BTCUSDT"), QStringLiteral("ethusdt")}
        << QStringList{QStringLiteral("trade"), QStringLiteral("depth@100ms")}
        << QStringList{QStringLiteral("btcusdt@trade"), QStringLiteral("ethusdt@trade"),
                       QStringLiteral("btcusdt@depth@100ms"), QStringLiteral("ethusdt@depth@100ms")};
    QTest::newRow("all-market stream once, duplicates dropped")
        << QStringList{QStringLiteral("BTCUSDT"), QStringLiteral("btcusdt")}
        << QStringList{QStringLiteral("!miniTicker@arr"), QStringLiteral("kline_1m")}
        << QStringList{QStringLiteral("!miniTicker@arr"), QStringLiteral("btcusdt@kline_1m")};
}

void TestBinancePresets::streamNames()
{
    QFETCH(QStringList, symbols);
    QFETCH(QStringList, types);
    QFETCH(QStringList, expected);
    QCOMPARE(BinancePresets::streamNames(symbols, types), expected);
}

void TestBinancePresets::urls_data()
{
    QTest::addColumn<int>("market");
    QTest::addColumn<QStringList>("streams");
    QTest::addColumn<QString>("raw");
    QTest::addColumn<QString>("combined");
    QTest::newRow("spot") << int(Market::Spot)
                          << QStringList{QStringLiteral("btcusdt@aggTrade"), QStringLiteral("ethusdt@trade")}
                          << QStringLiteral("wss://stream.binance.com:9443/ws/btcusdt@aggTrade")
                          << QStringLiteral(
                                 "wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade/ethusdt@trade");
    QTest::newRow("market data only") << int(Market::SpotMarketData)
                                      << QStringList{QStringLiteral("btcusdt@bookTicker")}
                                      << QStringLiteral("wss://data-stream.binance.vision/ws/btcusdt@bookTicker")
                                      << QStringLiteral(
                                             "wss://data-stream.binance.vision/stream?streams=btcusdt@bookTicker");
    QTest::newRow("usd-m futures") << int(Market::UsdmFutures) << QStringList{QStringLiteral("btcusdt@depth@100ms")}
                                   << QStringLiteral("wss://fstream.binance.com/ws/btcusdt@depth@100ms")
                                   << QStringLiteral("wss://fstream.binance.com/stream?streams=btcusdt@depth@100ms");
}

void TestBinancePresets::urls()
{
    QFETCH(int, market);
    QFETCH(QStringList, streams);
    QFETCH(QString, raw);
    QFETCH(QString, combined);
    QCOMPARE(BinancePresets::rawUrl(Market(market), streams.first()).toString(), raw);
    QCOMPARE(BinancePresets::combinedUrl(Market(market), streams).toString(), combined);
}

void TestBinancePresets::presets()
{
    QStringList many;
    for (int i = 0; i < 1500; ++i)
        many << QStringLiteral("s%1usdt@trade").arg(i);
    const StreamConfig spot = BinancePresets::preset(Market::Spot, QStringLiteral("spot"), many);
    QCOMPARE(spot.venue, Venue("binance"));
    QVERIFY(!spot.futures);
    QCOMPARE(spot.pingIntervalMs, 20000);
    QCOMPARE(spot.pongTimeoutMs, 60000);
    // 100 in the URL (a 4 KB request line holds 100 of the longest names), 1,400 subscribed.
    QCOMPARE(BinancePresets::kMaxStreamsInUrl, 100);
    QCOMPARE(spot.subscribe.size(), 1400);
    QVERIFY(
        spot.url.toString().startsWith(QLatin1String("wss://stream.binance.com:9443/stream?streams=s0usdt@trade/")));
    const StreamConfig futures = BinancePresets::preset(Market::UsdmFutures, QStringLiteral("fut"), many.mid(0, 3));
    QVERIFY(futures.futures);
    QCOMPARE(futures.pingIntervalMs, 180000);
    QCOMPARE(futures.pongTimeoutMs, 600000);
    QVERIFY(futures.subscribe.isEmpty());
    QCOMPARE(futures.url.host(), QStringLiteral("fstream.binance.com"));
}

void TestBinancePresets::combinedUrlOnAnyHost()
{
    // The stream dialog's custom endpoints (a testnet, a local replay server): scheme, host
    // and port kept, path and query replaced.
    const QStringList streams{QStringLiteral("btcusdt@aggTrade"), QStringLiteral("btcusdt@depth20@100ms")};
    QCOMPARE(BinancePresets::combinedUrl(QUrl(QStringLiteral("ws://127.0.0.1:9443")), streams).toString(),
             QStringLiteral("ws://127.0.0.1:9443/stream?streams=btcusdt@aggTrade/btcusdt@depth20@100ms"));
    QCOMPARE(
        BinancePresets::combinedUrl(QUrl(QStringLiteral("wss://fstream.binancefuture.com/ws?x=1")), streams.mid(0, 1))
            .toString(),
        QStringLiteral("wss://fstream.binancefuture.com/stream?streams=btcusdt@aggTrade"));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBinancePresets)
#include "tst_binancepresets.moc"
