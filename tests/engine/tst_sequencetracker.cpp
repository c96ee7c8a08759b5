// Depth-diff continuity: spot U = previous u + 1, futures pu = previous u, per symbol.

#include "protocol/SequenceTracker.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestSequenceTracker : public QObject {
    Q_OBJECT
private slots:
    void spot_data();
    void spot();
    void futures();
    void symbolsAreIndependent();
};

void TestSequenceTracker::spot_data()
{
    QTest::addColumn<QList<qint64>>("events"); // U,u pairs
    QTest::addColumn<int>("gaps");
    QTest::addColumn<qint64>("expectedFrom");
    QTest::addColumn<qint64>("resumedAt");
    QTest::newRow("continuous") << QList<qint64>{100, 110, 111, 120, 121, 121} << 0 << qint64(0) << qint64(0);
    QTest::newRow("one gap of 5") << QList<qint64>{100, 110, 116, 120, 121, 130} << 1 << qint64(111) << qint64(116);
    QTest::newRow("overlap is no gap") << QList<qint64>{100, 110, 105, 115, 116, 120} << 0 << qint64(0) << qint64(0);
}

void TestSequenceTracker::spot()
{
    QFETCH(QList<qint64>, events);
    QFETCH(int, gaps);
    QFETCH(qint64, expectedFrom);
    QFETCH(qint64, resumedAt);
    SequenceTracker t;
    int found = 0;
    for (qsizetype i = 0; i + 1 < events.size(); i += 2) {
        const auto g = t.check("BTCUSDT", events[i], events[i + 1], INT64_MIN);
        if (g.found) {
            ++found;
            QCOMPARE(g.expectedFrom, expectedFrom);
            QCOMPARE(g.resumedAt, resumedAt);
        }
    }
    QCOMPARE(found, gaps);
}

void TestSequenceTracker::futures()
{
    SequenceTracker t;
    QVERIFY(!t.check("BTCUSDT", 100, 110, 99).found);
    QVERIFY(!t.check("BTCUSDT", 111, 120, 110).found);
    const auto g = t.check("BTCUSDT", 131, 140, 130); // pu says 130 came before; we saw 120
    QVERIFY(g.found);
    QCOMPARE(g.expectedFrom, qint64(121));
    QVERIFY(!t.check("BTCUSDT", 141, 150, 140).found);
}

void TestSequenceTracker::symbolsAreIndependent()
{
    SequenceTracker t;
    QVERIFY(!t.check("BTCUSDT", 1, 10, INT64_MIN).found);
    QVERIFY(!t.check("ETHUSDT", 500, 510, INT64_MIN).found);
    QVERIFY(!t.check("BTCUSDT", 11, 20, INT64_MIN).found);
    QVERIFY(!t.check("ETHUSDT", 511, 520, INT64_MIN).found);
    QVERIFY(t.check("ETHUSDT", 530, 540, INT64_MIN).found);
    t.reset();
    QVERIFY(!t.check("ETHUSDT", 9000, 9010, INT64_MIN).found); // a new chain after reset
}

QTEST_GUILESS_MAIN(TestSequenceTracker)
#include "tst_sequencetracker.moc"
