// ConnectionPacer: connection attempts to one venue never exceed its limit in any window (a
// tenth longer than the venue's), whoever asks and from however many threads; venues are paced
// apart; a slot given back is the venue's again; an unpaced venue never waits. No network.

#include "../common/TestRegistry.h"
#include "session/ConnectionPacer.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <thread>
#include <vector>

using namespace streamscope;

namespace {

constexpr Venue kOkx{"okx"};
constexpr Venue kBybit{"bybit"};
constexpr ConnectionPacer::Limit kThreeASecond{3, 1000};

// The most of `taken` within any half-open span of `windowMs`.
int mostWithin(std::vector<qint64> taken, qint64 windowMs)
{
    std::sort(taken.begin(), taken.end());
    int most = 0;
    std::size_t from = 0;
    for (std::size_t to = 0; to < taken.size(); ++to) {
        while (taken[to] - taken[from] >= windowMs)
            ++from;
        most = std::max(most, int(to - from + 1));
    }
    return most;
}

} // namespace

class TestConnectionPacer : public QObject {
    Q_OBJECT
private slots:
    void manyAtOnceAreSpreadOverWindows_data();
    void manyAtOnceAreSpreadOverWindows();
    void roomComesBackAsTheWindowMoves();
    void venuesArePacedApart();
    void aSlotGivenBackIsTakenAgain();
    void anUnusedSlotIsGivenBackByItsOwner();
    void unpacedNeverWaits();
    void threadsShareOneLimit();
};

void TestConnectionPacer::manyAtOnceAreSpreadOverWindows_data()
{
    QTest::addColumn<int>("attempts");
    QTest::addColumn<qint64>("windowMs");
    QTest::addColumn<int>("asking");
    QTest::newRow("OKX: 3 a second, 20 at once") << 3 << qint64(1000) << 20;
    QTest::newRow("Bybit: 500 in 5 minutes, 1,200 at once") << 500 << qint64(300000) << 1200;
}

void TestConnectionPacer::manyAtOnceAreSpreadOverWindows()
{
    QFETCH(int, attempts);
    QFETCH(qint64, windowMs);
    QFETCH(int, asking);
    ConnectionPacer pacer;
    const ConnectionPacer::Limit limit{attempts, windowMs};
    std::vector<qint64> taken;
    for (int i = 0; i < asking; ++i)
        taken.push_back(pacer.reserve(kOkx, limit, 1000));
    // The first `attempts` go at once, the next a window (+ 10 %) later, and so on.
    const qint64 window = ConnectionPacer::windowMs(limit);
    QCOMPARE(window, windowMs + windowMs / 10);
    for (int i = 0; i < asking; ++i)
        QCOMPARE(taken[std::size_t(i)], 1000 + (i / attempts) * window);
    QCOMPARE(mostWithin(taken, window), attempts);
}

void TestConnectionPacer::roomComesBackAsTheWindowMoves()
{
    ConnectionPacer pacer;
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 0), qint64(0));
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 400), qint64(400));
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 800), qint64(800));
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 900), qint64(1100));  // 1.1 s after the first
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 5000), qint64(5000)); // long after: at once
}

void TestConnectionPacer::venuesArePacedApart()
{
    ConnectionPacer pacer;
    for (int i = 0; i < 3; ++i)
        QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 0), qint64(0));
    QCOMPARE(pacer.reserve(kBybit, {500, 300000}, 0), qint64(0));
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 0), qint64(1100));
}

void TestConnectionPacer::aSlotGivenBackIsTakenAgain()
{
    ConnectionPacer pacer;
    for (int i = 0; i < 3; ++i)
        pacer.reserve(kOkx, kThreeASecond, 0);
    const qint64 fourth = pacer.reserve(kOkx, kThreeASecond, 0);
    QCOMPARE(fourth, qint64(1100));
    pacer.release(kOkx, fourth);
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 10), qint64(1100)); // not 2200
    // One of the first three went unused: three may go at 1.1 s.
    pacer.release(kOkx, 0);
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 20), qint64(1100));
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 30), qint64(1100));
    QCOMPARE(pacer.reserve(kOkx, kThreeASecond, 40), qint64(2200));
}

void TestConnectionPacer::anUnusedSlotIsGivenBackByItsOwner()
{
    auto pacer = std::make_shared<ConnectionPacer>();
    for (int i = 0; i < 3; ++i)
        pacer->reserve(kOkx, kThreeASecond, 0);
    {
        ConnectSlot waiting(pacer, kOkx, pacer->reserve(kOkx, kThreeASecond, 0));
        QVERIFY(waiting.pending());
        QCOMPARE(waiting.atMs(), qint64(1100));
        ConnectSlot moved = std::move(waiting); // a link's slot moves with it, given back once
        QVERIFY(moved.pending());
    } // the link went before its attempt: three may still go at 1.1 s
    for (int i = 0; i < 3; ++i)
        QCOMPARE(pacer->reserve(kOkx, kThreeASecond, 0), qint64(1100));
    QCOMPARE(pacer->reserve(kOkx, kThreeASecond, 0), qint64(2200));
    {
        ConnectSlot used(pacer, kOkx, pacer->reserve(kOkx, kThreeASecond, 0));
        QCOMPARE(used.atMs(), qint64(2200));
        used.use(); // the attempt was made: the slot stays taken
    }
    QCOMPARE(pacer->reserve(kOkx, kThreeASecond, 0), qint64(2200));
    QCOMPARE(pacer->reserve(kOkx, kThreeASecond, 0), qint64(3300));
}

void TestConnectionPacer::unpacedNeverWaits()
{
    ConnectionPacer pacer;
    for (int i = 0; i < 100; ++i)
        QCOMPARE(pacer.reserve(kOkx, {}, 7), qint64(7));
}

void TestConnectionPacer::threadsShareOneLimit()
{
    ConnectionPacer pacer;
    constexpr int kThreads = 8;
    constexpr int kEach = 50;
    std::vector<std::vector<qint64>> perThread(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&pacer, &perThread, t] {
            for (int i = 0; i < kEach; ++i)
                perThread[std::size_t(t)].push_back(pacer.reserve(kOkx, kThreeASecond, i * 10));
        });
    for (std::thread &t : threads)
        t.join();
    std::vector<qint64> all;
    for (const auto &s : perThread)
        all.insert(all.end(), s.begin(), s.end());
    QCOMPARE(int(all.size()), kThreads * kEach);
    QCOMPARE(mostWithin(all, ConnectionPacer::windowMs(kThreeASecond)), 3);
    // None was made to wait much longer than the limit requires: 400 attempts, 3 a window,
    // asked within the first half second.
    QVERIFY(*std::max_element(all.begin(), all.end())
            <= qint64(kThreads * kEach / 3) * ConnectionPacer::windowMs(kThreeASecond) + kEach * 10);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestConnectionPacer)
#include "tst_connectionpacer.moc"
