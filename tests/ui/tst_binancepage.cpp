// The stream dialog's Binance page on its own: a stored stream read back into the page's
// choices gives the same URL and SUBSCRIBE list, and a stream the page cannot represent is
// refused (the dialog then shows it on the generic page).

#include "../common/TestRegistry.h"
#include "BinancePage.h"

#include <QtTest/QTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QLineEdit>

using namespace streamscope;
using namespace streamscope::ui;
using Market = BinancePage::Market;

class tst_BinancePage : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void refusesWhatItCannotRepresent_data();
    void refusesWhatItCannotRepresent();
    void suggestsAName();
};

void tst_BinancePage::roundTrip_data()
{
    QTest::addColumn<int>("market");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QStringList>("subscribe");
    QTest::addColumn<QString>("symbols");

    QTest::newRow("spot, one aggTrade") << int(
        Market::Spot) << QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade")
                                        << QStringList{} << QStringLiteral("BTCUSDT");
    QTest::newRow("spot, every type for two symbols")
        << int(Market::Spot)
        << QStringLiteral("wss://stream.binance.com:9443/stream?streams="
                          "btcusdt@trade/btcusdt@kline_5m/btcusdt@depth10@100ms/btcusdt@depth/btcusdt@bookTicker/"
                          "ethusdt@trade/ethusdt@kline_5m/ethusdt@depth10@100ms/ethusdt@depth/ethusdt@bookTicker")
        << QStringList{} << QStringLiteral("BTCUSDT, ETHUSDT");
    QTest::newRow("spot market data host")
        << int(Market::Spot) << QStringLiteral("wss://data-stream.binance.vision/stream?streams=bnbusdt@bookTicker")
        << QStringList{} << QStringLiteral("BNBUSDT");
    QTest::newRow("futures, subscribe after connect")
        << int(Market::UsdmFutures) << QStringLiteral("wss://fstream.binance.com/stream?streams=btcusdt@aggTrade")
        << QStringList{QStringLiteral("btcusdt@depth@100ms"), QStringLiteral("ethusdt@aggTrade"),
                       QStringLiteral("ethusdt@depth@100ms")}
        << QStringLiteral("BTCUSDT, ETHUSDT");
    QTest::newRow("local replay server") << int(
        Market::Spot) << QStringLiteral("ws://127.0.0.1:9443/stream?streams=btcusdt@aggTrade/btcusdt@depth20@100ms")
                                         << QStringList{} << QStringLiteral("BTCUSDT");
}

void tst_BinancePage::roundTrip()
{
    QFETCH(int, market);
    QFETCH(QString, url);
    QFETCH(QStringList, subscribe);
    QFETCH(QString, symbols);
    StreamConfig stored;
    stored.name = QStringLiteral("s");
    stored.venue = Venue("binance");
    stored.url = QUrl(url);
    stored.subscribe = subscribe;
    QCOMPARE(int(BinancePage::marketOf(stored)), market);

    BinancePage page;
    page.setMarket(Market(market));
    QVERIFY(page.fromConfig(stored));
    QCOMPARE(page.findChild<QLineEdit *>(QStringLiteral("symbols"))->text(), symbols);
    StreamConfig back;
    QString error;
    QVERIFY2(page.toConfig(back, &error), qPrintable(error));
    QCOMPARE(back.venue, Venue("binance"));
    QCOMPARE(back.url.toString(), url);
    QCOMPARE(back.subscribe, subscribe);
}

void tst_BinancePage::refusesWhatItCannotRepresent_data()
{
    QTest::addColumn<QString>("url");
    QTest::newRow("raw stream URL") << QStringLiteral("wss://stream.binance.com:9443/ws/btcusdt@aggTrade");
    QTest::newRow("stream type the page has no box for")
        << QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@markPrice");
    QTest::newRow("types differ between symbols")
        << QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade/ethusdt@bookTicker");
}

void tst_BinancePage::refusesWhatItCannotRepresent()
{
    QFETCH(QString, url);
    StreamConfig stored;
    stored.venue = Venue("binance");
    stored.url = QUrl(url);
    BinancePage page;
    page.setMarket(Market::Spot);
    QVERIFY(!page.fromConfig(stored));
}

void tst_BinancePage::suggestsAName()
{
    BinancePage page;
    page.setMarket(Market::UsdmFutures);
    QCOMPARE(page.suggestedName(), QStringLiteral("binance-fut-stream"));
    page.findChild<QLineEdit *>(QStringLiteral("symbols"))->setText(QStringLiteral("BTCUSDT ETHUSDT SOLUSDT"));
    QCOMPARE(page.suggestedName(), QStringLiteral("binance-fut-btcusdt-and-2-more"));
    QVERIFY(!page.findChild<QCheckBox *>(QStringLiteral("trade"))->isEnabled());
}

STREAMSCOPE_TEST_MAIN(tst_BinancePage)
#include "tst_binancepage.moc"
