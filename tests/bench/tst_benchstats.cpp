// The arithmetic of streamscope-bench's figures (bench/harness/driver/BenchStats): median, spread,
// the median's interval that --converge stops on, and the per-repeat ratios.
#include "../common/TestRegistry.h"
#include "BenchStats.h"

#include <cmath>

#include <QtTest/QtTest>

using namespace streamscope::bench;

class TstBenchStats : public QObject {
    Q_OBJECT

private slots:
    void medianAndSpread_data();
    void medianAndSpread();
    void intervalRank_data();
    void intervalRank();
    void intervalLeavesOutExtremesFromNineRepeats();
    void convergence_data();
    void convergence();
    void ratiosPairRunsAndSkipFailures();
};

void TstBenchStats::medianAndSpread_data()
{
    QTest::addColumn<QVector<double>>("values");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::newRow("none") << QVector<double>{} << 0.0 << 0.0 << 0.0;
    QTest::newRow("one") << QVector<double>{0.5} << 0.5 << 0.5 << 0.5;
    QTest::newRow("odd, unsorted") << QVector<double>{0.9, 0.4, 0.6} << 0.6 << 0.4 << 0.9;
    QTest::newRow("even: mean of the middle two") << QVector<double>{4, 1, 3, 2} << 2.5 << 1.0 << 4.0;
}

void TstBenchStats::medianAndSpread()
{
    QFETCH(QVector<double>, values);
    QFETCH(double, median);
    QFETCH(double, min);
    QFETCH(double, max);
    const Spread s = spreadOf(std::vector<double>(values.cbegin(), values.cend()));
    QCOMPARE(s.n, int(values.size()));
    QCOMPARE(s.median, median);
    QCOMPARE(s.min, min);
    QCOMPARE(s.max, max);
}

void TstBenchStats::intervalRank_data()
{
    // k: the largest rank with P(Binomial(n, 1/2) <= k - 1) <= 2.5 %, at least 1.
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::newRow("1") << 1 << 1;
    QTest::newRow("5: no rank reaches 95 %, min-max") << 5 << 1;
    QTest::newRow("6: 1/64 <= 2.5 %") << 6 << 1;
    QTest::newRow("8: 9/256 > 2.5 %") << 8 << 1;
    QTest::newRow("9: 10/512 <= 2.5 %") << 9 << 2;
    QTest::newRow("12: 79/4096 <= 2.5 %") << 12 << 3;
    QTest::newRow("15") << 15 << 4;
    QTest::newRow("20") << 20 << 6;
    QTest::newRow("0") << 0 << 0;
}

void TstBenchStats::intervalRank()
{
    QFETCH(int, n);
    QFETCH(int, k);
    QCOMPARE(medianIntervalRank(n), k);
    // --converge's least number of pairs: the first whose min–max covers the median with 95 %.
    QVERIFY(1.0 - 2.0 * std::pow(0.5, kMinPairsFor95) >= 0.95);
    QVERIFY(1.0 - 2.0 * std::pow(0.5, kMinPairsFor95 - 1) < 0.95);
}

void TstBenchStats::intervalLeavesOutExtremesFromNineRepeats()
{
    std::vector<double> v{0.50, 0.51, 0.49, 0.50, 0.52, 0.48, 0.50, 0.51};
    v.push_back(0.90); // one repeat disturbed by the host
    const Spread s = spreadOf(v);
    QCOMPARE(s.n, 9);
    QCOMPARE(s.median, 0.50);
    QCOMPARE(s.max, 0.90); // the spread reports it
    QCOMPARE(s.low, 0.49); // the interval does not rest on it
    QCOMPARE(s.high, 0.52);
    QVERIFY(qAbs(s.halfWidth() - 0.02) < 1e-9);
}

void TstBenchStats::convergence_data()
{
    QTest::addColumn<QVector<double>>("values");
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<bool>("within");
    QTest::newRow("three close") << QVector<double>{0.44, 0.46, 0.48} << 0.05 << true;
    QTest::newRow("exactly 0.05 on one side") << QVector<double>{0.40, 0.45, 0.50} << 0.05 << true;
    QTest::newRow("one side too far") << QVector<double>{0.44, 0.71, 0.70} << 0.05 << false;
    QTest::newRow("none") << QVector<double>{} << 0.05 << false;
}

void TstBenchStats::convergence()
{
    QFETCH(QVector<double>, values);
    QFETCH(double, tolerance);
    QFETCH(bool, within);
    QCOMPARE(spreadOf(std::vector<double>(values.cbegin(), values.cend())).within(tolerance), within);
}

void TstBenchStats::ratiosPairRunsAndSkipFailures()
{
    const std::vector<double> engine{100, 0, 90, 80};
    const std::vector<double> qws{200, 150, 0};
    const std::vector<double> r = pairedRatios(engine, qws);
    QCOMPARE(r.size(), std::size_t(1)); // repeat 2: engine failed; 3: qws failed; 4: no partner
    QCOMPARE(r.front(), 0.5);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TstBenchStats)
#include "tst_benchstats.moc"
