// LatencyHistogram and LatencySnapshot: bucket layout, percentiles, windows and merges;
// RelaxedCounter, which the histogram counts with.

#include "../common/TestRegistry.h"
#include "stats/LatencyHistogram.h"
#include "stats/RelaxedCounter.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

using streamscope::LatencyBuckets;
using streamscope::LatencyHistogram;
using streamscope::LatencySnapshot;
using streamscope::RelaxedCounter;
using streamscope::RelaxedValue;

namespace {

using H = LatencyBuckets;
constexpr std::uint64_t kTopUs = (std::uint64_t(1) << 36) - 1; // upper bound of the last bucket

QList<qint64> range(qint64 from, qint64 to)
{
    QList<qint64> out;
    for (qint64 v = from; v <= to; ++v)
        out.append(v);
    return out;
}

LatencySnapshot snapshotOf(const QList<qint64> &values)
{
    LatencyHistogram h;
    for (qint64 v : values)
        h.record(v);
    return h.snapshot();
}

// The exact quantile of the recorded (non-negative) values, by the same rank rule.
double exactQuantile(QList<qint64> values, double q)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](qint64 v) { return v < 0; }), values.end());
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const auto rank = std::max<qsizetype>(1, qsizetype(std::ceil(std::clamp(q, 0.0, 1.0) * double(values.size()))));
    return double(values.at(rank - 1));
}

} // namespace

class tst_LatencyHistogram : public QObject {
    Q_OBJECT

private slots:
    void bucketOfValue_data();
    void bucketOfValue();
    void bucketRoundTrip_data();
    void bucketRoundTrip();
    void bucketsTileTheRange();
    void percentile_data();
    void percentile();
    void negativesCountedApart();
    void topClamp();
    void rowsAllocatedOnFirstUse();
    void window_data();
    void window();
    void merge();
    void relaxedCounter_data();
    void relaxedCounter();
};

void tst_LatencyHistogram::bucketOfValue_data()
{
    QTest::addColumn<quint64>("valueUs");
    QTest::addColumn<int>("index");
    QTest::addColumn<quint64>("lowerUs");
    QTest::addColumn<quint64>("upperUs");

    QTest::newRow("0") << quint64(0) << 0 << quint64(0) << quint64(0);
    QTest::newRow("1") << quint64(1) << 1 << quint64(1) << quint64(1);
    QTest::newRow("31, last exact") << quint64(31) << 31 << quint64(31) << quint64(31);
    QTest::newRow("32") << quint64(32) << 32 << quint64(32) << quint64(32);
    QTest::newRow("63") << quint64(63) << 63 << quint64(63) << quint64(63);
    QTest::newRow("64, first of width 2") << quint64(64) << 64 << quint64(64) << quint64(65);
    QTest::newRow("65") << quint64(65) << 64 << quint64(64) << quint64(65);
    QTest::newRow("66") << quint64(66) << 65 << quint64(66) << quint64(67);
    QTest::newRow("127") << quint64(127) << 95 << quint64(126) << quint64(127);
    QTest::newRow("128") << quint64(128) << 96 << quint64(128) << quint64(131);
    QTest::newRow("1000") << quint64(1000) << 190 << quint64(992) << quint64(1007);
    QTest::newRow("1 s") << quint64(1000000) << 509 << quint64(999424) << quint64(1015807);
    QTest::newRow("2^36 - 1, last in range")
        << quint64(kTopUs) << H::kCount - 1 << (quint64(63) << 30) << quint64(kTopUs);
    QTest::newRow("2^36, clamped") << (quint64(1) << 36) << H::kCount - 1 << (quint64(63) << 30) << quint64(kTopUs);
    QTest::newRow("uint64 max, clamped") << std::numeric_limits<quint64>::max() << H::kCount - 1 << (quint64(63) << 30)
                                         << quint64(kTopUs);
}

void tst_LatencyHistogram::bucketOfValue()
{
    QFETCH(quint64, valueUs);
    QFETCH(int, index);
    QFETCH(quint64, lowerUs);
    QFETCH(quint64, upperUs);

    QCOMPARE(H::index(valueUs), index);
    QCOMPARE(quint64(H::lowerUs(index)), lowerUs);
    QCOMPARE(quint64(H::upperUs(index)), upperUs);
}

void tst_LatencyHistogram::bucketRoundTrip_data()
{
    QTest::addColumn<QList<quint64>>("values");

    QList<quint64> small;
    for (quint64 v = 0; v < 32; ++v)
        small.append(v);
    QTest::newRow("below 32") << small;

    QList<quint64> dense;
    for (quint64 v = 32; v <= 70000; ++v)
        dense.append(v);
    QTest::newRow("every value 32..70000") << dense;

    QList<quint64> powers;
    for (int bit = 5; bit < 36; ++bit) {
        const quint64 p = quint64(1) << bit;
        powers << p - 1 << p << p + 1 << p + p / 2 << 2 * p - 1;
    }
    QTest::newRow("powers of two and neighbours") << powers;

    QList<quint64> spread;
    QRandomGenerator random(20240601); // fixed seed: the same values every run
    for (int i = 0; i < 200000; ++i)
        spread.append(random.bounded(quint64(1) << random.bounded(5, 37)));
    QTest::newRow("200000 values spread over the range") << spread;
}

void tst_LatencyHistogram::bucketRoundTrip()
{
    QFETCH(QList<quint64>, values);

    for (quint64 v : std::as_const(values)) {
        const int i = H::index(v);
        const quint64 lower = H::lowerUs(i);
        const quint64 upper = H::upperUs(i);
        if (i < 0 || i >= H::kCount || v < lower || v > upper)
            QFAIL(qPrintable(QStringLiteral("%1 µs in bucket %2 [%3, %4]").arg(v).arg(i).arg(lower).arg(upper)));
        if (v < 32 && (lower != v || upper != v))
            QFAIL(qPrintable(QStringLiteral("%1 µs is not exact").arg(v)));
        // Any value in the bucket is known to within 1/32 of itself.
        if (double(upper - lower) > double(lower) / 32.0)
            QFAIL(qPrintable(QStringLiteral("bucket %1 [%2, %3] wider than 1/32").arg(i).arg(lower).arg(upper)));
        if (H::index(lower) != i || H::index(upper) != i)
            QFAIL(qPrintable(QStringLiteral("bounds of bucket %1 map elsewhere").arg(i)));
    }
}

void tst_LatencyHistogram::bucketsTileTheRange()
{
    QCOMPARE(H::kCount, 1024);
    QCOMPARE(quint64(H::lowerUs(0)), quint64(0));
    for (int i = 0; i + 1 < H::kCount; ++i) {
        if (H::upperUs(i) + 1 != H::lowerUs(i + 1))
            QFAIL(qPrintable(QStringLiteral("gap or overlap after bucket %1").arg(i)));
    }
    QCOMPARE(quint64(H::upperUs(H::kCount - 1)), quint64(kTopUs));
}

void tst_LatencyHistogram::percentile_data()
{
    QTest::addColumn<QList<qint64>>("values");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expectedUs"); // the upper bound of the bucket, capped at the max

    const QList<qint64> uniform = range(1, 1000);
    QTest::newRow("uniform 1..1000, p50") << uniform << 0.5 << 503.0;
    QTest::newRow("uniform 1..1000, p90") << uniform << 0.9 << 911.0;
    QTest::newRow("uniform 1..1000, p99") << uniform << 0.99 << 991.0;
    QTest::newRow("uniform 1..1000, p100 capped at the max") << uniform << 1.0 << 1000.0;
    QTest::newRow("uniform 1..1000, p0 is the minimum") << uniform << 0.0 << 1.0;
    QTest::newRow("uniform 1..1000, q above 1") << uniform << 1.5 << 1000.0;
    QTest::newRow("values below 32 are exact") << range(0, 31) << 0.5 << 15.0;
    QTest::newRow("single value") << QList<qint64>{7} << 0.99 << 7.0;
    QTest::newRow("constant 250 ms, capped at the max") << QList<qint64>(100, 250000) << 0.99 << 250000.0;

    QList<qint64> bimodal(900, 100);
    bimodal += QList<qint64>(100, 10000);
    QTest::newRow("bimodal, p50") << bimodal << 0.5 << 101.0;
    QTest::newRow("bimodal, p90") << bimodal << 0.9 << 101.0;
    QTest::newRow("bimodal, p90.1") << bimodal << 0.901 << 10000.0;
    QTest::newRow("bimodal, p99") << bimodal << 0.99 << 10000.0;

    QTest::newRow("negatives do not count") << QList<qint64>{-50, -1, 40, -7} << 0.0 << 40.0;
    QTest::newRow("empty") << QList<qint64>{} << 0.5 << 0.0;
    QTest::newRow("only negatives") << QList<qint64>{-1, -2} << 0.5 << 0.0;
}

void tst_LatencyHistogram::percentile()
{
    QFETCH(QList<qint64>, values);
    QFETCH(double, q);
    QFETCH(double, expectedUs);

    const LatencySnapshot s = snapshotOf(values);
    QCOMPARE(s.percentileUs(q), expectedUs);
    const double exact = exactQuantile(values, q);
    QVERIFY2(std::abs(s.percentileUs(q) - exact) <= exact / 32.0,
             qPrintable(QStringLiteral("%1 against exact %2").arg(s.percentileUs(q)).arg(exact)));
}

void tst_LatencyHistogram::negativesCountedApart()
{
    LatencyHistogram h;
    h.record(-5);
    h.record(-1);
    h.record(10);
    h.record(30);
    h.record(std::numeric_limits<std::int64_t>::min());
    const LatencySnapshot s = h.snapshot();
    QCOMPARE(s.count, quint64(2));
    QCOMPARE(s.negative, quint64(3));
    QCOMPARE(s.sumUs, quint64(40));
    QCOMPARE(s.meanUs(), 20.0);
    QCOMPARE(s.maxUs, quint64(30));
    QCOMPARE(s.buckets.size(), qsizetype(31)); // up to the highest recorded bucket only
    QCOMPARE(s.buckets.at(10), quint64(1));
    QCOMPARE(s.buckets.at(30), quint64(1));
    QCOMPARE(s.buckets.at(0), quint64(0)); // a negative is not a zero
    QCOMPARE(s.percentileUs(0.0), 10.0);

    const LatencySnapshot none = LatencyHistogram().snapshot();
    QVERIFY(none.isEmpty());
    QVERIFY(none.buckets.isEmpty());
    QCOMPARE(none.meanUs(), 0.0);
    QCOMPARE(none.percentileUs(0.5), 0.0);
}

// The buckets come in rows of 32, allocated the first time a value falls in one: a fresh
// histogram holds none; values of a few ms fill two rows; the snapshot reads empty rows as 0.
void tst_LatencyHistogram::rowsAllocatedOnFirstUse()
{
    LatencyHistogram h;
    QCOMPARE(h.rowsAllocated(), 0);
    h.record(-3); // negatives have no bucket
    QCOMPARE(h.rowsAllocated(), 0);
    h.record(3000);
    h.record(3100);
    QCOMPARE(h.rowsAllocated(), 1);
    h.record(5000); // 2^12 ≤ 5000 < 2^13: the next row
    QCOMPARE(h.rowsAllocated(), 2);
    h.record(7);
    QCOMPARE(h.rowsAllocated(), 3);
    const LatencySnapshot s = h.snapshot();
    QCOMPARE(s.count, quint64(4));
    QCOMPARE(s.buckets.size(), qsizetype(LatencyBuckets::index(5000) + 1));
    QCOMPARE(s.buckets.at(7), quint64(1));
    QCOMPARE(s.buckets.at(LatencyBuckets::index(3000)) + s.buckets.at(LatencyBuckets::index(3100)),
             quint64(LatencyBuckets::index(3000) == LatencyBuckets::index(3100) ? 4 : 2));
    quint64 total = 0;
    for (const quint64 b : s.buckets)
        total += b;
    QCOMPARE(total, quint64(4));
    QCOMPARE(s.percentileUs(1.0) >= 4096.0, true);
}

void tst_LatencyHistogram::topClamp()
{
    LatencyHistogram h;
    h.record(qint64(1) << 40);
    h.record(std::numeric_limits<std::int64_t>::max());
    h.record(qint64(kTopUs));
    const LatencySnapshot s = h.snapshot();
    QCOMPARE(s.count, quint64(3));
    QCOMPARE(s.buckets.at(H::kCount - 1), quint64(3));
    QCOMPARE(s.maxUs, quint64(std::numeric_limits<std::int64_t>::max()));
    QCOMPARE(s.percentileUs(0.0), double(kTopUs)); // the top of the range, not beyond
    QCOMPARE(s.percentileUs(1.0), double(kTopUs));
}

void tst_LatencyHistogram::window_data()
{
    QTest::addColumn<QList<qint64>>("before");
    QTest::addColumn<QList<qint64>>("during");
    QTest::addColumn<quint64>("count");
    QTest::addColumn<quint64>("sumUs");
    QTest::addColumn<quint64>("negative");
    QTest::addColumn<double>("p50Us");
    QTest::addColumn<quint64>("maxUs");

    QTest::newRow("window after slow warm-up") << QList<qint64>{1000, 2000, 3000} << QList<qint64>{10, 20, 30, -4}
                                               << quint64(3) << quint64(60) << quint64(1) << 20.0 << quint64(30);
    QTest::newRow("first window") << QList<qint64>{} << QList<qint64>{100, 200} << quint64(2) << quint64(300)
                                  << quint64(0) << 101.0 << quint64(200);
    QTest::newRow("nothing new") << QList<qint64>{5, 5, -1} << QList<qint64>{} << quint64(0) << quint64(0) << quint64(0)
                                 << 0.0 << quint64(0);
    // The all-time max (50000) lies before the window: the window's max is its top bucket's bound.
    QTest::newRow("max before the window") << QList<qint64>{50000} << QList<qint64>{700, 690} << quint64(2)
                                           << quint64(1390) << quint64(0) << 703.0 << quint64(703);
    QTest::newRow("same bucket before and during")
        << QList<qint64>{100, 100} << QList<qint64>{100, 101, 5000} << quint64(3) << quint64(5201) << quint64(0)
        << 101.0 << quint64(5000);
}

void tst_LatencyHistogram::window()
{
    QFETCH(QList<qint64>, before);
    QFETCH(QList<qint64>, during);
    QFETCH(quint64, count);
    QFETCH(quint64, sumUs);
    QFETCH(quint64, negative);
    QFETCH(double, p50Us);
    QFETCH(quint64, maxUs);

    LatencyHistogram h;
    for (qint64 v : std::as_const(before))
        h.record(v);
    const LatencySnapshot earlier = h.snapshot();
    for (qint64 v : std::as_const(during))
        h.record(v);
    const LatencySnapshot later = h.snapshot();

    const LatencySnapshot d = later.minus(earlier);
    QCOMPARE(d.count, count);
    QCOMPARE(d.sumUs, sumUs);
    QCOMPARE(d.negative, negative);
    QCOMPARE(d.percentileUs(0.5), p50Us);
    QCOMPARE(d.maxUs, maxUs);
    QCOMPARE(d.isEmpty(), count == 0);

    // The window holds exactly the buckets of a histogram fed only `during`.
    const LatencySnapshot alone = snapshotOf(during);
    QCOMPARE(d.buckets, alone.buckets);

    // Against an empty (never taken) snapshot, the difference is everything.
    const LatencySnapshot all = later.minus(LatencySnapshot{});
    QCOMPARE(all.count, later.count);
    QCOMPARE(all.sumUs, later.sumUs);
    QCOMPARE(all.negative, later.negative);
    QCOMPARE(all.buckets, later.buckets);
}

void tst_LatencyHistogram::merge()
{
    const LatencySnapshot a = snapshotOf(range(1, 100) + QList<qint64>{-3});
    const LatencySnapshot b = snapshotOf(range(1000, 1100) + QList<qint64>{-1, -2});

    LatencySnapshot total; // empty, as a reader starts a sum over streams
    total.add(a);
    total.add(b);
    QCOMPARE(total.count, quint64(201));
    QCOMPARE(total.sumUs, quint64(5050 + 106050));
    QCOMPARE(total.negative, quint64(3));
    QCOMPARE(total.maxUs, quint64(1100));
    QCOMPARE(total.percentileUs(0.5), 1007.0);  // rank 101: the value 1000, bucket [992, 1007]
    QCOMPARE(total.percentileUs(0.99), 1100.0); // rank 199: 1098, bucket [1088, 1119] capped at 1100
    QCOMPARE(total.buckets, snapshotOf(range(1, 100) + range(1000, 1100)).buckets);

    LatencySnapshot withEmpty = a;
    withEmpty.add(LatencySnapshot{});
    QCOMPARE(withEmpty.count, a.count);
    QCOMPARE(withEmpty.buckets, a.buckets);
}

void tst_LatencyHistogram::relaxedCounter_data()
{
    QTest::addColumn<QList<quint64>>("adds"); // 0 stands for add() with its default of 1
    QTest::addColumn<quint64>("total");

    QTest::newRow("nothing") << QList<quint64>{} << quint64(0);
    QTest::newRow("default adds one") << QList<quint64>{0, 0, 0} << quint64(3);
    QTest::newRow("bytes") << QList<quint64>{1500, 0, 64} << quint64(1565);
    QTest::newRow("past 32 bits") << QList<quint64>{quint64(1) << 32, quint64(1) << 32} << (quint64(1) << 33);
}

void tst_LatencyHistogram::relaxedCounter()
{
    QFETCH(QList<quint64>, adds);
    QFETCH(quint64, total);

    RelaxedCounter c;
    QCOMPARE(quint64(c.load()), quint64(0));
    for (quint64 n : std::as_const(adds)) {
        if (n == 0)
            c.add();
        else
            c.add(n);
    }
    QCOMPARE(quint64(c.load()), total);

    RelaxedValue<std::int64_t> last;
    QCOMPARE(last.load(), std::int64_t(0));
    last.store(-42);
    QCOMPARE(last.load(), std::int64_t(-42));
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_LatencyHistogram)
#include "tst_latencyhistogram.moc"
