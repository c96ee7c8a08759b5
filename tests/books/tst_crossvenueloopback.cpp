// One instrument across venues end to end: the real engine against three venues written in this
// test (SnapshotVenueServer: QWebSocketServers on 127.0.0.1), two OKX-like ("books", BTC-USDT) and
// one Bybit-like ("orderbook.50", BTCUSDT), each sending its book as in-stream snapshots. The books sync, their
// best prices reach the snapshots, and AlertService, fed the engine's snapshots as headless mode
// feeds it, matches the two spellings as one instrument. When the Bybit-like venue's book moves
// 1 % away from the others, that venue alone is flagged "apart" and the cross_venue_bps rule
// raises an episode for its stream; when it comes back, the flag and the episode clear. The
// report's "cross_venue" and /metrics show it.
// With trades: a Bybit-like stream of trades alone (no book) takes part with its last trade
// price, which the engine reads only once the comparison asks for it; an OKX-like stream of
// books and trades shows its last beside its mid. When the trades' price moves 1 % away, the
// trades stream is flagged "apart" and its rule raises; the report's "last" and the
// streamscope_cross_venue_last gauge show the prices.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "SnapshotVenueServer.h"

#include "AlertService.h"
#include "Engine.h"
#include "StreamSnapshot.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtTest/QSignalSpy>

#include <QtTest/QtTest>

#include <memory>

using namespace streamscope;
using namespace streamscope::alerts;
using namespace streamscope::testing;

namespace {

StreamConfig venueStream(const QString &name, const char *venue, const QUrl &url, const QStringList &subscribe)
{
    StreamConfig c;
    c.name = name;
    c.venue = Venue(venue);
    c.url = url;
    c.subscribe = subscribe;
    c.pingIntervalMs = 0;
    return c;
}

const CrossVenueQuote *quote(const AlertService &service, const QString &stream)
{
    for (const CrossVenueInstrument &i : service.crossVenue().instruments())
        for (const CrossVenueQuote &q : i.quotes)
            if (q.streamName == stream)
                return &q;
    return nullptr;
}

CrossVenueFlag flagOf(const AlertService &service, const QString &stream)
{
    const CrossVenueQuote *q = quote(service, stream);
    return q ? q->flag : CrossVenueFlag::None;
}

// Two OKX-like venues and a Bybit-like one, on 127.0.0.1.
struct Venues {
    SnapshotVenueServer okxA{SnapshotVenueServer::Shape::Okx};
    SnapshotVenueServer okxB{SnapshotVenueServer::Shape::Okx};
    SnapshotVenueServer bybit{SnapshotVenueServer::Shape::Bybit};
    bool listen() { return okxA.listen() && okxB.listen() && bybit.listen(); }
};

// The cross_venue_bps rule at 60 bps (for 1 s, clear after 1 s), apart after 1 s, and headless
// mode's evaluation of the engine's snapshots on `timer`, a little more often than once a second:
// the rules' times are wall-clock differences, so that only makes the test quicker to notice.
bool evaluating(AlertService &service, Engine &engine, QTimer &timer)
{
    Workspace ws;
    ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")},
                                       {QStringLiteral("cross_venue_bps"), 60},
                                       {QStringLiteral("for_s"), 1},
                                       {QStringLiteral("clear_after_s"), 1}}};
    QString error;
    if (!service.configure(ws, false, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    service.setCrossVenueSettings({60.0, 1000, 600'000});
    auto steady = std::make_shared<QElapsedTimer>();
    steady->start();
    QObject::connect(&timer, &QTimer::timeout, &service, [&service, &engine, steady] {
        service.evaluate(engine.snapshot(true), QDateTime::currentMSecsSinceEpoch(), steady->elapsed());
    });
    timer.start(250);
    return true;
}

} // namespace

class TestCrossVenueLoopback : public QObject {
    Q_OBJECT
private slots:
    void oneVenueMovesAwayAndBack();
    void aTradesStreamMovesAway();
};

void TestCrossVenueLoopback::oneVenueMovesAwayAndBack()
{
    Venues servers;
    QVERIFY(servers.listen());
    SnapshotVenueServer &okxA = servers.okxA;
    SnapshotVenueServer &okxB = servers.okxB;
    SnapshotVenueServer &bybit = servers.bybit;
    const QString okxName = QStringLiteral("BTC-USDT");
    const QString bybitName = QStringLiteral("BTCUSDT");
    okxA.setMid(okxName, 50000.0);
    okxB.setMid(okxName, 50000.0);
    bybit.setMid(bybitName, 50000.0);

    Engine engine;
    const StreamId a =
        engine.addStream(venueStream(QStringLiteral("okx-a"), "okx", okxA.url(), {QStringLiteral("books:BTC-USDT")}));
    const StreamId b =
        engine.addStream(venueStream(QStringLiteral("okx-b"), "okx", okxB.url(), {QStringLiteral("books:BTC-USDT")}));
    const StreamId y = engine.addStream(
        venueStream(QStringLiteral("bybit"), "bybit", bybit.url(), {QStringLiteral("orderbook.50:BTCUSDT")}));

    AlertService service;
    QTimer evaluate;
    QVERIFY(evaluating(service, engine, evaluate));
    QSignalSpy raised(&service, &AlertService::alertRaised);
    QSignalSpy cleared(&service, &AlertService::alertCleared);

    // All three synced; BTC-USDT and BTCUSDT are one instrument of three venues.
    QTRY_VERIFY_WITH_TIMEOUT(service.crossVenue().instruments().size() == 1
                                 && service.crossVenue().instruments().first().quotes.size() == 3,
                             scaledMs(15000));
    const CrossVenueInstrument &btc = service.crossVenue().instruments().first();
    QCOMPARE(btc.instrument, QStringLiteral("BTC-USDT"));
    QCOMPARE(quote(service, QStringLiteral("bybit"))->symbol, QStringLiteral("BTCUSDT"));
    QCOMPARE(quote(service, QStringLiteral("bybit"))->venue, QStringLiteral("bybit"));
    QCOMPARE(quote(service, QStringLiteral("okx-a"))->mid, 50000.0);
    QCOMPARE(quote(service, QStringLiteral("okx-a"))->bestBid, 49999.5);
    QCOMPARE(quote(service, QStringLiteral("okx-a"))->bestAsk, 50000.5);
    QCOMPARE(btc.spreadBps, 0.0);

    // The Bybit-like venue 1 % above the others: flagged, the rule raised for its stream alone.
    bybit.setMid(bybitName, 50500.0);
    QTRY_COMPARE_WITH_TIMEOUT(flagOf(service, QStringLiteral("bybit")), CrossVenueFlag::Apart, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(raised.size(), 1, scaledMs(10000));
    QCOMPARE(raised[0][0].value<StreamId>(), y);
    QCOMPARE(raised[0][1].toInt(), int(AlertMonitor::Condition::CrossVenueApart));
    QCOMPARE(flagOf(service, QStringLiteral("okx-a")), CrossVenueFlag::None);
    QCOMPARE(flagOf(service, QStringLiteral("okx-b")), CrossVenueFlag::None);
    QVERIFY(std::abs(quote(service, QStringLiteral("bybit"))->deviationBps - 100.0) < 1e-6);

    QJsonObject report{{QStringLiteral("streams"), QJsonArray{}}};
    service.addToReport(report);
    const QJsonObject entry = report.value(QStringLiteral("cross_venue")).toArray().at(0).toObject();
    QCOMPARE(entry.value(QStringLiteral("instrument")).toString(), QStringLiteral("BTC-USDT"));
    const QJsonObject bybitEntry = entry.value(QStringLiteral("venues")).toArray().at(0).toObject();
    QCOMPARE(bybitEntry.value(QStringLiteral("stream")).toString(), QStringLiteral("bybit"));
    QCOMPARE(bybitEntry.value(QStringLiteral("flagged")).toBool(), true);
    QCOMPARE(bybitEntry.value(QStringLiteral("reason")).toString(), QStringLiteral("apart"));
    QVERIFY(service.renderMetrics(false).contains(
        "streamscope_cross_venue_flagged{instrument=\"BTC-USDT\",stream=\"bybit\"} 1\n"));

    // Back in line: the flag goes at once, the episode after clear_after_s.
    bybit.setMid(bybitName, 50000.0);
    QTRY_COMPARE_WITH_TIMEOUT(flagOf(service, QStringLiteral("bybit")), CrossVenueFlag::None, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(cleared.size(), 1, scaledMs(10000));
    QCOMPARE(cleared[0][0].value<StreamId>(), y);
    QCOMPARE(raised.size(), 1);
    Q_UNUSED(a);
    Q_UNUSED(b);
}

void TestCrossVenueLoopback::aTradesStreamMovesAway()
{
    Venues servers;
    QVERIFY(servers.listen());
    SnapshotVenueServer &okxA = servers.okxA;
    SnapshotVenueServer &okxB = servers.okxB;
    SnapshotVenueServer &bybit = servers.bybit;
    const QString okxName = QStringLiteral("BTC-USDT");
    const QString bybitName = QStringLiteral("BTCUSDT");
    okxA.setMid(okxName, 50000.0);
    okxA.setTradePrice(okxName, 50000.25);
    okxB.setMid(okxName, 50000.0);
    bybit.setTradePrice(bybitName, 50000.5);

    Engine engine;
    const StreamId a =
        engine.addStream(venueStream(QStringLiteral("okx-a"), "okx", okxA.url(),
                                     {QStringLiteral("books:BTC-USDT"), QStringLiteral("trades:BTC-USDT")}));
    const StreamId b =
        engine.addStream(venueStream(QStringLiteral("okx-b"), "okx", okxB.url(), {QStringLiteral("books:BTC-USDT")}));
    StreamConfig tradesConfig =
        venueStream(QStringLiteral("bybit-trades"), "bybit", bybit.url(), {QStringLiteral("publicTrade:BTCUSDT")});
    const StreamId y = engine.addStream(tradesConfig);

    AlertService service;
    service.setEngine(&engine);
    QTimer evaluate;
    QVERIFY(evaluating(service, engine, evaluate));
    QSignalSpy raised(&service, &AlertService::alertRaised);

    // The trades stream, which keeps no book, takes part by its last trade price.
    QTRY_VERIFY_WITH_TIMEOUT(quote(service, QStringLiteral("bybit-trades")) && quote(service, QStringLiteral("okx-a"))
                                 && std::isfinite(quote(service, QStringLiteral("okx-a"))->last)
                                 && quote(service, QStringLiteral("okx-b")),
                             scaledMs(15000));
    const CrossVenueQuote *trades = quote(service, QStringLiteral("bybit-trades"));
    QVERIFY(trades->byLast);
    QVERIFY(std::isnan(trades->mid));
    QCOMPARE(trades->last, 50000.5);
    QCOMPARE(trades->symbol, QStringLiteral("BTCUSDT"));
    const CrossVenueQuote *both = quote(service, QStringLiteral("okx-a"));
    QVERIFY(!both->byLast);
    QCOMPARE(both->mid, 50000.0);
    QCOMPARE(both->last, 50000.25);
    QVERIFY(std::isnan(quote(service, QStringLiteral("okx-b"))->last)); // it asked for no trades
    QCOMPARE(flagOf(service, QStringLiteral("bybit-trades")), CrossVenueFlag::None);

    // Its trades 1 % above the others: flagged, the rule raised for its stream alone.
    bybit.setTradePrice(bybitName, 50500.0);
    QTRY_COMPARE_WITH_TIMEOUT(flagOf(service, QStringLiteral("bybit-trades")), CrossVenueFlag::Apart, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(raised.size(), 1, scaledMs(10000));
    QCOMPARE(raised[0][0].value<StreamId>(), y);
    QCOMPARE(flagOf(service, QStringLiteral("okx-a")), CrossVenueFlag::None);
    QCOMPARE(flagOf(service, QStringLiteral("okx-b")), CrossVenueFlag::None);
    QVERIFY(std::abs(quote(service, QStringLiteral("bybit-trades"))->deviationBps - 100.0) < 1e-6);

    QJsonObject report{{QStringLiteral("streams"), QJsonArray{}}};
    service.addToReport(report);
    const QJsonArray venues = report.value(QStringLiteral("cross_venue"))
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value(QStringLiteral("venues"))
                                  .toArray();
    QCOMPARE(venues.size(), 3);
    const QJsonObject bybitEntry = venues.at(0).toObject(); // by stream name
    QCOMPARE(bybitEntry.value(QStringLiteral("stream")).toString(), QStringLiteral("bybit-trades"));
    QCOMPARE(bybitEntry.value(QStringLiteral("last")).toDouble(), 50500.0);
    QVERIFY(bybitEntry.value(QStringLiteral("mid")).isNull());
    QCOMPARE(bybitEntry.value(QStringLiteral("compared_by")).toString(), QStringLiteral("last"));
    QCOMPARE(bybitEntry.value(QStringLiteral("reason")).toString(), QStringLiteral("apart"));
    QCOMPARE(venues.at(2).toObject().value(QStringLiteral("stream")).toString(), QStringLiteral("okx-b"));
    QVERIFY(venues.at(2).toObject().value(QStringLiteral("last")).isNull());
    QVERIFY(service.renderMetrics(false).contains(
        "streamscope_cross_venue_last{instrument=\"BTC-USDT\",stream=\"bybit-trades\"} 50500\n"));

    // An edit gives the stream a new session, which reads its trades as the old one did: back in
    // line, the flag goes.
    tradesConfig.stallTimeoutMs += 1000;
    QVERIFY(engine.updateStream(y, tradesConfig));
    bybit.setTradePrice(bybitName, 50000.0);
    const auto backInLine = [&] {
        const CrossVenueQuote *q = quote(service, QStringLiteral("bybit-trades"));
        return q && q->last == 50000.0 && q->flag == CrossVenueFlag::None;
    };
    QTRY_VERIFY_WITH_TIMEOUT(backInLine(), scaledMs(10000));

    // No longer wanted (the other venues gone): the engine stops reading its trades.
    engine.removeStream(a);
    engine.removeStream(b);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(y).lastTrades.isEmpty(), scaledMs(10000));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestCrossVenueLoopback)
#include "tst_crossvenueloopback.moc"
