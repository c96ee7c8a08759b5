// Order books end to end (docs/books.md): the real engine against a Binance-like venue written
// in the test (BookVenueServer.h: its depth stream over a websocket and its REST snapshot over
// HTTP, both on 127.0.0.1). A book per instrument of a combined stream, synced from the
// snapshot; a real gap in one instrument resyncs it alone; "book": false keeps none.

#include "../common/TimeFactor.h"
#include "BookVenueServer.h"

#include "Engine.h"
#include "StreamSnapshot.h"

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

using Levels = QList<QPair<QString, QString>>;

Levels levels(std::initializer_list<std::pair<const char *, const char *>> list)
{
    Levels out;
    for (const auto &[p, q] : list)
        out.append({QString::fromLatin1(p), QString::fromLatin1(q)});
    return out;
}

StreamConfig depthStream(const BookVenueServer &venue, const QStringList &symbols)
{
    StreamConfig c;
    c.name = QStringLiteral("depth");
    c.venue = Venue("binance");
    c.url = venue.streamUrl(symbols);
    c.restUrl = venue.restUrl();
    c.pingIntervalMs = 0;
    return c;
}

BookStatus bookOf(const Engine &engine, StreamId id, const QString &instrument)
{
    for (const BookStatus &b : engine.snapshot(id).books)
        if (b.instrument == instrument)
            return b;
    return {};
}

} // namespace

class TestBooksLoopback : public QObject {
    Q_OBJECT
private slots:
    void bookPerInstrumentAndAGapResyncsOnlyItsOwn();
    void bookFalseKeepsNone();
};

void TestBooksLoopback::bookPerInstrumentAndAGapResyncsOnlyItsOwn()
{
    BookVenueServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    const QString eth = QStringLiteral("ETHUSDT");
    venue.book(btc).id = 5000;
    venue.diff(btc, levels({{"27000.10", "1.5"}, {"26999.00", "2"}}), levels({{"27001.00", "0.7"}}));
    venue.diff(eth, levels({{"1800.00", "10"}}), levels({{"1801.50", "4"}, {"1802.00", "5"}}));

    Engine engine;
    const StreamId id = engine.addStream(depthStream(venue, {btc, eth}));
    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
    // The first diff of each instrument asks for its snapshot.
    venue.diff(btc, levels({{"27000.50", "1"}}), {});
    venue.diff(eth, {}, levels({{"1801.00", "3"}}));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, eth).state, BookState::Synced, scaledMs(10000));
    QCOMPARE(venue.snapshotRequests(btc), 1);
    QCOMPARE(venue.snapshotRequests(eth), 1);
    venue.diff(btc, levels({{"26999.00", "0"}}), levels({{"27002.00", "1"}}));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).askLevels, 2, scaledMs(5000));
    BookStatus b = bookOf(engine, id, btc);
    QCOMPARE(b.bidLevels, 2); // 27000.50, 27000.10
    QVERIFY(b.timeToSyncMs >= 0);
    QCOMPARE(bookOf(engine, id, eth).askLevels, 3);
    QCOMPARE(engine.snapshot(id).books.size(), 2);

    // A real gap in BTCUSDT: its book resyncs from a new snapshot; ETHUSDT's goes on.
    venue.skip(btc, 3);
    venue.diff(btc, levels({{"27000.60", "2"}}), {});
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).resyncs, quint64(1), scaledMs(5000));
    QTRY_COMPARE_WITH_TIMEOUT(venue.snapshotRequests(btc), 2, scaledMs(10000));
    venue.diff(btc, {}, levels({{"27003.00", "1"}}));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    b = bookOf(engine, id, btc);
    QVERIFY2(b.lastResyncReason.startsWith(QLatin1String("gap")), qPrintable(b.lastResyncReason));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).askLevels, 3, scaledMs(5000));
    QCOMPARE(bookOf(engine, id, btc).bidLevels, 3);
    const BookStatus e = bookOf(engine, id, eth);
    QCOMPARE(e.state, BookState::Synced);
    QCOMPARE(e.resyncs, quint64(0));
    QCOMPARE(venue.snapshotRequests(eth), 1);
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0)); // the connection was not disturbed
}

void TestBooksLoopback::bookFalseKeepsNone()
{
    BookVenueServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    Engine engine;
    StreamConfig c = depthStream(venue, {btc});
    c.book = false;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
    for (int i = 0; i < 5; ++i)
        venue.diff(btc, levels({{"100.00", "1"}}), {});
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(5), scaledMs(10000));
    QTest::qWait(300); // a few of the worker's ticks, in which a book would ask for its snapshot
    QVERIFY(engine.snapshot(id).books.isEmpty());
    QCOMPARE(venue.snapshotRequests(btc), 0);
}

QTEST_GUILESS_MAIN(TestBooksLoopback)
#include "tst_booksloopback.moc"
