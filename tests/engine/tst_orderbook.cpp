// The order book alone (engine/book/): exact decimals read from the text as sent, both sides
// sorted, absolute quantities with 0 removing, best levels, crossing, the limit per side, and
// what it costs: memory at 1,000 levels a side, no allocation while the book stays within
// what was reserved.

#include "../common/TestRegistry.h"
#include "book/FixedPoint.h"
#include "book/OrderBook.h"

#include <QtTest/QtTest>

using namespace streamscope::book;

class TestOrderBook : public QObject {
    Q_OBJECT
private slots:
    void parseFixed_data();
    void parseFixed();
    void levelsStaySorted();
    void zeroRemoves();
    void bestAndCrossed();
    void limitPrunesTheWorst();
    void pruneBeyondDepth();
    void memoryAtThousandLevels();
    void steadyStateDoesNotAllocate();
};

void TestOrderBook::parseFixed_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("units");
    QTest::newRow("integer") << QByteArray("5") << true << qint64(500'000'000);
    QTest::newRow("binance price") << QByteArray("27123.45000000") << true << qint64(2'712'345'000'000);
    QTest::newRow("one tenth is exact") << QByteArray("0.1") << true << qint64(10'000'000);
    QTest::newRow("smallest unit") << QByteArray("0.00000001") << true << qint64(1);
    QTest::newRow("zero") << QByteArray("0.00000000") << true << qint64(0);
    QTest::newRow("trailing zeros past eight places") << QByteArray("1.1000000000") << true << qint64(110'000'000);
    QTest::newRow("leading dot") << QByteArray(".5") << true << qint64(50'000'000);
    QTest::newRow("trailing dot") << QByteArray("5.") << true << qint64(500'000'000);
    QTest::newRow("largest integer part") << QByteArray("92233720368") << true << qint64(9'223'372'036'800'000'000);
    QTest::newRow("largest value") << QByteArray("92233720368.54775807") << true << qint64(INT64_MAX);
    QTest::newRow("one unit past int64") << QByteArray("92233720368.54775808") << false << qint64(0);
    QTest::newRow("integer part too large") << QByteArray("92233720369") << false << qint64(0);
    QTest::newRow("ninth decimal") << QByteArray("0.000000001") << false << qint64(0);
    QTest::newRow("negative") << QByteArray("-1") << false << qint64(0);
    QTest::newRow("exponent") << QByteArray("1e5") << false << qint64(0);
    QTest::newRow("empty") << QByteArray("") << false << qint64(0);
    QTest::newRow("dot only") << QByteArray(".") << false << qint64(0);
    QTest::newRow("two dots") << QByteArray("1.2.3") << false << qint64(0);
    QTest::newRow("space") << QByteArray(" 1") << false << qint64(0);
    QTest::newRow("too long") << QByteArray(41, '0') << false << qint64(0);
}

void TestOrderBook::parseFixed()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, ok);
    QFETCH(qint64, units);
    Fixed out = -7;
    QCOMPARE(streamscope::book::parseFixed(std::string_view(text.constData(), std::size_t(text.size())), out), ok);
    if (ok)
        QCOMPARE(out, units);
    else
        QCOMPARE(out, Fixed(-7)); // untouched
}

void TestOrderBook::levelsStaySorted()
{
    OrderBook b;
    for (Fixed p : {5, 1, 9, 3, 7})
        b.set(Side::Bid, p * kUnit, kUnit);
    for (Fixed p : {15, 11, 19, 13, 17})
        b.set(Side::Ask, p * kUnit, kUnit);
    QCOMPARE(b.levels(Side::Bid), std::size_t(5));
    QCOMPARE(b.levels(Side::Ask), std::size_t(5));
    for (std::size_t r = 0; r < 5; ++r) {
        QCOMPARE(b.at(Side::Bid, r).price, Fixed(9 - 2 * r) * kUnit);  // best bid first: highest
        QCOMPARE(b.at(Side::Ask, r).price, Fixed(11 + 2 * r) * kUnit); // best ask first: lowest
    }
    b.set(Side::Bid, 5 * kUnit, 42); // absolute, not added
    QCOMPARE(b.quantity(Side::Bid, 5 * kUnit), Fixed(42));
    QCOMPARE(b.levels(Side::Bid), std::size_t(5));
}

void TestOrderBook::zeroRemoves()
{
    OrderBook b;
    b.set(Side::Ask, 100, 1);
    b.set(Side::Ask, 101, 2);
    b.set(Side::Ask, 100, 0);
    QCOMPARE(b.levels(Side::Ask), std::size_t(1));
    QCOMPARE(b.best(Side::Ask)->price, Fixed(101));
    b.set(Side::Ask, 555, 0); // a level we never held: nothing
    QCOMPARE(b.levels(Side::Ask), std::size_t(1));
    b.set(Side::Ask, 101, 0);
    QVERIFY(!b.best(Side::Ask));
}

void TestOrderBook::bestAndCrossed()
{
    OrderBook b;
    QVERIFY(!b.crossed());
    b.set(Side::Bid, 100, 1);
    QVERIFY(!b.crossed()); // one side empty
    b.set(Side::Ask, 101, 1);
    QVERIFY(!b.crossed());
    QCOMPARE(b.best(Side::Bid)->price, Fixed(100));
    QCOMPARE(b.best(Side::Ask)->price, Fixed(101));
    b.set(Side::Bid, 101, 1); // best bid = best ask: crossed (locked counts)
    QVERIFY(b.crossed());
    b.set(Side::Bid, 101, 0);
    QVERIFY(!b.crossed());
    b.set(Side::Ask, 99, 3);
    QVERIFY(b.crossed());
}

void TestOrderBook::limitPrunesTheWorst()
{
    OrderBook b(3);
    b.set(Side::Bid, 10, 1);
    b.set(Side::Bid, 11, 1);
    b.set(Side::Bid, 12, 1);
    b.set(Side::Bid, 9, 1); // worse than all three: dropped
    QCOMPARE(b.levels(Side::Bid), std::size_t(3));
    QCOMPARE(b.quantity(Side::Bid, 9), Fixed(0));
    QCOMPARE(b.pruned(), quint64(1));
    b.set(Side::Bid, 13, 1); // better: the worst (10) makes room
    QCOMPARE(b.levels(Side::Bid), std::size_t(3));
    QCOMPARE(b.at(Side::Bid, 2).price, Fixed(11));
    QCOMPARE(b.best(Side::Bid)->price, Fixed(13));
    QCOMPARE(b.pruned(), quint64(2));
}

void TestOrderBook::pruneBeyondDepth()
{
    OrderBook b;
    for (Fixed p = 1; p <= 10; ++p)
        b.set(Side::Ask, p, 1);
    QCOMPARE(b.pruneBeyond(Side::Ask, 4), std::size_t(6));
    QCOMPARE(b.levels(Side::Ask), std::size_t(4));
    QCOMPARE(b.at(Side::Ask, 3).price, Fixed(4)); // the best four stay
    QCOMPARE(b.pruneBeyond(Side::Ask, 4), std::size_t(0));
}

void TestOrderBook::memoryAtThousandLevels()
{
    OrderBook b;
    for (Fixed i = 0; i < 1000; ++i) {
        b.set(Side::Bid, (10'000 - i) * kUnit, kUnit + i);
        b.set(Side::Ask, (10'001 + i) * kUnit, kUnit + i);
    }
    QCOMPARE(b.levels(Side::Bid), std::size_t(1000));
    QCOMPARE(b.levels(Side::Ask), std::size_t(1000));
    qInfo("memory at 1,000 levels a side: %zu bytes", b.memoryBytes());
    QVERIFY(b.memoryBytes() <= 64 * 1024);
}

void TestOrderBook::steadyStateDoesNotAllocate()
{
    OrderBook b;
    b.reserve(2000);
    for (Fixed i = 0; i < 1000; ++i) {
        b.set(Side::Bid, 1000 - i, 1);
        b.set(Side::Ask, 1001 + i, 1);
    }
    const Level *bids = b.side(Side::Bid).data();
    const Level *asks = b.side(Side::Ask).data();
    const std::size_t capacity = b.side(Side::Bid).capacity();
    // Updates, inserts and removals that keep the book within what was reserved.
    std::uint64_t x = 88172645463325252ull;
    for (int n = 0; n < 200'000; ++n) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const Side side = (x & 1) ? Side::Bid : Side::Ask;
        const Fixed price = side == Side::Bid ? Fixed(1 + (x >> 8) % 1000) : Fixed(1001 + (x >> 8) % 1000);
        b.set(side, price, Fixed((x >> 24) % 4)); // 0 removes a quarter of the time
    }
    QCOMPARE(b.side(Side::Bid).data(), bids);
    QCOMPARE(b.side(Side::Ask).data(), asks);
    QCOMPARE(b.side(Side::Bid).capacity(), capacity);
    QVERIFY(!b.crossed());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestOrderBook)
#include "tst_orderbook.moc"
