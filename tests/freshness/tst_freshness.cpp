// Learned silence and the latency trend, on a clock the test steps: what is usual for one
// stream is an alarm for another; a latency that grows while messages flow is "falling
// behind", a steady one is not; the worker's busy share.

#include "../common/TestRegistry.h"
#include "session/Backpressure.h"
#include "session/EventTypeTracker.h"
#include "session/LatencyTrend.h"
#include "session/SilenceLearner.h"
#include "session/WorkerLoad.h"
#include "stats/FreshnessShared.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestFreshness : public QObject {
    Q_OBJECT
private slots:
    void bucketsAreRoughlyLogarithmic();
    void streamEveryTenSecondsIsQuietAtTwelve();
    void busyStreamAlarmsWellUnderTenSeconds();
    void oneAlarmPerSilence();
    void learningRaisesNothing();
    void reconnectWaitIsNoUsualGap();
    void growingLatencyIsFallingBehind();
    void steadyLatencyIsNot();
    void noisyButFlatLatencyIsNot();
    void caughtUpEndsIt();
    void threadCpuTimeMoves();
    void periodicStreamNames_data();
    void periodicStreamNames();
    void periodicEventTypes();
    void streamNamesOfAConfiguration();
    void unreadBytesPilingUpIsBackedUp();
    void conflatedStreamPeriodAndJitter();
    void processingTimeIsSampled();

private:
    // Ticks every 100 ms from `from` to `to`, data at every `everyMs`.
    static qint64 feed(SilenceLearner &l, qint64 from, qint64 to, qint64 everyMs);
};

qint64 TestFreshness::feed(SilenceLearner &l, qint64 from, qint64 to, qint64 everyMs)
{
    qint64 t = from;
    for (; t <= to; t += 100) {
        if ((t - from) % everyMs == 0)
            l.onData(t);
        else
            l.check(t);
    }
    return t - 100;
}

void TestFreshness::bucketsAreRoughlyLogarithmic()
{
    QCOMPARE(SilenceLearner::bucketOf(0), 0);
    QCOMPARE(SilenceLearner::bucketOf(100), 0);
    QCOMPARE(SilenceLearner::upperBoundMs(0), qint64(100));
    for (qint64 gap : {150, 1000, 10000, 60000, 3600000}) {
        const int b = SilenceLearner::bucketOf(gap);
        QVERIFY2(SilenceLearner::upperBoundMs(b) >= gap, qPrintable(QString::number(gap)));
        QVERIFY2(SilenceLearner::upperBoundMs(b) < gap * 1.42, qPrintable(QString::number(gap)));
    }
}

void TestFreshness::streamEveryTenSecondsIsQuietAtTwelve()
{
    SilenceLearner l;
    l.connected(0);
    const qint64 last = feed(l, 0, 30 * 10000, 10000); // 30 gaps of 10 s
    QVERIFY(l.usualGapMs().has_value());
    QVERIFY(*l.usualGapMs() >= 10000);
    for (qint64 t = last + 100; t <= last + 12000; t += 100)
        QVERIFY2(!l.check(t).alarm, qPrintable(QString::number(t - last)));
    // Well beyond it, it does alarm.
    bool alarmed = false;
    for (qint64 t = last + 12100; t <= last + 120000 && !alarmed; t += 100)
        alarmed = l.check(t).alarm;
    QVERIFY(alarmed);
}

void TestFreshness::busyStreamAlarmsWellUnderTenSeconds()
{
    SilenceLearner l;
    l.connected(0);
    const qint64 last = feed(l, 0, 5000, 100); // data on every tick (100 msgs/s)
    QCOMPARE(l.usualGapMs(), std::optional<qint64>(100));
    qint64 alarmAt = -1;
    for (qint64 t = last + 100; t <= last + 10000 && alarmAt < 0; t += 100) {
        const SilenceLearner::Verdict v = l.check(t);
        if (v.alarm) {
            alarmAt = t - last;
            QCOMPARE(v.usualGapMs, qint64(100));
            QCOMPARE(v.thresholdMs, SilenceLearner::kMinAlarmMs);
        }
    }
    QVERIFY2(alarmAt > 0 && alarmAt <= 2500, qPrintable(QString::number(alarmAt)));
}

void TestFreshness::oneAlarmPerSilence()
{
    SilenceLearner l;
    l.connected(0);
    qint64 last = feed(l, 0, 5000, 100);
    int alarms = 0;
    for (qint64 t = last + 100; t <= last + 20000; t += 100)
        alarms += l.check(t).alarm ? 1 : 0;
    QCOMPARE(alarms, 1);
    // Data again, then a new silence: a new alarm.
    last = feed(l, last + 20100, last + 22000, 100);
    for (qint64 t = last + 100; t <= last + 5000; t += 100)
        alarms += l.check(t).alarm ? 1 : 0;
    QCOMPARE(alarms, 2);
}

void TestFreshness::learningRaisesNothing()
{
    SilenceLearner l;
    l.connected(0);
    const qint64 last = feed(l, 0, 500, 100); // five gaps: still learning
    QVERIFY(!l.usualGapMs());
    for (qint64 t = last + 100; t <= last + 60000; t += 100)
        QVERIFY(!l.check(t).alarm);
}

void TestFreshness::reconnectWaitIsNoUsualGap()
{
    SilenceLearner l;
    l.connected(0);
    qint64 last = feed(l, 0, 5000, 100);
    l.connected(last + 30000); // a reconnect after 30 s
    last = feed(l, last + 30500, last + 33000, 100);
    QCOMPARE(l.usualGapMs(), std::optional<qint64>(100));
}

void TestFreshness::growingLatencyIsFallingBehind()
{
    LatencyTrend trend;
    std::uint64_t count = 0, sumUs = 0;
    qint64 startedAt = -1;
    trend.tick(0, count, sumUs);
    for (qint64 t = 100; t <= 10000; t += 100) {
        // 10 messages a tick; latency 5 ms + 50 ms for every second elapsed.
        for (int i = 0; i < 10; ++i) {
            ++count;
            sumUs += std::uint64_t(5000 + 50 * t);
        }
        if (trend.tick(t, count, sumUs) == LatencyTrend::Change::Started)
            startedAt = t;
    }
    QVERIFY2(startedAt > 0 && startedAt <= 10000, qPrintable(QString::number(startedAt)));
    QVERIFY(trend.behind());
    QVERIFY(qAbs(trend.slopeMsPerS() - 50.0) < 1.0);
}

void TestFreshness::steadyLatencyIsNot()
{
    LatencyTrend trend;
    std::uint64_t count = 0, sumUs = 0;
    for (qint64 t = 0; t <= 30000; t += 100) {
        count += 10;
        sumUs += 10 * 40000; // 40 ms, steady: a far venue is not a late one
        QCOMPARE(trend.tick(t, count, sumUs), LatencyTrend::Change::None);
    }
    QVERIFY(!trend.behind());
}

void TestFreshness::noisyButFlatLatencyIsNot()
{
    LatencyTrend trend;
    std::uint64_t count = 0, sumUs = 0;
    for (qint64 t = 0; t <= 30000; t += 100) {
        count += 10;
        sumUs += 10 * std::uint64_t((t / 1000) % 2 ? 300000 : 5000); // alternating seconds of 5 and 300 ms
        QVERIFY(trend.tick(t, count, sumUs) != LatencyTrend::Change::Started);
    }
}

void TestFreshness::caughtUpEndsIt()
{
    LatencyTrend trend;
    std::uint64_t count = 0, sumUs = 0;
    qint64 t = 0;
    for (; t <= 8000; t += 100) {
        count += 10;
        sumUs += 10 * std::uint64_t(5000 + 100 * t);
        trend.tick(t, count, sumUs);
    }
    QVERIFY(trend.behind());
    bool ended = false;
    for (; t <= 30000 && !ended; t += 100) {
        count += 10;
        sumUs += 10 * 5000;
        ended = trend.tick(t, count, sumUs) == LatencyTrend::Change::Ended;
    }
    QVERIFY(ended);
    QVERIFY(!trend.behind());
}

void TestFreshness::threadCpuTimeMoves()
{
    const qint64 before = WorkerLoad::threadCpuUs();
    QVERIFY(before >= 0);
    volatile double x = 0;
    QElapsedTimer spin;
    spin.start();
    while (spin.elapsed() < 50)
        x = x + 1.0;
    QVERIFY(WorkerLoad::threadCpuUs() > before);
    WorkerLoad load;
    QCOMPARE(load.busyShare(), -1.0);
    load.sample(0);
    spin.restart();
    while (spin.elapsed() < 1100)
        x = x + 1.0;
    load.sample(1100);
    QVERIFY2(load.busyShare() > 0.0 && load.busyShare() <= 1.0, qPrintable(QString::number(load.busyShare())));
}

void TestFreshness::periodicStreamNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("periodic");
    QTest::newRow("ticker") << QStringLiteral("btcusdt@ticker") << true;
    QTest::newRow("rolling ticker") << QStringLiteral("btcusdt@ticker_1h") << true;
    QTest::newRow("mini ticker") << QStringLiteral("btcusdt@miniTicker") << true;
    QTest::newRow("kline") << QStringLiteral("btcusdt@kline_1m") << true;
    QTest::newRow("depth diff") << QStringLiteral("btcusdt@depth") << true;
    QTest::newRow("depth 100ms") << QStringLiteral("btcusdt@depth@100ms") << true;
    QTest::newRow("partial depth") << QStringLiteral("btcusdt@depth20@1000ms") << true;
    QTest::newRow("all tickers") << QStringLiteral("!ticker@arr") << true;
    QTest::newRow("all mini tickers") << QStringLiteral("!miniTicker@arr") << true;
    QTest::newRow("mark price") << QStringLiteral("btcusdt@markPrice@1s") << true;
    QTest::newRow("continuous kline") << QStringLiteral("btcusdt_perpetual@continuousKline_1m") << true;
    QTest::newRow("trade") << QStringLiteral("btcusdt@trade") << false;
    QTest::newRow("aggTrade") << QStringLiteral("btcusdt@aggTrade") << false;
    QTest::newRow("book ticker") << QStringLiteral("btcusdt@bookTicker") << false;
    QTest::newRow("all book tickers") << QStringLiteral("!bookTicker") << false;
    QTest::newRow("force orders") << QStringLiteral("!forceOrder@arr") << false;
    QTest::newRow("no kind") << QStringLiteral("ticker") << false;
}

void TestFreshness::periodicStreamNames()
{
    QFETCH(QString, name);
    QFETCH(bool, periodic);
    QCOMPARE(EventTypeTracker::periodicStreamName(name), periodic);
}

void TestFreshness::periodicEventTypes()
{
    for (const char *t : {"24hrTicker", "24hrMiniTicker", "kline", "depthUpdate", "markPriceUpdate", "1hTicker"})
        QVERIFY2(EventTypeTracker::periodicEventType(t), t);
    for (const char *t : {"trade", "aggTrade", "bookTicker", "forceOrder", "", "Kline", "klineX"})
        QVERIFY2(!EventTypeTracker::periodicEventType(t), t);
    QVERIFY(EventTypeTracker::allPeriodic({QStringLiteral("a@ticker"), QStringLiteral("b@kline_1s")}));
    QVERIFY(!EventTypeTracker::allPeriodic({QStringLiteral("a@ticker"), QStringLiteral("b@trade")}));
    QVERIFY(!EventTypeTracker::allPeriodic({}));
}

void TestFreshness::streamNamesOfAConfiguration()
{
    const QStringList names = EventTypeTracker::streamNames(
        QUrl(QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@depth@100ms/ethusdt@ticker")),
        {QStringLiteral("bnbusdt@kline_1m")});
    QCOMPARE(names,
             QStringList({QStringLiteral("bnbusdt@kline_1m"), QStringLiteral("btcusdt@depth@100ms"),
                          QStringLiteral("ethusdt@ticker")}));
    QCOMPARE(EventTypeTracker::streamNames(QUrl(QStringLiteral("wss://stream.binance.com:9443/ws/btcusdt@trade")), {}),
             QStringList({QStringLiteral("btcusdt@trade")}));
}

// A conflated Betfair stream (op "mcm", periodic only once the venue echoed conflateMs): every
// 250 ms ±2, with a quiet interval now and then (a spacing of 500) that does not move the
// median nor blow up the jitter.
void TestFreshness::conflatedStreamPeriodAndJitter()
{
    FreshnessShared out;
    EventTypeTracker t(out);
    std::int64_t pt = 1'780'000'000'000;
    const auto flow = [&] {
        for (int i = 0; i < 40; ++i) {
            pt += (i % 10 == 9) ? 500 : 250 + (i % 3) - 1;
            t.record(t.slot("mcm"), pt, 5000);
        }
    };
    flow();
    t.tick(0);
    QVERIFY(!out.periodic.load()); // not yet known to be conflated
    QCOMPARE(out.periodMs.load(), -1.0);
    t.setStreamPeriodic(true);
    flow();
    t.tick(1000);
    QVERIFY(t.streamPeriodic());
    QVERIFY(out.periodic.load());
    QCOMPARE(out.periodMs.load(), 250.0);
    QCOMPARE(out.periodJitterMs.load(), 1.0);
    QVERIFY(out.events.load() == nullptr); // one type: no table
    // Event times in µs (a generic stream's latency_unit): the period is still in ms.
    FreshnessShared outUs;
    EventTypeTracker us(outUs);
    us.setUnit(1.0);
    us.setStreamPeriodic(true);
    for (int i = 0; i < 20; ++i)
        us.record(us.slot({}), pt * 1000 + i * 100'000, 5000);
    us.tick(0);
    QCOMPARE(outUs.periodMs.load(), 100.0);
}

void TestFreshness::unreadBytesPilingUpIsBackedUp()
{
    BackpressureMeter m;
    qint64 now = 0;
    BackpressureMeter::Figures f;
    for (int i = 0; i < 4; ++i)
        f = m.tick(now += 100, 100000);
    QVERIFY(!f.backedUp); // too few samples yet
    f = m.tick(now += 100, 100000);
    QVERIFY(f.backedUp);
    QCOMPARE(f.unreadBytes, qint64(100000));
    // One sample right after a drain does not clear it; mostly empty does.
    f = m.tick(now += 100, 0);
    QVERIFY(f.backedUp);
    for (int i = 0; i < 6; ++i)
        f = m.tick(now += 100, 10);
    QVERIFY(!f.backedUp);
    QCOMPARE(f.unreadBytes, qint64(10));
    QCOMPARE(f.unreadBytesPeak, qint64(100000)); // the most of the last 10 s
    for (int i = 0; i < 110; ++i)
        f = m.tick(now += 100, 10);
    QCOMPARE(f.unreadBytesPeak, qint64(10));
    // A reconnect starts afresh: what the old connection left unread says nothing of the new.
    BackpressureMeter reconnected;
    for (int i = 0; i < 7; ++i)
        reconnected.tick(now += 100, 100000);
    reconnected.reset();
    for (int i = 0; i < 5; ++i)
        f = reconnected.tick(now += 100, 0);
    QVERIFY(!f.backedUp);
    // Unknown (no socket) stays unknown.
    BackpressureMeter none;
    QCOMPARE(none.tick(100, -1).unreadBytes, qint64(-1));
    QVERIFY(!none.tick(200, -1).backedUp);
}

void TestFreshness::processingTimeIsSampled()
{
    BackpressureMeter m;
    int due = 0;
    for (int i = 0; i < 64 * 10; ++i) {
        if (m.due()) {
            ++due;
            m.processed(due % 2 ? 10 : 30);
        }
    }
    QCOMPARE(due, 10);
    m.processed(5'000'000); // a wall clock step, not a message's time
    QCOMPARE(m.tick(0, 0).processingUs, -1.0);
    QCOMPARE(m.tick(1000, 0).processingUs, 20.0);
    QCOMPARE(m.tick(2000, 0).processingUs, 20.0); // no sample in that second: the last mean stays
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestFreshness)
#include "tst_freshness.moc"
