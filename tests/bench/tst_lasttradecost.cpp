// What reading the last trade price costs per trade message on the worker (docs/venues.md, "One
// instrument across venues"), measured, not asserted: the whole hot path of one trade message
// (head scan, decode, the handler, the instruments, the last trade) through a session without
// sockets, for Binance's aggTrade, OKX's trades and Bybit's publicTrade, with the last trade
// off (no instrument wanted: the router holds no keeper), on for the message's instrument, and
// on for another instrument only (the message is looked up, not read again). The medians are
// printed (qInfo); each run checks only that the price read is the last one sent.

#include "../common/SessionRig.h"
#include "../common/TestRegistry.h"
#include "MedianNs.h"

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

enum class Mode { Off, On, OtherInstrument };

// The trade message `i` of `venue` at price 100 + i/100 (two places), event time now.
QByteArray tradeMessage(const QString &venue, std::int64_t i, qint64 wallMs)
{
    const QString px = QStringLiteral("%1.%2").arg(100 + i / 100).arg(i % 100, 2, 10, QLatin1Char('0'));
    if (venue == QLatin1String("binance"))
        return QStringLiteral(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":%1,"s":"BTCUSDT","a":%2,)"
                              R"("p":"%3","q":"0.01","f":1,"l":1,"T":%1,"m":true,"M":true}})")
            .arg(wallMs)
            .arg(i)
            .arg(px)
            .toUtf8();
    if (venue == QLatin1String("okx"))
        return QStringLiteral(R"({"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT",)"
                              R"("tradeId":"%2","px":"%3","sz":"0.1","side":"buy","ts":"%1","count":"1"}]})")
            .arg(wallMs)
            .arg(i)
            .arg(px)
            .toUtf8();
    return QStringLiteral(R"({"topic":"publicTrade.BTCUSDT","type":"snapshot","ts":%1,"data":[{"T":%1,)"
                          R"("s":"BTCUSDT","S":"Buy","v":"0.001","p":"%3","L":"PlusTick","i":"%2","BT":false}]})")
        .arg(wallMs)
        .arg(i)
        .arg(px)
        .toUtf8();
}

} // namespace

class TestLastTradeCost : public QObject {
    Q_OBJECT
private slots:
    void tradeMessage_data()
    {
        QTest::addColumn<QString>("venue");
        QTest::addColumn<int>("mode");
        for (const char *venue : {"binance", "okx", "bybit"}) {
            const QString v = QLatin1String(venue);
            QTest::addRow("%s, last trade off", venue) << v << int(Mode::Off);
            QTest::addRow("%s, last trade on", venue) << v << int(Mode::On);
            QTest::addRow("%s, on for another instrument", venue) << v << int(Mode::OtherInstrument);
        }
    }

    void tradeMessage()
    {
        QFETCH(QString, venue);
        QFETCH(int, mode);
        StreamConfig c;
        c.name = QStringLiteral("trades");
        c.venue = Venue(venue.toLatin1().constData());
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/ws"));
        c.subscribe = {venue == QLatin1String("okx")         ? QStringLiteral("trades:BTC-USDT")
                           : venue == QLatin1String("bybit") ? QStringLiteral("publicTrade:BTCUSDT")
                                                             : QStringLiteral("btcusdt@aggTrade")};
        SessionRig rig(c);
        rig.session.start();
        rig.last()->up();
        if (Mode(mode) != Mode::Off)
            rig.session.setLastTradeInstruments(
                {Mode(mode) == Mode::On ? QStringLiteral("BTC-USDT") : QStringLiteral("ETH-USDT")}, {});
        const std::int64_t total = callCount();
        std::vector<QByteArray> messages;
        messages.reserve(std::size_t(total));
        for (std::int64_t i = 0; i < total; ++i)
            messages.push_back(::tradeMessage(venue, i, rig.clock.wallMs()));
        rig.last()->deliver(messages.front()); // the instrument is known before the clock starts
        const double ns = medianNs([&](std::int64_t i) { rig.last()->deliver(messages[std::size_t(i)]); });
        rig.run(300);
        const QVector<LastTrade> lasts = rig.snapshot().lastTrades;
        if (Mode(mode) == Mode::On) {
            QCOMPARE(lasts.size(), 1);
            QCOMPARE(lasts[0].price, (100 + (total - 1) / 100) * 100'000'000 + ((total - 1) % 100) * 1'000'000);
        } else {
            QVERIFY(lasts.isEmpty());
        }
        QCOMPARE(rig.snapshot().dataMessages, quint64(total + 1));
        qInfo("%s: %.1f ns median per trade message, whole hot path", QTest::currentDataTag(), ns);
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestLastTradeCost)
#include "tst_lasttradecost.moc"
