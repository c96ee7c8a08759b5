// Depth-diff continuity: spot U = previous u + 1, futures pu = previous u, per symbol.

#include "../common/TestRegistry.h"
#include "protocol/SequenceTracker.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestSequenceTracker : public QObject {
    Q_OBJECT
private slots:
    void spot_data();
    void spot();
    void futures_data();
    void futures();
    void symbolsAreIndependent();
};

void TestSequenceTracker::spot_data()
{
    QTest::addColumn<QList<qint64>>("events"); // U,u pairs
    QTest::addColumn<int>("gaps");
    QTest::addColumn<qint64>("expectedFrom");
    QTest::addColumn<qint64>("resumedAt");
    QTest::addColumn<quint64>("missing");
    constexpr qint64 max = INT64_MAX;
    constexpr qint64 min = INT64_MIN;
    QTest::newRow("continuous") << QList<qint64>{100, 110, 111, 120, 121, 121} << 0 << qint64(0) << qint64(0)
                                << quint64(0);
    QTest::newRow("one gap of 5") << QList<qint64>{100, 110, 116, 120, 121, 130} << 1 << qint64(111) << qint64(116)
                                  << quint64(5);
    QTest::newRow("overlap is no gap") << QList<qint64>{100, 110, 105, 115, 116, 120} << 0 << qint64(0) << qint64(0)
                                       << quint64(0);
    // The ids are the peer's: the limits of int64 are a chain like any other.
    QTest::newRow("continuous up to INT64_MAX")
        << QList<qint64>{max - 20, max - 10, max - 9, max - 1, max, max} << 0 << qint64(0) << qint64(0) << quint64(0);
    QTest::newRow("gap ending at INT64_MAX")
        << QList<qint64>{max - 20, max - 10, max, max} << 1 << max - 9 << max << quint64(9);
    QTest::newRow("nothing follows INT64_MAX: an older id is no gap")
        << QList<qint64>{max - 1, max, 5, 6} << 0 << qint64(0) << qint64(0) << quint64(0);
    QTest::newRow("INT64_MAX repeated") << QList<qint64>{max, max, max, max} << 0 << qint64(0) << qint64(0)
                                        << quint64(0);
    QTest::newRow("gap across the whole range")
        << QList<qint64>{min + 1, min + 1, max, max} << 1 << min + 2 << max << quint64(UINT64_MAX - 2);
    QTest::newRow("negative ids") << QList<qint64>{-10, -5, -4, -1, 0, 3} << 0 << qint64(0) << qint64(0) << quint64(0);
}

void TestSequenceTracker::spot()
{
    QFETCH(QList<qint64>, events);
    QFETCH(int, gaps);
    QFETCH(qint64, expectedFrom);
    QFETCH(qint64, resumedAt);
    QFETCH(quint64, missing);
    SequenceTracker t;
    int found = 0;
    for (qsizetype i = 0; i + 1 < events.size(); i += 2) {
        const auto g = t.check("BTCUSDT", events[i], events[i + 1], INT64_MIN);
        if (g.found) {
            ++found;
            QCOMPARE(g.expectedFrom, expectedFrom);
            QCOMPARE(g.resumedAt, resumedAt);
            QCOMPARE(g.missing, missing);
        }
    }
    QCOMPARE(found, gaps);
}

void TestSequenceTracker::futures_data()
{
    QTest::addColumn<QList<qint64>>("events"); // U,u,pu triples
    QTest::addColumn<int>("gaps");
    QTest::addColumn<qint64>("expectedFrom");
    QTest::addColumn<qint64>("resumedAt");
    QTest::addColumn<quint64>("missing");
    constexpr qint64 max = INT64_MAX;
    constexpr qint64 min = INT64_MIN;
    // pu says 130 came before; we saw 120.
    QTest::newRow("one gap") << QList<qint64>{100, 110, 99, 111, 120, 110, 131, 140, 130, 141, 150, 140} << 1
                             << qint64(121) << qint64(131) << quint64(10);
    QTest::newRow("continuous up to INT64_MAX")
        << QList<qint64>{max - 20, max - 10, 0, max - 9, max, max - 10} << 0 << qint64(0) << qint64(0) << quint64(0);
    QTest::newRow("break after INT64_MAX: the ids went back")
        << QList<qint64>{max - 1, max, 0, 5, 6, 4} << 1 << max << qint64(5) << quint64(0);
    QTest::newRow("gap across the whole range")
        << QList<qint64>{min + 1, min + 1, 0, max, max, max - 1} << 1 << min + 2 << max << quint64(UINT64_MAX - 2);
}

void TestSequenceTracker::futures()
{
    QFETCH(QList<qint64>, events);
    QFETCH(int, gaps);
    QFETCH(qint64, expectedFrom);
    QFETCH(qint64, resumedAt);
    QFETCH(quint64, missing);
    SequenceTracker t;
    int found = 0;
    for (qsizetype i = 0; i + 2 < events.size(); i += 3) {
        const auto g = t.check("BTCUSDT", events[i], events[i + 1], events[i + 2]);
        if (g.found) {
            ++found;
            QCOMPARE(g.expectedFrom, expectedFrom);
            QCOMPARE(g.resumedAt, resumedAt);
            QCOMPARE(g.missing, missing);
        }
    }
    QCOMPARE(found, gaps);
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

STREAMSCOPE_TEST_GUILESS_MAIN(TestSequenceTracker)
#include "tst_sequencetracker.moc"
