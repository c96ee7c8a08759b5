// Reconnect backoff: exponential ceiling with full jitter, capped, reset.

#include "../common/TestRegistry.h"
#include "session/Backoff.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestBackoff : public QObject {
    Q_OBJECT
private slots:
    void ceilingGrowsAndCaps();
    void delaysStayWithinCeiling();
    void jitterSpreadsDelays();
};

void TestBackoff::ceilingGrowsAndCaps()
{
    Backoff b(1000, 60000);
    const QList<int> expected{1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000};
    for (int ceiling : expected) {
        QCOMPARE(b.currentCeilingMs(), ceiling);
        b.nextDelayMs();
    }
    b.reset();
    QCOMPARE(b.attempt(), 0);
    QCOMPARE(b.currentCeilingMs(), 1000);
    for (int i = 0; i < 100; ++i)
        b.nextDelayMs(); // no overflow however long it fails
    QCOMPARE(b.currentCeilingMs(), 60000);
}

void TestBackoff::delaysStayWithinCeiling()
{
    Backoff b(100, 1000);
    for (int i = 0; i < 50; ++i) {
        const int ceiling = b.currentCeilingMs();
        const int d = b.nextDelayMs();
        QVERIFY(d >= 0 && d <= ceiling);
    }
}

void TestBackoff::jitterSpreadsDelays()
{
    QSet<int> seen;
    for (int i = 0; i < 50; ++i) {
        Backoff b(1000, 60000);
        for (int k = 0; k < 5; ++k)
            b.nextDelayMs();
        seen.insert(b.nextDelayMs()); // attempt 6: uniform in [0, 32000]
    }
    QVERIFY(seen.size() > 40); // full jitter, not a fixed schedule
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBackoff)
#include "tst_backoff.moc"
