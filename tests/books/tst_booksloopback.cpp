// Order books end to end (docs/books.md): the real engine against a Binance-like venue written
// in the test (BookVenueServer.h: its depth stream over a websocket and its REST snapshot over
// HTTP, both on 127.0.0.1). A book per instrument of a combined stream, synced from the
// snapshot; a real gap in one instrument resyncs it alone; "book": false, and a futures stream
// that names a partial depth stream, keep none. With the
// alert service of headless mode: a level corrupted silently (every update id in order) is
// caught by the audit (match below 100 %, book_desync raised, then cleared once a resync set
// the book right), and a crossed book raises book_crossed; both count in alerts_raised and
// show in the report's books list.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "BookTestSupport.h"
#include "BookVenueServer.h"

#include "AlertMonitor.h"
#include "AlertService.h"
#include "Engine.h"
#include "Report.h"
#include "StreamSnapshot.h"
#include "Workspace.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QTimer>

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

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

QJsonObject reportedBook(const QJsonObject &report, const QString &instrument)
{
    for (const QJsonValue &b :
         report.value(QStringLiteral("streams")).toArray().at(0).toObject().value(QStringLiteral("books")).toArray())
        if (b.toObject().value(QStringLiteral("instrument")).toString() == instrument)
            return b.toObject();
    return {};
}

} // namespace

class TestBooksLoopback : public QObject {
    Q_OBJECT
private slots:
    void bookPerInstrumentAndAGapResyncsOnlyItsOwn();
    void noBooks_data();
    void noBooks();
    void tooManyRequestsPauses();
    void auditCatchesASilentCorruption();
    void crossedBookIsFlagged();
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

void TestBooksLoopback::noBooks_data()
{
    QTest::addColumn<bool>("bookOff");
    QTest::addColumn<bool>("futuresPartial");
    QTest::newRow("book false") << true << false;
    // USD-M futures' partial depth events are "depthUpdate" too, with ids that skip.
    QTest::newRow("futures partial depth") << false << true;
}

void TestBooksLoopback::noBooks()
{
    QFETCH(bool, bookOff);
    QFETCH(bool, futuresPartial);
    BookVenueServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    Engine engine;
    StreamConfig c = depthStream(venue, {btc});
    c.book = !bookOff;
    if (futuresPartial) {
        c.futures = true;
        c.url = QUrl(c.url.toString().replace(QStringLiteral("@depth@100ms"), QStringLiteral("@depth20@100ms")));
    }
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
    for (int i = 0; i < 5; ++i)
        venue.diff(btc, levels({{"100.00", "1"}}), {});
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(5), scaledMs(10000));
    QTest::qWait(300); // a few of the worker's ticks, in which a book would ask for its snapshot
    QVERIFY(engine.snapshot(id).books.isEmpty());
    QCOMPARE(venue.snapshotRequests(btc), 0);
}

void TestBooksLoopback::tooManyRequestsPauses()
{
    BookVenueServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    venue.refuseNext(1, 1);
    Engine engine;
    const StreamId id = engine.addStream(depthStream(venue, {btc}));
    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
    venue.diff(btc, levels({{"100.00", "1"}}), levels({{"101.00", "1"}}));
    QTRY_COMPARE_WITH_TIMEOUT(venue.snapshotRequests(btc), 1, scaledMs(10000));
    QTRY_VERIFY_WITH_TIMEOUT(
        bookOf(engine, id, btc).lastResyncReason.startsWith(QLatin1String("snapshot: HTTP status 429")),
        scaledMs(10000));
    QCOMPARE(bookOf(engine, id, btc).state, BookState::Syncing);
    // After the Retry-After second the snapshot is asked again, and the book syncs.
    venue.diff(btc, levels({{"99.00", "1"}}), {});
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(15000));
    QCOMPARE(venue.snapshotRequests(btc), 2);
    QCOMPARE(bookOf(engine, id, btc).bidLevels, 2);
}

void TestBooksLoopback::auditCatchesASilentCorruption()
{
    using Condition = alerts::AlertMonitor::Condition;
    BookVenueServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    venue.diff(btc, levels({{"100.00", "1"}, {"99.00", "2"}, {"98.00", "3"}}),
               levels({{"101.00", "1"}, {"102.00", "2"}}));
    Engine engine;
    BookAlerts alerts(engine, {QStringLiteral("book_desync"), QStringLiteral("book_crossed")});
    StreamConfig c = depthStream(venue, {btc});
    c.bookAuditS = 1;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
    venue.diff(btc, levels({{"99.50", "1"}}), {});
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    // A first audit of a right book: a full match.
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, btc).audits >= 1, scaledMs(10000));
    BookStatus b = bookOf(engine, id, btc);
    QCOMPARE(b.lastAuditMatchRatio, 1.0);
    QCOMPARE(b.auditMismatches, quint64(0));
    QCOMPARE(b.resyncs, quint64(0));
    QCOMPARE(alerts.raised(Condition::BookDesync), 0);

    // 99.00 goes to 5 at the venue, but 7 reaches the book; every update id is in order.
    venue.corrupt(btc, levels({{"99.00", "5"}}), levels({{"99.00", "7"}}));
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, btc).auditMismatches >= 1, scaledMs(10000));
    b = bookOf(engine, id, btc);
    QVERIFY2(b.minAuditMatchRatio < 1.0, qPrintable(QString::number(b.minAuditMatchRatio)));
    QCOMPARE(b.minAuditMatchRatio, 5.0 / 6.0); // 4 bids and 2 asks compared, one differs
    QVERIFY(b.resyncs >= 1);
    QVERIFY2(b.lastResyncReason.startsWith(QLatin1String("audit at update")), qPrintable(b.lastResyncReason));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.raised(Condition::BookDesync), 1, scaledMs(10000));
    // The resync: the next diff restarts the sync, the snapshot sets the book right, the next
    // audit matches, and the episode ends.
    venue.diff(btc, {}, levels({{"103.00", "1"}}));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    const quint64 audits = bookOf(engine, id, btc).audits;
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, btc).audits > audits, scaledMs(10000));
    b = bookOf(engine, id, btc);
    QCOMPARE(b.lastAuditMatchRatio, 1.0);
    QCOMPARE(b.staleLevels, qint64(0));
    QCOMPARE(b.state, BookState::Synced);
    QTRY_COMPARE_WITH_TIMEOUT(alerts.cleared(Condition::BookDesync), 1,
                              scaledMs(int(alerts::AlertMonitor::kGapHoldMs) + 10000));
    QCOMPARE(alerts.raised(Condition::BookDesync), 1);

    const QJsonObject report = alerts.report();
    const QJsonObject stream = report.value(QStringLiteral("streams")).toArray().at(0).toObject();
    QVERIFY(stream.value(QStringLiteral("alerts_raised")).toInteger() >= 1);
    const QJsonObject r = reportedBook(report, btc);
    QCOMPARE(r.value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
    QVERIFY(r.value(QStringLiteral("audit_mismatches")).toInteger() >= 1);
    QCOMPARE(r.value(QStringLiteral("min_audit_match_ratio")).toDouble(), 0.8333);
    QCOMPARE(r.value(QStringLiteral("last_audit_match_ratio")).toDouble(), 1.0);
    QCOMPARE(r.value(QStringLiteral("bid_levels")).toInt(), 4);
    QCOMPARE(r.value(QStringLiteral("ask_levels")).toInt(), 3);
    QStringList keys = r.keys();
    keys.sort();
    QCOMPARE(keys,
             QStringList({QStringLiteral("ask_levels"), QStringLiteral("audit_mismatches"), QStringLiteral("audits"),
                          QStringLiteral("bid_levels"), QStringLiteral("checksum_failures"),
                          QStringLiteral("crossed_episodes"), QStringLiteral("instrument"),
                          QStringLiteral("last_audit_match_ratio"), QStringLiteral("last_resync_reason"),
                          QStringLiteral("min_audit_match_ratio"), QStringLiteral("resyncs"),
                          QStringLiteral("stale_levels"), QStringLiteral("state"), QStringLiteral("time_to_sync_ms")}));
}

void TestBooksLoopback::crossedBookIsFlagged()
{
    using Condition = alerts::AlertMonitor::Condition;
    BookVenueServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    venue.diff(btc, levels({{"100.00", "1"}}), levels({{"101.00", "1"}}));
    Engine engine;
    BookAlerts alerts(engine, {QStringLiteral("book_desync"), QStringLiteral("book_crossed")});
    const StreamId id = engine.addStream(depthStream(venue, {btc}));
    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
    venue.diff(btc, levels({{"99.00", "1"}}), {});
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    // A bid above the best ask, in order: the venue's own book is crossed.
    venue.diff(btc, levels({{"101.50", "1"}}), {});
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).crossedEpisodes, quint64(1), scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.raised(Condition::BookCrossed), 1, scaledMs(10000));
    // Crossed for a second: resynced; the venue's snapshot is crossed as well, so it crosses again.
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, btc).resyncs >= 1, scaledMs(10000));
    QVERIFY2(bookOf(engine, id, btc)
                 .lastResyncReason.startsWith(QStringLiteral("crossed for 1 s: best bid 101.5 ≥ best ask 101")),
             qPrintable(bookOf(engine, id, btc).lastResyncReason));
    QTRY_VERIFY_WITH_TIMEOUT(alerts.raised(Condition::BookDesync) >= 1, scaledMs(10000));
    const QJsonObject r = reportedBook(alerts.report(), btc);
    QVERIFY(r.value(QStringLiteral("crossed_episodes")).toInteger() >= 1);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBooksLoopback)
#include "tst_booksloopback.moc"
