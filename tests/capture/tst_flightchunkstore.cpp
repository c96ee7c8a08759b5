// The flight recorder's history without a network: one stream's chunks leave by age, and the
// memory cap over all streams evicts the oldest chunk of any stream first, counting what left
// for each reason (docs/capture.md, "Flight recorder").
#include "../common/TestRegistry.h"
#include "capture/FlightBudget.h"
#include "capture/FlightChunkStore.h"

#include <QtTest/QtTest>

using namespace streamscope;

namespace {

FlightChunkStore::Chunk chunk(qint64 firstUs, qint64 lastUs, quint64 messages, std::size_t bytes)
{
    FlightChunkStore::Chunk c;
    c.firstUs = firstUs;
    c.lastUs = lastUs;
    c.messages = messages;
    c.bytes.assign(bytes, 'x');
    return c;
}

} // namespace

class TestFlightChunkStore : public QObject {
    Q_OBJECT
private slots:
    void evictsByAge()
    {
        FlightChunkStore store;
        store.append(chunk(1'000'000, 1'900'000, 10, 100));
        store.append(chunk(2'000'000, 2'900'000, 20, 200));
        store.append(chunk(3'000'000, 3'900'000, 30, 300));
        QCOMPARE(store.bytes(), quint64(600));
        QCOMPARE(store.messages(), quint64(60));
        QCOMPARE(store.spanMs(), qint64(2900));
        // A chunk goes only once its last line is older than the cutoff.
        QCOMPARE(store.evictOlderThan(1'900'000), quint64(0));
        QCOMPARE(store.evictOlderThan(2'000'000), quint64(10));
        QCOMPARE(store.evictOlderThan(2'900'001), quint64(20));
        QCOMPARE(store.chunks().size(), std::size_t(1));
        QCOMPARE(store.bytes(), quint64(300));
        QCOMPARE(store.messages(), quint64(30));
        QCOMPARE(store.oldestUs(), qint64(3'000'000));
        QCOMPARE(store.spanMs(), qint64(900));
        QCOMPARE(store.evictedAgeMessages(), quint64(30));
        QCOMPARE(store.evictedCapMessages(), quint64(0));
        QCOMPARE(store.evictOlderThan(10'000'000), quint64(30));
        QVERIFY(store.empty());
        QCOMPARE(store.bytes(), quint64(0));
        QCOMPARE(store.spanMs(), qint64(0));
        QCOMPARE(store.evictOldest(), quint64(0));
    }

    void evictOldestCountsForTheCap()
    {
        FlightChunkStore store;
        store.append(chunk(1, 2, 5, 10));
        store.append(chunk(3, 4, 7, 10));
        QCOMPARE(store.evictOldest(), quint64(5));
        QCOMPARE(store.evictedCapMessages(), quint64(5));
        QCOMPARE(store.evictedCapChunks(), quint64(1));
        QCOMPARE(store.evictedAgeMessages(), quint64(0));
        QCOMPARE(store.oldestUs(), qint64(3));
    }

    // Two streams under one cap: the oldest history goes first, whichever stream holds it.
    void capEvictsTheOldestOfAnyStream()
    {
        FlightBudget budget(1000);
        FlightChunkStore quiet(&budget);
        FlightChunkStore busy(&budget);
        budget.attach(&quiet);
        budget.attach(&busy);
        quiet.append(chunk(100, 200, 1, 300)); // the oldest
        busy.append(chunk(150, 250, 50, 300));
        busy.append(chunk(300, 400, 50, 300));
        QCOMPARE(budget.usedBytes(), quint64(900));
        QCOMPARE(budget.enforce(), quint64(0));
        // Room for 300 more bytes: one chunk must go, the quiet stream's.
        QCOMPARE(budget.enforce(300), quint64(1));
        QVERIFY(quiet.empty());
        QCOMPARE(quiet.evictedCapMessages(), quint64(1));
        QCOMPARE(busy.chunks().size(), std::size_t(2));
        busy.append(chunk(500, 600, 50, 300));
        QCOMPARE(budget.usedBytes(), quint64(900));
        // A lower cap: the busy stream's oldest chunks go until it holds.
        budget.setCapBytes(350);
        QCOMPARE(budget.enforce(), quint64(2));
        QCOMPARE(budget.usedBytes(), quint64(300));
        QCOMPARE(busy.evictedCapMessages(), quint64(100));
        QCOMPARE(busy.oldestUs(), qint64(500));
        QVERIFY(budget.usedBytes() <= budget.capBytes());
        // Nothing to evict: the cap cannot be met, enforce() gives up rather than loop.
        budget.setCapBytes(10);
        budget.detach(&busy);
        QCOMPARE(budget.enforce(), quint64(0));
        budget.detach(&quiet);
    }

    // What a store held is returned to the budget when it goes.
    void destroyedStoreReturnsItsBytes()
    {
        FlightBudget budget(1 << 20);
        {
            FlightChunkStore store(&budget);
            store.append(chunk(1, 2, 3, 4096));
            QCOMPARE(budget.usedBytes(), quint64(4096));
        }
        QCOMPARE(budget.usedBytes(), quint64(0));
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestFlightChunkStore)
#include "tst_flightchunkstore.moc"
