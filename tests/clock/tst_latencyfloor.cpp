// The latency floor's sliding window (one compare per message, rotated on the tick) and the
// clock tracker's choice of offset and explanation without a server time.

#include "../common/TestRegistry.h"
#include "session/ClockTracker.h"
#include "session/LatencyFloor.h"
#include "stats/ClockShared.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestLatencyFloor : public QObject {
    Q_OBJECT
private slots:
    void emptyHasNoFloor();
    void floorIsTheMinimumOfTheWindow();
    void oldMinimumLeavesTheWindow();
    void longPauseEmptiesTheWindow();
    void negativeFloorIsExplainedOnce();
    void positiveFloorCorrectsNothing();
};

void TestLatencyFloor::emptyHasNoFloor()
{
    LatencyFloor f;
    f.tick(0);
    QVERIFY(!f.floorUs());
}

void TestLatencyFloor::floorIsTheMinimumOfTheWindow()
{
    LatencyFloor f;
    f.tick(0);
    f.observe(5000);
    f.observe(-300);
    f.observe(7000);
    QCOMPARE(f.floorUs(), std::optional<qint64>(-300));
    f.tick(LatencyFloor::kSlotMs); // the slot closes, its minimum stays in the window
    f.observe(100);
    QCOMPARE(f.floorUs(), std::optional<qint64>(-300));
}

void TestLatencyFloor::oldMinimumLeavesTheWindow()
{
    LatencyFloor f;
    qint64 now = 0;
    f.tick(now);
    f.observe(-500000);
    for (int slot = 1; slot < LatencyFloor::kSlots; ++slot) {
        now += LatencyFloor::kSlotMs;
        f.tick(now);
        f.observe(2000 + slot);
        QCOMPARE(f.floorUs(), std::optional<qint64>(-500000));
    }
    now += LatencyFloor::kSlotMs;
    f.tick(now); // the first slot is now kSlots slots old
    QCOMPARE(f.floorUs(), std::optional<qint64>(2001));
}

void TestLatencyFloor::longPauseEmptiesTheWindow()
{
    LatencyFloor f;
    f.tick(0);
    f.observe(1000);
    f.tick(10 * LatencyFloor::kSlots * LatencyFloor::kSlotMs);
    QVERIFY(!f.floorUs());
}

void TestLatencyFloor::negativeFloorIsExplainedOnce()
{
    ClockShared shared;
    ClockTracker t(shared);
    t.tick(0);
    QVERIFY(!t.correcting());
    QCOMPARE(ClockOffsetSource(shared.source.load()), ClockOffsetSource::Unknown);
    t.observe(-480000);
    t.observe(-250000);
    const QString note = t.tick(1000);
    QCOMPARE(note,
             QStringLiteral("clock behind the venue by at least 480 ms (latency floor −480 ms over the last "
                            "minute; no server time)"));
    QVERIFY(t.correcting());
    QCOMPARE(t.offsetUs(), qint64(480000));
    QCOMPARE(ClockOffsetSource(shared.source.load()), ClockOffsetSource::LatencyFloor);
    QCOMPARE(shared.uncertaintyUs.load(), qint64(-1)); // a one-sided bound
    ClockEstimate e;
    shared.fill(e);
    QCOMPARE(e.note, note);
    QCOMPARE(e.latencyFloorMs, -480.0);
    // The same offset is not explained again.
    t.observe(-470000);
    QVERIFY(t.tick(2000).isEmpty());
}

void TestLatencyFloor::positiveFloorCorrectsNothing()
{
    ClockShared shared;
    ClockTracker t(shared);
    t.tick(0);
    t.observe(3000);
    QVERIFY(t.tick(1000).isEmpty());
    QVERIFY(t.correcting());
    QCOMPARE(t.offsetUs(), qint64(0));
    ClockEstimate e;
    shared.fill(e);
    QCOMPARE(e.source, ClockOffsetSource::LatencyFloor);
    QVERIFY(e.hasFloor);
    QCOMPARE(e.latencyFloorMs, 3.0);
    QVERIFY(e.note.isEmpty());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestLatencyFloor)
#include "tst_latencyfloor.moc"
