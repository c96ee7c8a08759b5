// Periodic streams, latency per event type and backpressure end to end on loopback, against
// the replay server: a paced kline stream is periodic (its period measured, kept out of the
// falling-behind alarm even while its event times fall behind); a combined stream of trades,
// klines and depth updates has its latency per event type in the snapshot, the report and
// /metrics; a worker made slow (its clock spins on every read, so every message costs a
// millisecond) under a stream faster than it raises "we are slow", with bytes piling up
// unread in the socket, not "the exchange is late".

#include "../common/EventLog.h"
#include "../common/TestRegistry.h"
#include "../integration/IntegrationSupport.h"

#include "CadenceReport.h"
#include "ReplayServerThread.h"
#include "Report.h"
#include "protocol/MessageDecoder.h"
#include "session/Clock.h"
#include "session/SessionEvents.h"
#include "session/StreamSession.h"
#include "session/TransportFactory.h"
#include "session/WorkerLoad.h"
#include "stats/StreamShared.h"

#include <QtCore/QElapsedTimer>

#include <algorithm>

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;

namespace {

// The system's clocks, but every read of the wall clock (one per message) first spins for
// `spinUs`: a worker whose per-message processing is that much slower.
class SlowClock final : public Clock {
public:
    explicit SlowClock(qint64 spinUs)
        : m_spinUs(spinUs)
    {
    }
    qint64 monotonicMs() const override { return SystemClock::instance().monotonicMs(); }
    qint64 monotonicUs() const override { return SystemClock::instance().monotonicUs(); }
    qint64 wallUs() const override
    {
        QElapsedTimer t;
        t.start();
        while (t.nsecsElapsed() < m_spinUs * 1000) {
        }
        return SystemClock::instance().wallUs();
    }

private:
    qint64 m_spinUs;
};

} // namespace

class TestCadenceStreams : public QObject {
    Q_OBJECT
private slots:
    void pacedKlineIsPeriodic();
    void combinedStreamHasLatencyPerEventType();
    void slowWorkerIsWeAreSlow();
    void eventTypeLabelsAreUnique();
};

void TestCadenceStreams::pacedKlineIsPeriodic()
{
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(ReplayOptions{});
    QVERIFY(port != 0);
    QList<StreamEvent> events;
    Engine engine(Engine::Options{1});
    connect(&engine, &Engine::eventOccurred, this, [&events](const StreamEvent &e) { events << e; });
    // 20 klines a second whose event times fall 50 ms further behind every second; beside
    // it on the same worker, trades that fall behind the same way, which are not periodic.
    const StreamId kline = engine.addStream(
        wsStream(QStringLiteral("kline"), port, QStringLiteral("medium_kline?rate=20&loop=1&lag_ms_per_s=50")));
    const StreamId trades = engine.addStream(
        wsStream(QStringLiteral("trades"), port, QStringLiteral("small_aggtrade?rate=20&loop=1&lag_ms_per_s=50")));
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(kline).freshness.periodMs > 0, scaledMs(10000));
    // The trades' alarm says how much lagging data a latency trend needs to raise one; the
    // kline stream then gets two seconds' worth more (two of the trend's one-second windows:
    // the streams may have started a tick apart).
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(trades).freshness.fallingBehind, scaledMs(20000));
    const quint64 needed = engine.snapshot(trades).dataMessages + 2 * 20;
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(kline).dataMessages >= needed, scaledMs(10000));
    QCOMPARE(engine.snapshot(trades).freshness.fallingBehindAlarms, quint64(1));
    const StreamSnapshot s = engine.snapshot(kline, true);
    QVERIFY(s.freshness.periodic);
    // Paced at 20 a second, stamped at the send time less the lag: 50 ms apart less 2.5.
    QVERIFY2(s.freshness.periodMs >= 40 && s.freshness.periodMs <= 60,
             qPrintable(QString::number(s.freshness.periodMs)));
    QVERIFY(s.freshness.periodJitterMs >= 0 && s.freshness.periodJitterMs < s.freshness.periodMs);
    QVERIFY(!s.freshness.fallingBehind);
    QCOMPARE(s.freshness.fallingBehindAlarms, quint64(0));
    for (const StreamEvent &e : std::as_const(events))
        QVERIFY2(e.stream == trades || !e.text.startsWith(QLatin1String("falling behind")), qPrintable(e.text));

    const QJsonObject o = app::buildReport({s}, 1.0).value(QLatin1String("streams")).toArray().at(0).toObject();
    QCOMPARE(o.value(QLatin1String("periodic")).toBool(), true);
    QVERIFY(o.value(QLatin1String("period_ms")).toDouble() >= 40);
    QVERIFY(o.value(QLatin1String("period_jitter_ms")).isDouble());
    QVERIFY(o.value(QLatin1String("latency_by_event")).toObject().isEmpty()); // one type
}

void TestCadenceStreams::combinedStreamHasLatencyPerEventType()
{
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(ReplayOptions{});
    QVERIFY(port != 0);
    Engine engine(Engine::Options{1});
    const StreamId mix =
        engine.addStream(wsStream(QStringLiteral("mix\\"), port, QStringLiteral("multiplex_mix?rate=200&loop=1")));
    // Every type seen, a latency of each recorded, and the types' figures published since
    // (the kline and the depth updates periodic, the trades not; checked again below).
    const auto allTypesMeasured = [&engine, mix] {
        const StreamSnapshot now = engine.snapshot(mix, true);
        return now.freshness.byEvent.size() >= 3
            && std::all_of(now.freshness.byEvent.cbegin(), now.freshness.byEvent.cend(), [](const EventTypeFigures &e) {
                   return e.latency.count > 0 && e.periodic == (e.name != QLatin1String("aggTrade"));
               });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allTypesMeasured(), scaledMs(10000));
    const StreamSnapshot s = engine.snapshot(mix, true);
    QStringList names;
    quint64 total = 0;
    for (const EventTypeFigures &e : s.freshness.byEvent) {
        names << e.name;
        total += e.latency.count;
        QCOMPARE(e.periodic, e.name != QLatin1String("aggTrade"));
    }
    names.sort();
    QCOMPARE(names, QStringList({QStringLiteral("aggTrade"), QStringLiteral("depthUpdate"), QStringLiteral("kline")}));
    QVERIFY(total > 0 && total <= s.latency.count);
    QVERIFY(!s.freshness.periodic); // trades are not

    const QJsonObject o = app::buildReport({s}, 1.0).value(QLatin1String("streams")).toArray().at(0).toObject();
    const QJsonObject byEvent = o.value(QLatin1String("latency_by_event")).toObject();
    QCOMPARE(byEvent.keys().size(), 3);
    const QJsonObject trade = byEvent.value(QLatin1String("aggTrade")).toObject();
    for (const char *key : {"count", "p50", "p90", "p99", "p999", "max", "mean", "negative", "invalid"})
        QVERIFY2(trade.contains(QLatin1String(key)), key);
    QVERIFY(trade.value(QLatin1String("count")).toInteger() > 0);
    QCOMPARE(trade.value(QLatin1String("periodic")).toBool(), false);

    QByteArray metrics;
    app::appendCadenceMetrics(metrics, {s}, {QByteArrayLiteral("mix\\\\")}, false);
    QVERIFY2(metrics.contains("streamscope_event_latency_seconds_count{stream=\"mix\\\\\",event=\"aggTrade\"} "),
             metrics.constData());
    QVERIFY(
        metrics.contains("streamscope_event_latency_seconds{stream=\"mix\\\\\",event=\"kline\",quantile=\"0.99\"} "));
    QVERIFY(metrics.contains("# TYPE streamscope_event_latency_seconds summary"));
    QVERIFY(metrics.contains("streamscope_unread_bytes{stream=\"mix\\\\\"} "));
}

void TestCadenceStreams::slowWorkerIsWeAreSlow()
{
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(ReplayOptions{});
    QVERIFY(port != 0);
    // 8000 messages a second against a worker that needs 250 µs for each: it reads a batch
    // (the socket's 1 MiB read buffer, about 5000 messages) in a second or so, and the backlog
    // grows in the kernel.
    StreamConfig config = wsStream(QStringLiteral("slow"), port, QStringLiteral("small_aggtrade?rate=8000&loop=1"));
    SlowClock clock(250);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    EventLog log;
    WorkerLoad load;
    auto shared = std::make_shared<StreamShared>(1, config);
    StreamSession session(shared, config, buffer, decoder, log, clock, networkTransports());
    session.setWorkerLoad(&load);
    QTimer tick;
    connect(&tick, &QTimer::timeout, this, [&] {
        load.sample(clock.monotonicMs());
        session.tick();
    });
    tick.start(100);
    session.start();
    const auto behind = [&log] {
        for (const StreamEvent &e : std::as_const(log.events))
            if (e.text.startsWith(QLatin1String("falling behind")))
                return e.text;
        return QString();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!behind().isEmpty(), scaledMs(20000));
    StreamSnapshot s;
    shared->fillSnapshot(s, false);
    QVERIFY2(
        behind().contains(QLatin1String("we are slow")),
        qPrintable(
            behind()
            + QStringLiteral(" unread %1, peak %2").arg(s.freshness.unreadBytes).arg(s.freshness.unreadBytesPeak)));
    QCOMPARE(s.freshness.cause, BehindCause::WeAreSlow);
    QVERIFY2(s.freshness.unreadBytesPeak > 0, qPrintable(QString::number(s.freshness.unreadBytesPeak)));
    QVERIFY2(s.freshness.processingUs >= 200, qPrintable(QString::number(s.freshness.processingUs)));
    session.stop();
}

// A hostile peer's type names that escape or cut to the same label, or a type named "other":
// each series keeps labels of its own (Prometheus refuses a scrape with two alike).
void TestCadenceStreams::eventTypeLabelsAreUnique()
{
    const auto type = [](const QString &name) {
        EventTypeFigures e;
        e.name = name;
        return e;
    };
    const QString prefix(40, QLatin1Char('x'));
    const QStringList labels = app::eventTypeLabels({type(prefix + QLatin1Char('a')), type(prefix + QLatin1Char('b')),
                                                     type(QStringLiteral("other")), type(QStringLiteral("trade")),
                                                     type(QStringLiteral("other"))});
    QCOMPARE(labels.size(), 5);
    QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), 5);
    QCOMPARE(labels.at(0), app::eventTypeLabel(prefix));
    QCOMPARE(labels.at(1), app::eventTypeLabel(prefix) + QStringLiteral("~2"));
    QCOMPARE(labels.at(2), QStringLiteral("other"));
    QCOMPARE(labels.at(3), QStringLiteral("trade"));
    QCOMPARE(labels.at(4), QStringLiteral("other~5"));

    StreamSnapshot s;
    s.freshness.byEvent = {type(QStringLiteral("other")), type(QStringLiteral("other"))};
    const QJsonObject o = app::buildReport({s}, 1.0).value(QLatin1String("streams")).toArray().at(0).toObject();
    QCOMPARE(o.value(QLatin1String("latency_by_event")).toObject().keys(),
             (QStringList{QStringLiteral("other"), QStringLiteral("other~2")}));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestCadenceStreams)
#include "tst_cadencestreams.moc"
