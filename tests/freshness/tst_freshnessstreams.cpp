// Freshness end to end on loopback, against the replay server: a stream whose event times
// fall 50 ms further behind every second raises "falling behind" within ten seconds while
// its messages flow (the venue is late: the worker keeps up), and its steady neighbour does
// not; a busy stream that goes silent raises a silence alarm within seconds, long before the
// fixed stall timeout, and a slow one that keeps its pace raises none.

#include "../common/TestRegistry.h"
#include "../integration/IntegrationSupport.h"

#include "ReplayServerThread.h"
#include "Report.h"

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;

class TestFreshnessStreams : public QObject {
    Q_OBJECT
private slots:
    void fallingBehindWhileMessagesFlow();
    void busyStreamSilenceIsAnAlarm();
};

void TestFreshnessStreams::fallingBehindWhileMessagesFlow()
{
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(ReplayOptions{});
    QVERIFY(port != 0);
    QList<StreamEvent> events; // before the engine, which may publish while it stops
    Engine engine(Engine::Options{1});
    connect(&engine, &Engine::eventOccurred, this, [&events](const StreamEvent &e) { events << e; });
    const StreamId late = engine.addStream(
        wsStream(QStringLiteral("late"), port, QStringLiteral("small_aggtrade?rate=100&loop=1&lag_ms_per_s=50")));
    const StreamId steady =
        engine.addStream(wsStream(QStringLiteral("steady"), port, QStringLiteral("small_aggtrade?rate=100&loop=1")));
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(late).dataMessages > 0, scaledMs(10000));
    QElapsedTimer sinceData;
    sinceData.start();
    const auto behindEvent = [&](StreamId id) {
        return std::find_if(events.cbegin(), events.cend(), [id](const StreamEvent &e) {
            return e.stream == id && e.kind == EventKind::Stalled && e.text.startsWith(QLatin1String("falling behind"));
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(behindEvent(late) != events.cend(), scaledMs(10000));
    qInfo("falling behind raised %lld ms after the first message: %s", qint64(sinceData.elapsed()),
          qPrintable(behindEvent(late)->text));
    QVERIFY2(behindEvent(late)->text.contains(QLatin1String("the exchange or the network is late")),
             qPrintable(behindEvent(late)->text));
    const StreamSnapshot s = engine.snapshot(late, true);
    QVERIFY(s.freshness.fallingBehind);
    QCOMPARE(s.freshness.cause, BehindCause::VenueLate);
    QCOMPARE(s.freshness.fallingBehindAlarms, quint64(1));
    QVERIFY2(s.freshness.latencyTrendMsPerS > 30 && s.freshness.latencyTrendMsPerS < 70,
             qPrintable(QString::number(s.freshness.latencyTrendMsPerS)));
    QVERIFY(s.freshness.workerBusyShare >= 0 && s.freshness.workerBusyShare < 0.9);
    QCOMPARE(s.state, StreamState::Live); // messages flow: live, but not fresh

    const StreamSnapshot n = engine.snapshot(steady, true);
    QVERIFY(n.dataMessages > 0);
    QVERIFY(!n.freshness.fallingBehind);
    QCOMPARE(n.freshness.fallingBehindAlarms, quint64(0));
    QVERIFY(behindEvent(steady) == events.cend());

    // The report says the same.
    const QJsonArray streams = app::buildReport({s, n}, 1.0).value(QLatin1String("streams")).toArray();
    QCOMPARE(streams.at(0).toObject().value(QLatin1String("falling_behind")).toBool(), true);
    QCOMPARE(streams.at(0).toObject().value(QLatin1String("falling_behind_cause")).toString(),
             QStringLiteral("venue_late"));
    QCOMPARE(streams.at(1).toObject().value(QLatin1String("falling_behind")).toBool(), false);
    QVERIFY(streams.at(1).toObject().value(QLatin1String("falling_behind_cause")).isNull());
}

void TestFreshnessStreams::busyStreamSilenceIsAnAlarm()
{
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(ReplayOptions{});
    QVERIFY(port != 0);
    QList<StreamEvent> events;
    Engine engine(Engine::Options{1});
    connect(&engine, &Engine::eventOccurred, this, [&events](const StreamEvent &e) { events << e; });
    // 100 messages a second for 4 s, then silence (the connection stays); the stall timeout is
    // a minute.
    const StreamId busy = engine.addStream(wsStream(
        QStringLiteral("busy"), port, QStringLiteral("small_aggtrade?rate=100&loop=1&misbehave=silent&after=400")));
    // Two messages a second, all along: its gaps are its normal.
    const StreamId slow =
        engine.addStream(wsStream(QStringLiteral("slow"), port, QStringLiteral("small_aggtrade?rate=2&loop=1")));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(busy).dataMessages, quint64(400), scaledMs(20000));
    QElapsedTimer silence;
    silence.start();
    const auto silenceEvent = [&](StreamId id) {
        return std::find_if(events.cbegin(), events.cend(), [id](const StreamEvent &e) {
            return e.stream == id && e.kind == EventKind::Stalled && e.text.startsWith(QLatin1String("silent for"));
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(silenceEvent(busy) != events.cend(), scaledMs(10000));
    qInfo("silence alarm %lld ms into the silence: %s", qint64(silence.elapsed()),
          qPrintable(silenceEvent(busy)->text));
    const StreamSnapshot s = engine.snapshot(busy);
    QCOMPARE(s.freshness.silenceAlarms, quint64(1));
    QVERIFY2(s.freshness.usualGapMs > 0 && s.freshness.usualGapMs <= 200,
             qPrintable(QString::number(s.freshness.usualGapMs)));
    QCOMPARE(s.state, StreamState::Live); // the fixed stall timeout is far
    QCOMPARE(s.dataMessages, quint64(400));

    const StreamSnapshot q = engine.snapshot(slow);
    QVERIFY(q.dataMessages >= 6);
    QCOMPARE(q.freshness.silenceAlarms, quint64(0));
    QVERIFY(silenceEvent(slow) == events.cend());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestFreshnessStreams)
#include "tst_freshnessstreams.moc"
