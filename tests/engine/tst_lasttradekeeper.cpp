// The last trade price of each venue's trade messages (session/LastTradeKeeper over
// MessageDecoder::decodeTrades, with each venue's own TradeSpec; docs/venues.md, "One instrument
// across venues"): one row per venue's trade message, its price exact; only wanted instruments,
// only trade event types; the newest of a batch; a price that does not fit is not taken.

#include "../common/TestRegistry.h"
#include "protocol/MessageDecoder.h"
#include "protocol/ReceiveBuffer.h"
#include "session/LastTradeKeeper.h"
#include "venues/VenueRegistry.h"

#include <QtTest/QtTest>

using namespace streamscope;

namespace {

const DecodeSpec &venueSpec(const char *venue)
{
    return VenueRegistry::entryOf(Venue(venue)).decodeSpec();
}

// Decodes `message` as the router does (the symbol read) and hands it to `keeper`; returns the
// keeper's prices after a tick.
QVector<LastTrade> feedKeeper(LastTradeKeeper &keeper, const DecodeSpec &spec, const QByteArrayList &messages)
{
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    qint64 wallMs = 1'700'000'000'000;
    for (const QByteArray &m : messages) {
        const MessageView view = buffer.copy(m.constData(), m.size());
        DecodedFields fields;
        if (!decoder.decode(view, {}, fields, spec, false, true))
            qWarning() << "not decoded:" << decoder.lastError();
        keeper.onData(fields, view, decoder, ++wallMs);
    }
    keeper.tick(1'000'000);
    return keeper.prices();
}

QSet<QString> nameSet(std::initializer_list<const char *> list)
{
    QSet<QString> out;
    for (const char *n : list)
        out.insert(QString::fromLatin1(n));
    return out;
}

} // namespace

class TestLastTradeKeeper : public QObject {
    Q_OBJECT
private slots:
    void eachVenuesTradePrice_data();
    void eachVenuesTradePrice();
    void onlyWantedInstruments();
    void onlyTradeMessages();
    void newestOfABatch();
    void refusesPricesThatDoNotFit();
    void wantedSetChanges();
};

void TestLastTradeKeeper::eachVenuesTradePrice_data()
{
    QTest::addColumn<QByteArray>("venue");
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QString>("instrument");
    QTest::addColumn<qint64>("price"); // 10^-8 units

    QTest::newRow("binance aggTrade, combined")
        << QByteArray("binance")
        << QByteArray(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1700000000000,"s":"BTCUSDT",)"
                      R"("a":12345,"p":"37123.45000000","q":"0.010","f":1,"l":1,"T":1700000000000,"m":true,"M":true}})")
        << "BTCUSDT" << qint64(3'712'345'000'000);
    QTest::newRow("binance trade, raw")
        << QByteArray("binance")
        << QByteArray(R"({"e":"trade","E":1700000000000,"s":"ETHUSDT","t":99,"p":"2012.5","q":"1","T":1700000000000})")
        << "ETHUSDT" << qint64(201'250'000'000);
    QTest::newRow("okx trades")
        << QByteArray("okx")
        << QByteArray(
               R"({"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT",)"
               R"("tradeId":"130639474","px":"42219.9","sz":"0.12","side":"buy","ts":"1700000000000","count":"1"}]})")
        << "BTC-USDT" << qint64(4'221'990'000'000);
    QTest::newRow("bybit publicTrade, two trades: the last is the newest")
        << QByteArray("bybit")
        << QByteArray(
               R"({"topic":"publicTrade.BTCUSDT","type":"snapshot","ts":1700000000000,"data":[)"
               R"({"T":1700000000000,"s":"BTCUSDT","S":"Buy","v":"0.001","p":"16578.50","L":"PlusTick","i":"a","BT":false},)"
               R"({"T":1700000000001,"s":"BTCUSDT","S":"Sell","v":"0.001","p":"16578.00","L":"MinusTick","i":"b","BT":false}]})")
        << "BTCUSDT" << qint64(1'657'800'000'000);
    QTest::newRow("coinbase market_trades, newest first")
        << QByteArray("coinbase")
        << QByteArray(
               R"({"channel":"market_trades","client_id":"","timestamp":"2023-02-09T20:19:35.39625135Z",)"
               R"("sequence_num":0,"events":[{"type":"update","trades":[)"
               R"({"trade_id":"2","product_id":"BTC-USD","price":"21921.74","size":"0.06","side":"BUY","time":"2019-08-14T20:42:27.265Z"},)"
               R"({"trade_id":"1","product_id":"BTC-USD","price":"21920.00","size":"0.01","side":"SELL","time":"2019-08-14T20:42:27.001Z"}]}]})")
        << "BTC-USD" << qint64(2'192'174'000'000);
    QTest::newRow("kraken trade, numbers")
        << QByteArray("kraken")
        << QByteArray(
               R"({"channel":"trade","type":"update","data":[{"symbol":"BTC/USD","side":"sell","price":27455.3,)"
               R"("qty":0.01,"ord_type":"limit","trade_id":4665846,"timestamp":"2023-10-06T17:35:55.440295Z"}]})")
        << "BTC/USD" << qint64(2'745'530'000'000);
    QTest::newRow("hyperliquid trades")
        << QByteArray("hyperliquid")
        << QByteArray(R"({"channel":"trades","data":[{"coin":"BTC","side":"A","px":"64123.0","sz":"0.002",)"
                      R"("hash":"0x01","time":1700000000000,"tid":900000000000000,"users":["0x1","0x2"]}]})")
        << "BTC" << qint64(6'412'300'000'000);
}

void TestLastTradeKeeper::eachVenuesTradePrice()
{
    QFETCH(QByteArray, venue);
    QFETCH(QByteArray, message);
    QFETCH(QString, instrument);
    QFETCH(qint64, price);
    const DecodeSpec &spec = venueSpec(venue.constData());
    QVERIFY(spec.trades.reads());
    LastTradeKeeper keeper(spec.trades);
    const InstrumentAliases aliases(QMap<QString, QString>{{QStringLiteral("BTC"), QStringLiteral("BTC-USD")}});
    keeper.setWanted(QSet<QString>{InstrumentAliases().resolve(instrument), aliases.resolve(instrument)}, aliases);
    const QVector<LastTrade> prices = feedKeeper(keeper, spec, {message});
    QCOMPARE(prices.size(), 1);
    QCOMPARE(prices[0].instrument, instrument);
    QCOMPARE(prices[0].price, price);
    QVERIFY(prices[0].trades >= 1);
    QVERIFY(prices[0].receivedMs > 0);
}

void TestLastTradeKeeper::onlyWantedInstruments()
{
    const DecodeSpec &spec = venueSpec("okx");
    LastTradeKeeper keeper(spec.trades);
    keeper.setWanted(nameSet({"ETH-USDT"}), {});
    const QVector<LastTrade> prices = feedKeeper(
        keeper, spec,
        {R"({"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","px":"42000","ts":"1700000000000"}]})",
         R"({"arg":{"channel":"trades","instId":"ETH-USDT"},"data":[{"instId":"ETH-USDT","px":"2000.5","ts":"1700000000000"}]})"});
    QCOMPARE(prices.size(), 1);
    QCOMPARE(prices[0].instrument, QStringLiteral("ETH-USDT"));
    QCOMPARE(prices[0].price, qint64(200'050'000'000));
}

void TestLastTradeKeeper::onlyTradeMessages()
{
    // A ticker carries a price under the same key: it is no trade.
    const DecodeSpec &spec = venueSpec("binance");
    LastTradeKeeper keeper(spec.trades);
    keeper.setWanted(nameSet({"BTC-USDT"}), {});
    const QVector<LastTrade> prices =
        feedKeeper(keeper, spec, {R"({"e":"24hrTicker","E":1700000000000,"s":"BTCUSDT","p":"-12.5","c":"37000.00"})"});
    QVERIFY(prices.isEmpty());
}

void TestLastTradeKeeper::newestOfABatch()
{
    const DecodeSpec &spec = venueSpec("hyperliquid");
    LastTradeKeeper keeper(spec.trades);
    keeper.setWanted(nameSet({"BTC", "ETH"}), {});
    const QVector<LastTrade> prices = feedKeeper(
        keeper, spec,
        {R"({"channel":"trades","data":[{"coin":"BTC","px":"100","time":1700000000000},)"
         R"({"coin":"ETH","px":"10","time":1700000000000},{"coin":"BTC","px":"101","time":1700000000001}]})"});
    QCOMPARE(prices.size(), 2);
    QCOMPARE(prices[0].instrument, QStringLiteral("BTC"));
    QCOMPARE(prices[0].price, qint64(101) * 100'000'000);
    QCOMPARE(prices[0].trades, quint64(2));
    QCOMPARE(prices[1].instrument, QStringLiteral("ETH"));
    QCOMPARE(prices[1].price, qint64(10) * 100'000'000);
}

void TestLastTradeKeeper::refusesPricesThatDoNotFit()
{
    const DecodeSpec &spec = venueSpec("bybit");
    LastTradeKeeper keeper(spec.trades);
    keeper.setWanted(nameSet({"BTC-USDT"}), {});
    const QVector<LastTrade> prices = feedKeeper(
        keeper, spec,
        {R"({"topic":"publicTrade.BTCUSDT","ts":1700000000000,"data":[{"s":"BTCUSDT","p":"16000.5"}]})",
         R"({"topic":"publicTrade.BTCUSDT","ts":1700000000001,"data":[{"s":"BTCUSDT","p":"-1"}]})",
         R"({"topic":"publicTrade.BTCUSDT","ts":1700000000002,"data":[{"s":"BTCUSDT","p":"1e5"}]})",
         R"({"topic":"publicTrade.BTCUSDT","ts":1700000000003,"data":[{"s":"BTCUSDT","p":"0"}]})",
         R"({"topic":"publicTrade.BTCUSDT","ts":1700000000004,"data":[{"s":"BTCUSDT","p":"99999999999999999999"}]})"});
    QCOMPARE(prices.size(), 1);
    QCOMPARE(prices[0].price, qint64(1'600'050'000'000));
    QCOMPARE(prices[0].trades, quint64(1));
}

void TestLastTradeKeeper::wantedSetChanges()
{
    const DecodeSpec &spec = venueSpec("kraken");
    LastTradeKeeper keeper(spec.trades);
    const InstrumentAliases aliases(QMap<QString, QString>{{QStringLiteral("XBT/USD"), QStringLiteral("BTC-USD")}});
    keeper.setWanted(nameSet({"BTC-USD"}), aliases);
    const QByteArray trade = R"({"channel":"trade","type":"update","data":[{"symbol":"XBT/USD","price":27455.3}]})";
    QCOMPARE(feedKeeper(keeper, spec, {trade}).size(), 1); // by its alias
    keeper.setWanted(nameSet({"ETH-USD"}), aliases);
    QVERIFY(keeper.tick(2'000'000)); // published at once: the price went
    QVERIFY(keeper.prices().isEmpty());
    QVERIFY(keeper.wantsAny());
    keeper.setWanted({}, aliases);
    QVERIFY(!keeper.wantsAny());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestLastTradeKeeper)
#include "tst_lasttradekeeper.moc"
