// CrossVenueMonitor on a stepped clock: the mid of each venue's synced book, its deviation from
// the median of the others, the spread between venues; an instrument matched across spellings
// and aliases but never across quote assets; the "apart" flag after its time, the "frozen" flag
// while the others move; and, through AlertService as headless mode runs it, the
// cross_venue_bps and cross_venue_frozen rules raising and clearing episodes, the report's
// "cross_venue" and the /metrics gauges.

#include "../common/StartTime.h"
#include "../common/TestRegistry.h"
#include "AlertService.h"
#include "BookDepth.h"
#include "CrossVenueMonitor.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <cmath>

using namespace streamscope;
using streamscope::testing::kStartMs;
using namespace streamscope::alerts;

namespace {

qint64 units(double price)
{
    return qint64(std::llround(price * double(kDepthUnit)));
}

StreamSnapshot venueStream(StreamId id, const QString &name, const char *venue, const QString &symbol, double bid,
                           double ask, qint64 nowMs, BookState state = BookState::Synced)
{
    StreamSnapshot s;
    s.id = id;
    s.name = name;
    s.venue = venueFromName(QLatin1String(venue));
    s.state = StreamState::Live;
    s.lastDataMs = nowMs - 200;
    BookStatus b;
    b.instrument = symbol;
    b.state = state;
    b.bestBid = units(bid);
    b.bestAsk = units(ask);
    s.books = {b};
    return s;
}

// Three venues of BTC-USDT, each spelling it its own way, around `mid`; the third at `third`.
QVector<StreamSnapshot> threeVenues(double mid, double third, qint64 nowMs)
{
    return {
        venueStream(1, QStringLiteral("okx-books"), "okx", QStringLiteral("BTC-USDT"), mid - 0.5, mid + 0.5, nowMs),
        venueStream(2, QStringLiteral("bybit-books"), "bybit", QStringLiteral("BTCUSDT"), mid - 0.5, mid + 0.5, nowMs),
        venueStream(3, QStringLiteral("binance-books"), "binance", QStringLiteral("btcusdt"), third - 0.5, third + 0.5,
                    nowMs)};
}

QVector<CrossVenueMonitor::Input> inputs(const QVector<StreamSnapshot> &snapshots)
{
    QVector<CrossVenueMonitor::Input> in;
    for (const StreamSnapshot &s : snapshots)
        in.append({&s, 1.5});
    return in;
}

const CrossVenueQuote *quote(const CrossVenueMonitor &m, const QString &stream)
{
    for (const CrossVenueInstrument &i : m.instruments())
        for (const CrossVenueQuote &q : i.quotes)
            if (q.streamName == stream)
                return &q;
    return nullptr;
}

} // namespace

class tst_CrossVenueMonitor : public QObject {
    Q_OBJECT
private slots:
    void medianDeviationAndSpread()
    {
        CrossVenueMonitor m;
        QVector<StreamSnapshot> s = {
            venueStream(1, QStringLiteral("a"), "okx", QStringLiteral("BTC-USDT"), 99.5, 100.5, kStartMs),
            venueStream(2, QStringLiteral("b"), "bybit", QStringLiteral("BTCUSDT"), 99.6, 100.6, kStartMs),
            venueStream(3, QStringLiteral("c"), "binance", QStringLiteral("BTCUSDT"), 99.7, 100.7, kStartMs)};
        m.update(inputs(s), kStartMs);
        QCOMPARE(m.instruments().size(), 1);
        const CrossVenueInstrument &i = m.instruments().first();
        QCOMPARE(i.instrument, QStringLiteral("BTC-USDT"));
        QCOMPARE(i.quotes.size(), 3);
        QCOMPARE(i.medianMid, 100.1);
        QVERIFY(std::abs(i.spreadBps - 0.2 / 100.1 * 1e4) < 1e-6);
        const CrossVenueQuote &a = i.quotes[0];
        QCOMPARE(a.streamName, QStringLiteral("a"));
        QCOMPARE(a.venue, QStringLiteral("okx"));
        QCOMPARE(a.symbol, QStringLiteral("BTC-USDT"));
        QCOMPARE(a.mid, 100.0);
        QCOMPARE(a.bestBid, 99.5);
        QCOMPARE(a.bestAsk, 100.5);
        QCOMPARE(a.latencyMs, 1.5);
        QCOMPARE(a.ageMs, 200);
        // The median of the others (100.1, 100.2) is 100.15.
        QVERIFY(std::abs(a.deviationBps - (100.0 - 100.15) / 100.15 * 1e4) < 1e-6);
        QCOMPARE(a.flag, CrossVenueFlag::None);
    }

    void whatIsCompared()
    {
        CrossVenueMonitor m;
        m.setAliases(InstrumentAliases({{QStringLiteral("XBT/USD"), QStringLiteral("BTC-USD")}}));
        QVector<StreamSnapshot> s = {
            // BTC-USD on two venues, one through the alias.
            venueStream(1, QStringLiteral("coinbase"), "coinbase", QStringLiteral("BTC-USD"), 99, 101, kStartMs),
            venueStream(2, QStringLiteral("kraken"), "kraken", QStringLiteral("XBT/USD"), 99, 101, kStartMs),
            // BTC-USDT and BTC-USDC on one venue each: quote assets are not merged, and one venue
            // is no comparison.
            venueStream(3, QStringLiteral("okx"), "okx", QStringLiteral("BTC-USDT"), 99, 101, kStartMs),
            venueStream(4, QStringLiteral("bybit"), "bybit", QStringLiteral("BTCUSDC"), 99, 101, kStartMs),
            // ETH-USDT: one book not synced, one stream stopped.
            venueStream(5, QStringLiteral("e1"), "okx", QStringLiteral("ETH-USDT"), 9, 11, kStartMs),
            venueStream(6, QStringLiteral("e2"), "bybit", QStringLiteral("ETHUSDT"), 9, 11, kStartMs,
                        BookState::Resyncing),
            venueStream(7, QStringLiteral("e3"), "binance", QStringLiteral("ETHUSDT"), 9, 11, kStartMs)};
        s[6].state = StreamState::Stopped;
        m.update(inputs(s), kStartMs);
        QCOMPARE(m.instruments().size(), 1);
        QCOMPARE(m.instruments()[0].instrument, QStringLiteral("BTC-USD"));
        QCOMPARE(m.instruments()[0].quotes.size(), 2);
        QCOMPARE(m.instruments()[0].quotes[1].symbol, QStringLiteral("XBT/USD"));
    }

    // One venue 100 bps above the two others from t = 5 s: flagged "apart" once that lasted
    // apartForMs (10 s), not before; the others (about 50 bps below the median of the two
    // others) never; cleared at once when it comes back.
    void apartAfterItsTime()
    {
        CrossVenueMonitor m;
        m.setSettings({50.0, 10'000, 600'000});
        QList<qint64> flaggedAt;
        for (int sec = 0; sec <= 30; ++sec) {
            const qint64 now = kStartMs + sec * 1000;
            const double third = sec >= 5 && sec < 25 ? 101.0 : 100.0;
            const auto s = threeVenues(100.0, third, now);
            m.update(inputs(s), now);
            QCOMPARE(quote(m, QStringLiteral("okx-books"))->flag, CrossVenueFlag::None);
            QCOMPARE(quote(m, QStringLiteral("bybit-books"))->flag, CrossVenueFlag::None);
            if (quote(m, QStringLiteral("binance-books"))->flag == CrossVenueFlag::Apart)
                flaggedAt << sec;
        }
        QList<qint64> expected;
        for (int sec = 15; sec < 25; ++sec)
            expected << sec;
        QCOMPARE(flaggedAt, expected);
    }

    // Two venues move every second, one stays: "frozen" once its mid has not moved for
    // frozenMs (30 s); nobody is frozen when nobody moves.
    void frozenWhileTheOthersMove()
    {
        CrossVenueMonitor m;
        m.setSettings({1e6, 10'000, 30'000});
        int firstFrozen = -1;
        for (int sec = 0; sec <= 40; ++sec) {
            const qint64 now = kStartMs + sec * 1000;
            const double moving = 100.0 + (sec % 2) * 0.01;
            auto s = threeVenues(moving, 100.0, now);
            m.update(inputs(s), now);
            QCOMPARE(quote(m, QStringLiteral("okx-books"))->flag, CrossVenueFlag::None);
            if (firstFrozen < 0 && quote(m, QStringLiteral("binance-books"))->flag == CrossVenueFlag::Frozen)
                firstFrozen = sec;
        }
        QCOMPARE(firstFrozen, 30);
        QCOMPARE(quote(m, QStringLiteral("binance-books"))->unchangedMs, 40'000);

        CrossVenueMonitor still;
        still.setSettings({1e6, 10'000, 30'000});
        for (int sec = 0; sec <= 40; ++sec) {
            const qint64 now = kStartMs + sec * 1000;
            const auto s = threeVenues(100.0, 100.0, now);
            still.update(inputs(s), now);
        }
        for (const CrossVenueQuote &q : still.instruments()[0].quotes)
            QCOMPARE(q.flag, CrossVenueFlag::None);
    }

    void ruleKeys()
    {
        AlertRule r;
        QString error;
        QVERIFY(AlertRule::fromJson(QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")},
                                                {QStringLiteral("cross_venue_bps"), 25},
                                                {QStringLiteral("cross_venue_frozen"), true}},
                                    QStringLiteral("alerts[0]"), r, &error));
        QCOMPARE(r.crossVenueBps, 25.0);
        QVERIFY(r.crossVenueFrozen);
        QVERIFY(!r.isEmpty());
        QCOMPARE(r.toJson().value(QStringLiteral("cross_venue_bps")).toDouble(), 25.0);
        QCOMPARE(r.toJson().value(QStringLiteral("cross_venue_frozen")).toBool(), true);
        QVERIFY(!AlertRule::fromJson(
            QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("cross_venue_bps"), -1}},
            QStringLiteral("alerts[0]"), r, &error));
        QCOMPARE(error, QStringLiteral("alerts[0].cross_venue_bps: expected a number ≥ 0"));
        QVERIFY(!AlertRule::fromJson(
            QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("cross_venue_frozen"), 1}},
            QStringLiteral("alerts[0]"), r, &error));
        QCOMPARE(error, QStringLiteral("alerts[0].cross_venue_frozen: expected true or false"));
    }

    // Headless mode's path: the engine's snapshots to AlertService once a second. The venue
    // 100 bps away raises cross_venue_bps after for_s, and only it; back in line, the episode
    // clears after clear_after_s. The report and /metrics carry the comparison.
    void alertServiceRaisesAndClears()
    {
        AlertService service;
        Workspace ws;
        ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")},
                                           {QStringLiteral("cross_venue_bps"), 60},
                                           {QStringLiteral("for_s"), 3},
                                           {QStringLiteral("clear_after_s"), 2}}};
        QString error;
        QVERIFY2(service.configure(ws, false, &error), qPrintable(error));
        QSignalSpy raised(&service, &AlertService::alertRaised);
        QSignalSpy cleared(&service, &AlertService::alertCleared);
        QSignalSpy updated(&service, &AlertService::crossVenueUpdated);
        int raisedAt = -1;
        int clearedAt = -1;
        QJsonObject reportWhileApart;
        QByteArray metricsWhileApart;
        for (int sec = 0; sec <= 20; ++sec) {
            const qint64 now = kStartMs + sec * 1000;
            const double third = sec >= 2 && sec < 10 ? 101.0 : 100.0;
            service.evaluate(threeVenues(100.0, third, now), now, sec * 1000);
            if (raisedAt < 0 && !raised.isEmpty())
                raisedAt = sec;
            if (clearedAt < 0 && !cleared.isEmpty())
                clearedAt = sec;
            if (sec == 8) {
                reportWhileApart = QJsonObject{{QStringLiteral("streams"), QJsonArray{}}};
                service.addToReport(reportWhileApart);
                metricsWhileApart = service.renderMetrics(false);
            }
        }
        QCOMPARE(updated.size(), 21);
        QCOMPARE(raisedAt, 5); // apart from 2 s, held 3 s
        QCOMPARE(raised.size(), 1);
        QCOMPARE(raised[0][0].value<StreamId>(), StreamId(3));
        QCOMPARE(raised[0][1].toInt(), int(AlertMonitor::Condition::CrossVenueApart));
        const auto event = raised[0][2].value<AlertEvent>();
        QCOMPARE(event.condition, QStringLiteral("cross_venue_bps"));
        QVERIFY2(event.text.startsWith(QStringLiteral("BTC-USDT 100.0 bps from the other venues' median")),
                 qPrintable(event.text));
        QCOMPARE(clearedAt, 11); // last held at 9 s, clear for 2 s
        QCOMPARE(cleared.size(), 1);

        const QJsonArray cross = reportWhileApart.value(QStringLiteral("cross_venue")).toArray();
        QCOMPARE(cross.size(), 1);
        const QJsonObject btc = cross[0].toObject();
        QCOMPARE(btc.value(QStringLiteral("instrument")).toString(), QStringLiteral("BTC-USDT"));
        const QJsonArray venues = btc.value(QStringLiteral("venues")).toArray();
        QCOMPARE(venues.size(), 3);
        const QJsonObject binance = venues[0].toObject(); // by stream name
        QCOMPARE(binance.value(QStringLiteral("stream")).toString(), QStringLiteral("binance-books"));
        QCOMPARE(binance.value(QStringLiteral("mid")).toDouble(), 101.0);
        QVERIFY(binance.value(QStringLiteral("last")).isNull()); // no trade yet
        QVERIFY(binance.value(QStringLiteral("last_deviation_bps")).isNull());
        QCOMPARE(binance.value(QStringLiteral("compared_by")).toString(), QStringLiteral("mid"));
        QCOMPARE(binance.value(QStringLiteral("flagged")).toBool(), false); // apartForMs is 10 s
        QVERIFY(std::abs(binance.value(QStringLiteral("deviation_bps")).toDouble() - 100.0) < 1e-6);
        QVERIFY(metricsWhileApart.contains(
            "streamscope_cross_venue_mid{instrument=\"BTC-USDT\",stream=\"binance-books\"} 101\n"));
        QVERIFY(metricsWhileApart.contains(
            "streamscope_cross_venue_flagged{instrument=\"BTC-USDT\",stream=\"okx-books\"} 0\n"));
        QVERIFY(metricsWhileApart.contains("# TYPE streamscope_cross_venue_spread_bps gauge\n"));
        QVERIFY(!metricsWhileApart.contains("streamscope_cross_venue_last"));  // no trade: no series
        QVERIFY(!AlertService().renderMetrics(false).contains("cross_venue")); // nothing compared: no family
    }

    // A venue with trades and no book takes part with its last trade price; a venue with both is
    // compared by its mid and shows its last beside it, with the last's own deviation.
    void lastTradePrices()
    {
        CrossVenueMonitor m;
        m.setSettings({.apartBps = 50, .apartForMs = 3000, .frozenMs = 5000});
        QVector<StreamSnapshot> s = threeVenues(100.0, 100.0, kStartMs);
        s[0].lastTrades = {LastTrade{QStringLiteral("BTC-USDT"), units(100.2), 7, kStartMs - 300}};
        StreamSnapshot trades;
        trades.id = 4;
        trades.name = QStringLiteral("hl-trades");
        trades.venue = venueFromName(QLatin1String("hyperliquid"));
        trades.state = StreamState::Live;
        trades.lastDataMs = kStartMs - 100;
        trades.instruments = {InstrumentStatus{QStringLiteral("BTC"), 9}};
        trades.lastTrades = {LastTrade{QStringLiteral("BTC"), units(99.0), 9, kStartMs - 100}};
        s.append(trades);
        m.setAliases(InstrumentAliases(QMap<QString, QString>{{QStringLiteral("BTC"), QStringLiteral("BTC-USDT")}}));
        m.update(inputs(s), kStartMs);
        QCOMPARE(m.instruments().size(), 1);
        QCOMPARE(m.instruments()[0].quotes.size(), 4);
        const CrossVenueQuote *hl = quote(m, QStringLiteral("hl-trades"));
        QVERIFY(hl);
        QVERIFY(hl->byLast);
        QVERIFY(std::isnan(hl->mid));
        QCOMPARE(hl->last, 99.0);
        QCOMPARE(hl->lastAgeMs, qint64(100));
        QVERIFY(std::abs(hl->deviationBps + 100.0) < 1e-6);      // 99 against the others' mids of 100
        QVERIFY(std::abs(hl->lastDeviationBps + 119.76) < 0.01); // 99 against okx's last of 100.2
        const CrossVenueQuote *okx = quote(m, QStringLiteral("okx-books"));
        QVERIFY(!okx->byLast);
        QCOMPARE(okx->last, 100.2);
        QCOMPARE(okx->price(), 100.0);
        QVERIFY(std::abs(okx->deviationBps) < 1e-6); // by its mid
        QVERIFY(std::isnan(quote(m, QStringLiteral("bybit-books"))->last));
        QVERIFY(std::isnan(quote(m, QStringLiteral("bybit-books"))->lastDeviationBps));
        QCOMPARE(m.instruments()[0].medianMid, 100.0);
        QVERIFY(std::abs(m.instruments()[0].spreadBps - 100.0) < 1e-6); // 99 .. 100

        // Apart by its last, after its time.
        for (qint64 t = 1000; t <= 3000; t += 1000) {
            s[3].lastTrades[0].price = units(99.0 + double(t) / 1e6); // it moves: not frozen
            m.update(inputs(s), kStartMs + t);
        }
        QCOMPARE(quote(m, QStringLiteral("hl-trades"))->flag, CrossVenueFlag::Apart);

        // Frozen by its last while the books move.
        s[3].lastTrades[0].price = units(100.0);
        for (qint64 t = 4000; t <= 10000; t += 1000) {
            const double mid = 100.0 + double(t) / 1e6;
            for (int i = 0; i < 3; ++i) {
                s[i].books[0].bestBid = units(mid - 0.5);
                s[i].books[0].bestAsk = units(mid + 0.5);
            }
            m.update(inputs(s), kStartMs + t);
        }
        QCOMPARE(quote(m, QStringLiteral("hl-trades"))->flag, CrossVenueFlag::Frozen);
        QCOMPARE(quote(m, QStringLiteral("okx-books"))->flag, CrossVenueFlag::None);

        const QJsonObject okxJson = [&] {
            for (const QJsonValue v : m.toJson()[0].toObject().value(QStringLiteral("venues")).toArray())
                if (v.toObject().value(QStringLiteral("stream")).toString() == QStringLiteral("hl-trades"))
                    return v.toObject();
            return QJsonObject();
        }();
        QVERIFY(okxJson.value(QStringLiteral("mid")).isNull());
        QCOMPARE(okxJson.value(QStringLiteral("last")).toDouble(), 100.0);
        QCOMPARE(okxJson.value(QStringLiteral("compared_by")).toString(), QStringLiteral("last"));
        QCOMPARE(okxJson.value(QStringLiteral("reason")).toString(), QStringLiteral("frozen"));
        const QByteArray metrics = m.renderMetrics();
        QVERIFY(metrics.contains("# TYPE streamscope_cross_venue_last gauge\n"));
        QVERIFY(metrics.contains("streamscope_cross_venue_last{instrument=\"BTC-USDT\",stream=\"hl-trades\"} 100\n"));
        QVERIFY(metrics.contains("streamscope_cross_venue_last{instrument=\"BTC-USDT\",stream=\"okx-books\"} 100.2\n"));
        QVERIFY(!metrics.contains("streamscope_cross_venue_last{instrument=\"BTC-USDT\",stream=\"bybit-books\"}"));
        QVERIFY(metrics.contains("streamscope_cross_venue_mid{instrument=\"BTC-USDT\",stream=\"hl-trades\"} NaN\n"));
    }

    // Which last trade prices each stream should read: its instruments that another stream has;
    // everything others have while it has named none; nothing for a stream alone with its own.
    void lastTradeWanted()
    {
        CrossVenueMonitor m;
        QVector<StreamSnapshot> s = threeVenues(100.0, 100.0, kStartMs);
        s[2].books[0].state = BookState::Syncing; // still counts as having the instrument
        StreamSnapshot eth;
        eth.id = 5;
        eth.name = QStringLiteral("eth-trades");
        eth.state = StreamState::Live;
        eth.instruments = {InstrumentStatus{QStringLiteral("ETHUSDT"), 3}};
        StreamSnapshot unnamed;
        unnamed.id = 6;
        unnamed.name = QStringLiteral("coinbase-trades");
        unnamed.state = StreamState::Live;
        StreamSnapshot stopped = eth;
        stopped.id = 7;
        stopped.state = StreamState::Stopped;
        s << eth << unnamed << stopped;
        m.update(inputs(s), kStartMs);
        const QHash<StreamId, QSet<QString>> &w = m.lastTradeWanted();
        const QSet<QString> btc{QStringLiteral("BTC-USDT")};
        QCOMPARE(w.value(1), btc);
        QCOMPARE(w.value(2), btc);
        QCOMPARE(w.value(3), btc);
        QVERIFY(w.contains(5));
        QVERIFY(w.value(5).isEmpty()); // ETH is its alone
        QCOMPARE(w.value(6), (QSet<QString>{QStringLiteral("BTC-USDT"), QStringLiteral("ETH-USDT")}));
        QVERIFY(!w.contains(7)); // not running
    }

    void alertServiceFrozen()
    {
        AlertService service;
        Workspace ws;
        ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("binance-books")},
                                           {QStringLiteral("cross_venue_frozen"), true}}};
        QString error;
        QVERIFY2(service.configure(ws, false, &error), qPrintable(error));
        QSignalSpy raised(&service, &AlertService::alertRaised);
        for (int sec = 0; sec <= 31; ++sec) {
            const qint64 now = kStartMs + sec * 1000;
            service.evaluate(threeVenues(100.0 + (sec % 2) * 0.01, 100.0, now), now, sec * 1000);
        }
        QCOMPARE(raised.size(), 1);
        QCOMPARE(raised[0][1].toInt(), int(AlertMonitor::Condition::CrossVenueFrozen));
        QCOMPARE(raised[0][2].value<AlertEvent>().text,
                 QStringLiteral("price frozen while the other venues move: BTC-USDT"));
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(tst_CrossVenueMonitor)
#include "tst_crossvenuemonitor.moc"
