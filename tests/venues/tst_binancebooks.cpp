// Binance's order-book rules (engine/venues/binance/BinanceBookRules) kept by the engine's
// BookSync, fed recorded message sequences: spot's "U/u" and futures' "pu" chain, the snapshot
// against the buffered diffs, a real gap, an out-of-order first diff, a stale diff, a crossed
// book, a connection reset, and the audit against a REST snapshot. No network.
//
// Each sequence is written so that it fails without the rule it is named after: the book would
// end synced, or at other levels, where the rule makes it resync, refetch or ignore.

#include "../common/TestRegistry.h"
#include "LevelChanges.h"
#include "book/BookSync.h"
#include "book/FixedPoint.h"
#include "venues/binance/BinanceBookRules.h"

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;
using namespace streamscope::book;
using streamscope::binance::BinanceBookRules;

namespace {

// One recorded diff: U, u, pu and its levels as Binance writes them ("b"/"a": price, quantity).
struct Diff {
    std::int64_t U;
    std::int64_t u;
    std::int64_t pu;
    std::vector<std::pair<const char *, const char *>> bids;
    std::vector<std::pair<const char *, const char *>> asks;
};

void feed(BookSync &sync, const Diff &d)
{
    const std::vector<LevelChange> c = changes(d.bids, d.asks);
    sync.onDiff(DiffIds{d.U, d.u, d.pu}, c.data(), c.size());
}

// Asks for the snapshot as the keeper does and hands it over.
void snapshot(BookSync &sync, std::int64_t lastUpdateId, const std::vector<std::pair<const char *, const char *>> &bids,
              const std::vector<std::pair<const char *, const char *>> &asks, qint64 nowMs = 1000)
{
    QVERIFY(sync.wantsSnapshot(nowMs));
    sync.snapshotRequested(nowMs - 40);
    sync.onSnapshot(lastUpdateId, changes(bids, asks), nowMs);
}

// The book as "price:qty" lines, best first, for exact comparisons.
QStringList levels(const BookSync &sync, Side side)
{
    QStringList out;
    const OrderBook &b = sync.book();
    for (std::size_t r = 0; r < b.levels(side); ++r)
        out << QStringLiteral("%1:%2").arg(b.at(side, r).price).arg(b.at(side, r).qty);
    return out;
}

const std::vector<std::pair<const char *, const char *>> kSnapBids{
    {"100.00", "1.0"}, {"99.50", "2.0"}, {"99.00", "3.0"}};
const std::vector<std::pair<const char *, const char *>> kSnapAsks{{"100.50", "1.5"}, {"101.00", "2.5"}};

} // namespace

class TestBinanceBooks : public QObject {
    Q_OBJECT
private slots:
    void rules_data();
    void rules();
    void spotSyncsFromBufferedDiffs();
    void snapshotOlderThanFirstBufferedDiffIsFetchedAgain();
    void waitingBookKeepsItsLastDiffsOnly();
    void realGapResyncs();
    void staleDiffIsIgnored();
    void outOfOrderFirstDiffFailsTheSync_data();
    void outOfOrderFirstDiffFailsTheSync();
    void futuresFollowsThePuChain();
    void crossedBookIsFlaggedThenResynced();
    void connectionResetIsALegalRestart();
    void unreadableLevelResyncs();
    void auditMatches();
    void auditCatchesASilentCorruption();
    void auditCountsStaleLevels();
    void auditWaitsForABookBehindTheSnapshot();
    void snapshotUrls();
};

void TestBinanceBooks::rules_data()
{
    QTest::addColumn<bool>("futures");
    QTest::addColumn<QString>("check");
    QTest::addColumn<qint64>("U");
    QTest::addColumn<qint64>("u");
    QTest::addColumn<qint64>("pu");
    QTest::addColumn<qint64>("id");
    QTest::addColumn<QString>("expected");
    // spot
    QTest::newRow("spot: snapshot at the first U")
        << false << QStringLiteral("usable") << 100LL << 105LL << 0LL << 100LL << QStringLiteral("yes");
    QTest::newRow("spot: snapshot below the first U")
        << false << QStringLiteral("usable") << 100LL << 105LL << 0LL << 99LL << QStringLiteral("no");
    QTest::newRow("spot: u = lastUpdateId covered")
        << false << QStringLiteral("covered") << 100LL << 108LL << 0LL << 108LL << QStringLiteral("yes");
    QTest::newRow("spot: u past lastUpdateId")
        << false << QStringLiteral("covered") << 100LL << 109LL << 0LL << 108LL << QStringLiteral("no");
    QTest::newRow("spot: U = id + 1") << false << QStringLiteral("next") << 109LL << 112LL << 0LL << 108LL
                                      << QStringLiteral("apply");
    QTest::newRow("spot: U ≤ id < u") << false << QStringLiteral("next") << 105LL << 112LL << 0LL << 108LL
                                      << QStringLiteral("apply");
    QTest::newRow("spot: U = id + 2 is a gap")
        << false << QStringLiteral("next") << 110LL << 112LL << 0LL << 108LL << QStringLiteral("gap");
    QTest::newRow("spot: u < id ignored")
        << false << QStringLiteral("next") << 100LL << 107LL << 0LL << 108LL << QStringLiteral("ignore");
    QTest::newRow("spot: u = id applied again")
        << false << QStringLiteral("next") << 100LL << 108LL << 0LL << 108LL << QStringLiteral("apply");
    QTest::newRow("spot: id at INT64_MAX") << false << QStringLiteral("next") << 5LL << qint64(INT64_MAX) << 0LL
                                           << qint64(INT64_MAX) << QStringLiteral("apply");
    QTest::newRow("spot: no ids") << false << QStringLiteral("next") << qint64(INT64_MIN) << qint64(INT64_MIN) << 0LL
                                  << 108LL << QStringLiteral("gap");
    // futures
    QTest::newRow("futures: u = lastUpdateId not covered")
        << true << QStringLiteral("covered") << 100LL << 108LL << 0LL << 108LL << QStringLiteral("no");
    QTest::newRow("futures: u < lastUpdateId covered")
        << true << QStringLiteral("covered") << 100LL << 107LL << 0LL << 108LL << QStringLiteral("yes");
    QTest::newRow("futures: first straddles")
        << true << QStringLiteral("first") << 105LL << 110LL << 104LL << 108LL << QStringLiteral("apply");
    QTest::newRow("futures: first starts at it")
        << true << QStringLiteral("first") << 108LL << 110LL << 104LL << 108LL << QStringLiteral("apply");
    QTest::newRow("futures: first starts after")
        << true << QStringLiteral("first") << 109LL << 110LL << 108LL << 108LL << QStringLiteral("gap");
    QTest::newRow("futures: pu = previous u")
        << true << QStringLiteral("next") << 115LL << 120LL << 114LL << 114LL << QStringLiteral("apply");
    QTest::newRow("futures: pu ≠ previous u")
        << true << QStringLiteral("next") << 115LL << 120LL << 113LL << 114LL << QStringLiteral("gap");
}

void TestBinanceBooks::rules()
{
    QFETCH(bool, futures);
    QFETCH(QString, check);
    QFETCH(qint64, U);
    QFETCH(qint64, u);
    QFETCH(qint64, pu);
    QFETCH(qint64, id);
    QFETCH(QString, expected);
    const BinanceBookRules &r = futures ? BinanceBookRules::futures() : BinanceBookRules::spot();
    const DiffIds ids{U, u, pu};
    const auto name = [](DiffAction a) {
        return a == DiffAction::Apply ? QStringLiteral("apply")
            : a == DiffAction::Ignore ? QStringLiteral("ignore")
                                      : QStringLiteral("gap");
    };
    QString got;
    if (check == QLatin1String("usable"))
        got = r.snapshotUsable(id, ids) ? QStringLiteral("yes") : QStringLiteral("no");
    else if (check == QLatin1String("covered"))
        got = r.coveredBySnapshot(ids, id) ? QStringLiteral("yes") : QStringLiteral("no");
    else if (check == QLatin1String("first"))
        got = name(r.firstAfterSnapshot(ids, id));
    else
        got = name(r.next(ids, id));
    QCOMPARE(got, expected);
}

void TestBinanceBooks::spotSyncsFromBufferedDiffs()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    QCOMPARE(sync.state(), BookState::Syncing);
    QVERIFY(!sync.wantsSnapshot(0));                                  // nothing buffered yet: the first U is not known
    feed(sync, {100, 105, 0, {{"99.50", "9.0"}}, {}});                // covered by the snapshot: dropped
    feed(sync, {106, 110, 0, {{"99.00", "0"}}, {{"100.50", "1.6"}}}); // straddles 108: applied
    feed(sync, {111, 115, 0, {{"100.25", "0.5"}}, {}});
    snapshot(sync, 108, kSnapBids, kSnapAsks);
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(115));
    QCOMPARE(levels(sync, Side::Bid),
             QStringList({QStringLiteral("10025000000:50000000"), QStringLiteral("10000000000:100000000"),
                          QStringLiteral("9950000000:200000000")}));
    QCOMPARE(levels(sync, Side::Ask),
             QStringList({QStringLiteral("10050000000:160000000"), QStringLiteral("10100000000:250000000")}));
    QCOMPARE(sync.status().timeToSyncMs, qint64(40));
    QCOMPARE(sync.status().resyncs, quint64(0));
    QCOMPARE(sync.status().bidLevels, 3);
    feed(sync, {116, 116, 0, {}, {{"100.50", "0"}}});
    QCOMPARE(sync.updateId(), std::int64_t(116));
    QCOMPARE(sync.book().best(Side::Ask)->price, fx("101"));
}

void TestBinanceBooks::snapshotOlderThanFirstBufferedDiffIsFetchedAgain()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 105, 0, {{"99.50", "9.0"}}, {}});
    // Snapshot 95 predates U = 100: diffs 96..99 are in neither. Without the rule the book
    // would be synced on it.
    snapshot(sync, 95, kSnapBids, kSnapAsks, 1000);
    QCOMPARE(sync.state(), BookState::Syncing);
    QVERIFY(sync.status().lastResyncReason.contains(QLatin1String("older than the first buffered diff")));
    QCOMPARE(sync.book().levels(Side::Bid), std::size_t(0));
    QVERIFY(!sync.wantsSnapshot(1000)); // not at once: after the retry delay
    QVERIFY(sync.wantsSnapshot(1000 + BookSync::kRetryMinMs));
    feed(sync, {106, 106, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks, 1000 + BookSync::kRetryMinMs);
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(106));
    QCOMPARE(sync.status().resyncs, quint64(0));
}

void TestBinanceBooks::waitingBookKeepsItsLastDiffsOnly()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    // Many diffs before the snapshot is asked for (the stream's request weight is spent on
    // other instruments): only the last kMaxWaitingEvents are kept, enough for a snapshot
    // asked for now.
    for (std::int64_t u = 1; u <= 1000; ++u)
        feed(sync, {u, u, 0, {{"99.00", "1"}}, {}});
    QVERIFY(sync.wantsSnapshot(0));
    sync.snapshotRequested(0);
    feed(sync, {1001, 1001, 0, {{"99.25", "1"}}, {}});
    sync.onSnapshot(1000 - std::int64_t(BookSync::kMaxWaitingEvents) + 1, changes(kSnapBids, kSnapAsks), 100);
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(1001));
    QCOMPARE(sync.book().quantity(Side::Bid, fx("99.25")), fx("1"));
    // A snapshot older than the oldest diff kept is fetched again.
    BookSync late(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    for (std::int64_t u = 1; u <= 1000; ++u)
        feed(late, {u, u, 0, {}, {}});
    late.snapshotRequested(0);
    late.onSnapshot(1000 - std::int64_t(BookSync::kMaxWaitingEvents), changes(kSnapBids, kSnapAsks), 100);
    QCOMPARE(late.state(), BookState::Syncing);
}

void TestBinanceBooks::realGapResyncs()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks);
    QCOMPARE(sync.state(), BookState::Synced);
    feed(sync, {111, 115, 0, {}, {}});
    feed(sync, {118, 120, 0, {{"99.75", "1"}}, {}}); // 116, 117 never came
    QCOMPARE(sync.state(), BookState::Desynced);
    QCOMPARE(sync.status().resyncs, quint64(1));
    QVERIFY2(sync.status().lastResyncReason.contains(QLatin1String("gap")), qPrintable(sync.status().lastResyncReason));
    QCOMPARE(sync.book().levels(Side::Bid), std::size_t(0)); // a wrong book is not shown
    // The diff after the gap starts the new sync's buffer: a new snapshot, and synced again.
    QVERIFY(sync.wantsSnapshot(2000));
    sync.snapshotRequested(2000);
    QCOMPARE(sync.state(), BookState::Resyncing);
    feed(sync, {121, 122, 0, {}, {}});
    sync.onSnapshot(119, changes(kSnapBids, kSnapAsks), 2100);
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(122));
    QCOMPARE(sync.book().quantity(Side::Bid, fx("99.75")), fx("1"));
    QCOMPARE(sync.status().timeToSyncMs, qint64(100));
}

void TestBinanceBooks::staleDiffIsIgnored()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks);
    feed(sync, {111, 115, 0, {{"100.00", "4.0"}}, {}});
    // A diff from before the book's id (u 108 < 115), such as a late copy: applying it would
    // put back the old quantity of 100.00.
    feed(sync, {106, 108, 0, {{"100.00", "1.0"}}, {}});
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(115));
    QCOMPARE(sync.book().quantity(Side::Bid, fx("100.00")), fx("4.0"));
    QCOMPARE(sync.status().resyncs, quint64(0));
}

void TestBinanceBooks::outOfOrderFirstDiffFailsTheSync_data()
{
    QTest::addColumn<bool>("futures");
    QTest::newRow("spot") << false;
    QTest::newRow("futures") << true;
}

void TestBinanceBooks::outOfOrderFirstDiffFailsTheSync()
{
    QFETCH(bool, futures);
    BookSync sync(futures ? BinanceBookRules::futures() : BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 105, 99, {}, {}});
    // 106..110 comes after 111..115: the first diff after snapshot 108 must hold 108 (futures)
    // or 109 (spot); 111..115 does not.
    feed(sync, {111, 115, 110, {{"99.75", "1"}}, {}});
    feed(sync, {106, 110, 105, {}, {}});
    snapshot(sync, 108, kSnapBids, kSnapAsks);
    QVERIFY(sync.state() != BookState::Synced);
    QVERIFY2(sync.status().lastResyncReason.contains(QLatin1String("do not continue")),
             qPrintable(sync.status().lastResyncReason));
    QCOMPARE(sync.book().levels(Side::Bid), std::size_t(0));
    // It starts over from the next diff.
    feed(sync, {116, 118, 115, {}, {}});
    QVERIFY(sync.wantsSnapshot(1000));
}

void TestBinanceBooks::futuresFollowsThePuChain()
{
    BookSync sync(BinanceBookRules::futures(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 105, 99, {}, {}});
    feed(sync, {106, 110, 105, {{"99.75", "1"}}, {}});
    snapshot(sync, 108, kSnapBids, kSnapAsks);
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(110));
    QCOMPARE(sync.book().quantity(Side::Bid, fx("99.75")), fx("1"));
    // Futures ids are not consecutive: U need not be u + 1, only pu = the previous u.
    feed(sync, {140, 150, 110, {}, {}});
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(150));
    feed(sync, {160, 170, 155, {}, {}}); // pu 155: something after 150 was missed
    QCOMPARE(sync.state(), BookState::Desynced);
    QVERIFY(sync.status().lastResyncReason.contains(QLatin1String("previous was 155")));
}

void TestBinanceBooks::crossedBookIsFlaggedThenResynced()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks);
    feed(sync, {111, 111, 0, {{"100.75", "1"}}, {}}); // a bid above the best ask (100.50)
    QCOMPARE(sync.state(), BookState::Crossed);
    QCOMPARE(sync.status().crossedEpisodes, quint64(1));
    feed(sync, {112, 112, 0, {{"100.75", "0"}}, {}});
    QCOMPARE(sync.state(), BookState::Synced);
    feed(sync, {113, 113, 0, {}, {{"99.50", "1"}}}); // an ask at the best bid: locked counts
    QCOMPARE(sync.state(), BookState::Crossed);
    QCOMPARE(sync.status().crossedEpisodes, quint64(2));
    sync.tick(5000);
    QCOMPARE(sync.state(), BookState::Crossed);
    sync.tick(5000 + BookSync::kCrossedResyncMs);
    QCOMPARE(sync.state(), BookState::Desynced);
    QCOMPARE(sync.status().resyncs, quint64(1));
    QVERIFY2(sync.status().lastResyncReason.startsWith(QStringLiteral("crossed for 1 s: best bid 100 ≥ best ask 99.5")),
             qPrintable(sync.status().lastResyncReason));
}

void TestBinanceBooks::connectionResetIsALegalRestart()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {1000, 1010, 0, {}, {}});
    snapshot(sync, 1005, kSnapBids, kSnapAsks);
    QCOMPARE(sync.updateId(), std::int64_t(1010));
    // The connection went; the new one's diffs follow a new snapshot. Without the reset the
    // book would go on at id 1010 and take 1011..1012 as the next diff, on top of levels that
    // missed what happened while disconnected.
    sync.reset();
    QCOMPARE(sync.state(), BookState::Syncing);
    QCOMPARE(sync.book().levels(Side::Bid), std::size_t(0));
    feed(sync, {1011, 1012, 0, {}, {}});
    feed(sync, {1900, 1910, 0, {{"98.00", "7"}}, {}});
    snapshot(sync, 1899, {{"98.50", "1"}}, {{"102.00", "1"}}, 9000);
    QCOMPARE(sync.state(), BookState::Synced);
    QCOMPARE(sync.updateId(), std::int64_t(1910));
    QCOMPARE(levels(sync, Side::Bid),
             QStringList({QStringLiteral("9850000000:100000000"), QStringLiteral("9800000000:700000000")}));
    QCOMPARE(sync.status().resyncs, quint64(0)); // not a desync
}

void TestBinanceBooks::unreadableLevelResyncs()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks);
    sync.onUnreadableDiff(QStringLiteral("price \"1e5\" is not an exact decimal"));
    QCOMPARE(sync.state(), BookState::Desynced);
    QCOMPARE(sync.status().lastResyncReason, QStringLiteral("price \"1e5\" is not an exact decimal"));
}

void TestBinanceBooks::auditMatches()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks);
    QVERIFY(!sync.auditDue(60999, 60000)); // one period after the first sync (at 1000)
    QVERIFY(sync.auditDue(61000, 60000));
    sync.auditRequested(5000);
    QVERIFY(!sync.auditDue(5000, 60000));
    feed(sync, {111, 112, 0, {{"99.75", "1"}}, {}});
    feed(sync, {113, 115, 0, {}, {{"101.00", "0"}}});
    // The venue's snapshot at 112, then 113..115 applied to it: the book at 115 on both sides.
    sync.onAuditSnapshot(112,
                         changes({{"100.00", "1.0"}, {"99.75", "1"}, {"99.50", "2.0"}, {"99.00", "3.0"}},
                                 {{"100.50", "1.5"}, {"101.00", "2.5"}}));
    QVERIFY(!sync.auditing());
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.auditMismatches, quint64(0));
    QCOMPARE(s.lastAuditMatchRatio, 1.0);
    QCOMPARE(s.minAuditMatchRatio, 1.0);
    QCOMPARE(s.staleLevels, qint64(0));
    QCOMPARE(sync.state(), BookState::Synced);
    QVERIFY(!sync.auditDue(64999, 60000));
    QVERIFY(sync.auditDue(65000, 60000));
}

void TestBinanceBooks::auditCatchesASilentCorruption()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks);
    // A level corrupted on its way, with every update id in order: no gap to see.
    feed(sync, {111, 111, 0, {{"99.50", "7.0"}}, {}});
    QCOMPARE(sync.state(), BookState::Synced);
    sync.auditRequested(5000);
    feed(sync, {112, 112, 0, {}, {}});
    sync.onAuditSnapshot(112, changes(kSnapBids, kSnapAsks)); // the venue still has 99.50 at 2.0
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.auditMismatches, quint64(1));
    QCOMPARE(s.lastAuditMatchRatio, 4.0 / 5.0); // 5 levels compared, 99.50 differs
    QCOMPARE(s.staleLevels, qint64(0));
    QCOMPARE(sync.state(), BookState::Desynced);
    QCOMPARE(s.resyncs, quint64(1));
    QVERIFY2(s.lastResyncReason.startsWith(QLatin1String("audit at update 112: 80 % of the top 20")),
             qPrintable(s.lastResyncReason));
}

void TestBinanceBooks::auditCountsStaleLevels()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    std::vector<std::pair<const char *, const char *>> deepBids;
    std::vector<QByteArray> texts;
    for (int i = 0; i < 30; ++i)
        texts.push_back(QByteArray::number(100 - i) + ".00");
    for (const QByteArray &t : texts)
        deepBids.push_back({t.constData(), "1"});
    snapshot(sync, 105, deepBids, kSnapAsks);
    sync.auditRequested(5000);
    // The venue dropped 75.00 (rank 25: beyond the top 20) without a diff that says so; 70.00
    // is beyond the snapshot's depth and is not judged.
    std::vector<std::pair<const char *, const char *>> venueBids = deepBids;
    venueBids.erase(venueBids.begin() + 25);
    feed(sync, {111, 111, 0, {{"70.00", "1"}}, {}});
    sync.onAuditSnapshot(110, changes(venueBids, kSnapAsks));
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.lastAuditMatchRatio, 1.0); // the top 20 a side agree
    QCOMPARE(s.staleLevels, qint64(1));
    QCOMPARE(s.auditMismatches, quint64(1));
    QCOMPARE(sync.state(), BookState::Desynced);
}

void TestBinanceBooks::auditWaitsForABookBehindTheSnapshot()
{
    BookSync sync(BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
    feed(sync, {100, 110, 0, {}, {}});
    snapshot(sync, 105, kSnapBids, kSnapAsks);
    sync.auditRequested(5000);
    // REST answered with update 114 while the stream is at 110: compared when the book gets there.
    sync.onAuditSnapshot(114, changes(kSnapBids, {{"100.50", "1.5"}}));
    QVERIFY(sync.auditing());
    QCOMPARE(sync.status().audits, quint64(0));
    feed(sync, {111, 112, 0, {}, {}});
    QVERIFY(sync.auditing());
    feed(sync, {113, 116, 0, {}, {{"101.00", "0"}}});
    QVERIFY(!sync.auditing());
    QCOMPARE(sync.status().audits, quint64(1));
    QCOMPARE(sync.status().lastAuditMatchRatio, 1.0);
    QCOMPARE(sync.state(), BookState::Synced);
}

void TestBinanceBooks::snapshotUrls()
{
    QUrl base(QStringLiteral("http://127.0.0.1:8080/prefix/"));
    QCOMPARE(BinanceBookRules::spot().snapshotUrl(base, QStringLiteral("BTCUSDT")).toString(),
             QStringLiteral("http://127.0.0.1:8080/prefix/api/v3/depth?symbol=BTCUSDT&limit=5000"));
    QCOMPARE(BinanceBookRules::futures().snapshotUrl(base, QStringLiteral("BTCUSDT")).toString(),
             QStringLiteral("http://127.0.0.1:8080/prefix/fapi/v1/depth?symbol=BTCUSDT&limit=1000"));
    QCOMPARE(BinanceBookRules::spot().defaultRestBase(QUrl(QStringLiteral("wss://stream.binance.com:9443/ws"))),
             QUrl(QStringLiteral("https://api.binance.com")));
    QCOMPARE(BinanceBookRules::futures().defaultRestBase(QUrl(QStringLiteral("wss://fstream.binance.com/stream"))),
             QUrl(QStringLiteral("https://fapi.binance.com")));
    QCOMPARE(BinanceBookRules::spot().defaultRestBase(QUrl(QStringLiteral("ws://127.0.0.1:9000/ws"))),
             QUrl(QStringLiteral("http://127.0.0.1:9000")));
    // The stream's rest_url comes first, for snapshots and the server time alike.
    StreamConfig c;
    c.url = QUrl(QStringLiteral("wss://stream.binance.com:9443/ws/btcusdt@depth"));
    QCOMPARE(binance::restBase(c), QUrl(QStringLiteral("https://api.binance.com")));
    c.restUrl = QUrl(QStringLiteral("http://127.0.0.1:8080/binance"));
    QCOMPARE(binance::restBase(c), c.restUrl);
    QCOMPARE(binance::restUrl(binance::restBase(c), QStringLiteral("/api/v3/time")),
             QUrl(QStringLiteral("http://127.0.0.1:8080/binance/api/v3/time")));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBinanceBooks)
#include "tst_binancebooks.moc"
