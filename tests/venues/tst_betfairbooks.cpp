// Betfair's price ladders as order books (engine/venues/betfair/BetfairBookRules,
// engine/session/BookLadders, docs/books.md "Betfair's rules") through a stream session without
// sockets (StreamBooksRig.h): market change messages written as Betfair sends them. An image
// then deltas, a level removed, a market image (img) replacing one market's ladders, a market
// version that goes back (the books resync by a fresh market subscription), the same market twice
// in one image, a crossed ladder, a delta for a market with no image yet, a segmented image
// (whole at SEG_END) and one cut short, the best-offers ladder's places, the handicap in the
// name, a size that is not an exact decimal, the ladders kept over a reconnect, no allocation
// per delta once the ladders are loaded. Every sequence fails without the rule it is named after.

#include "../common/TestRegistry.h"
#include "StreamBooksRig.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

#include <atomic>
#include <cstdlib>
#include <new>

// A thread sanitizer's runtime brings its own operator new, which clang's links statically:
// there the count is left to the other builds (ci, asan).
#if defined(__SANITIZE_THREAD__)
#define STREAMSCOPE_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STREAMSCOPE_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef STREAMSCOPE_COUNTS_ALLOCATIONS
#define STREAMSCOPE_COUNTS_ALLOCATIONS 1
#endif

// Allocations on the test's thread while counting (steadyStateDoesNotAllocate).
namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
} // namespace

#if STREAMSCOPE_COUNTS_ALLOCATIONS
void *operator new(std::size_t size)
{
    if (g_counting.load(std::memory_order_relaxed))
        g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void *p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}
// Every other form too, so that nothing allocated here is freed by another allocator (the
// standard library's temporary buffers use the nothrow form; ASan checks the pairs).
void *operator new(std::size_t size, const std::nothrow_t &) noexcept
{
    if (g_counting.load(std::memory_order_relaxed))
        g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
void *operator new[](std::size_t size)
{
    return ::operator new(size);
}
void *operator new[](std::size_t size, const std::nothrow_t &tag) noexcept
{
    return ::operator new(size, tag);
}
void operator delete(void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
void operator delete[](void *p) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
#endif

using namespace streamscope;
using namespace streamscope::testing;
using book::Side;

namespace {

constexpr const char *kRunner = "1.23456789/47972";
constexpr const char *kOther = "1.23456789/47973";

StreamConfig betfairConfig(const char *fields)
{
    StreamConfig c;
    c.name = QStringLiteral("ladders");
    c.venue = Venue("betfair");
    c.url = QUrl(QStringLiteral("tls://127.0.0.1:1"));
    c.appKey = QStringLiteral("env:STREAMSCOPE_LADDERS_APP_KEY");
    c.session = QStringLiteral("env:STREAMSCOPE_LADDERS_SESSION");
    QJsonObject subscription{{QStringLiteral("marketFilter"),
                              QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.23456789")}}}}};
    if (fields)
        subscription.insert(QStringLiteral("marketDataFilter"),
                            QJsonObject{{QStringLiteral("fields"), QJsonArray{QLatin1String(fields)}}});
    c.marketSubscription = subscription;
    return c;
}

struct BetfairRig : StreamBooksRig {
    explicit BetfairRig(const char *fields = "EX_ALL_OFFERS")
        : StreamBooksRig(betfairConfig(fields))
    {
        rig.transportsPing = false; // line connections
        rig.last()->pingable = false;
        takeSent(); // authentication, subscription
    }
    // A market change message: `head` (e.g. "\"ct\":\"SUB_IMAGE\",") before its markets `mc`.
    void mcm(const char *head, const QByteArray &mc) { send(text(head, mc)); }
    QByteArray text(const char *head, const QByteArray &mc)
    {
        pt += 100;
        return QStringLiteral(R"({"op":"mcm","id":2,"clk":"AAAA%1","pt":%1,%2"mc":[%3]})")
            .arg(pt)
            .arg(QLatin1String(head), QString::fromUtf8(mc))
            .toUtf8();
    }
    // Sent since the last call: market subscriptions only.
    QStringList subscriptions()
    {
        QStringList out;
        for (const QString &s : takeSent())
            if (s.contains(QLatin1String("\"marketSubscription\"")))
                out << s;
        return out;
    }
    std::int64_t pt = 1'780'000'000'000;
};

// The market 1.23456789 with two runners, full ladders, at `version`.
QByteArray image(int version)
{
    return QStringLiteral(R"({"id":"1.23456789","img":true,"marketDefinition":{"status":"OPEN","version":%1},)"
                          R"("rc":[{"id":47972,"atb":[[2.5,120.0],[2.48,50]],"atl":[[2.52,80.5],[2.54,10]]},)"
                          R"({"id":47973,"atb":[[4.1,5]],"atl":[[4.2,7.25]]}]})")
        .arg(version)
        .toUtf8();
}

} // namespace

class TestBetfairBooks : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("STREAMSCOPE_LADDERS_APP_KEY", "ladders-app-key");
        qputenv("STREAMSCOPE_LADDERS_SESSION", "ladders-session");
    }

    // SUB_IMAGE loads every runner's ladder: back is the bid side, lay the ask side.
    void imageThenDeltas()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        QCOMPARE(r.state(kRunner), BookState::Synced);
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:120", "2.48:50"}));
        QCOMPARE(r.levels(kRunner, Side::Ask), texts({"2.52:80.5", "2.54:10"}));
        QCOMPARE(r.levels(kOther, Side::Ask), texts({"4.2:7.25"}));
        // A delta sets sizes, adds levels; the other runner is untouched.
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.48,75.25],[2.46,3]],"ltp":2.5}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:120", "2.48:75.25", "2.46:3"}));
        QCOMPARE(r.levels(kOther, Side::Bid), texts({"4.1:5"}));
        const BookStatus s = r.status(kRunner);
        QCOMPARE(s.state, BookState::Synced);
        QCOMPARE(s.bidLevels, 3);
        QCOMPARE(s.askLevels, 2);
        QCOMPARE(s.resyncs, quint64(0));
        QCOMPARE(r.sync(kRunner)->updateId(), r.pt); // the publish time of its last change
    }

    // Size 0 removes the level.
    void levelRemoval()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.5,0]],"atl":[[2.54,0.0]]}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.48:50"}));
        QCOMPARE(r.levels(kRunner, Side::Ask), texts({"2.52:80.5"}));
        QCOMPARE(r.state(kRunner), BookState::Synced);
    }

    // img=true in a delta replaces that market's ladders; its runners not in it are empty. A
    // legal reset: no resync.
    void marketImageReplaces()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        r.mcm("", R"({"id":"1.23456789","img":true,"rc":[{"id":47972,"atb":[[3.0,1]]}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"3:1"}));
        QCOMPARE(r.levels(kRunner, Side::Ask), QStringList());
        QCOMPARE(r.levels(kOther, Side::Bid), QStringList());
        QCOMPARE(r.state(kOther), BookState::Synced);
        QCOMPARE(r.status(kRunner).resyncs, quint64(0));
    }

    // A market version that goes back breaks the market's books: desynced, the market
    // subscription sent again without clk, and the image it brings syncs them again.
    void versionGoingBackResyncs()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)", image(5));
        r.mcm("", R"({"id":"1.23456789","marketDefinition":{"version":6},"rc":[{"id":47972,"atb":[[2.4,1]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Synced);
        r.mcm("", R"({"id":"1.23456789","marketDefinition":{"version":4},"rc":[{"id":47972,"atb":[[2.3,1]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Desynced);
        QCOMPARE(r.state(kOther), BookState::Desynced);
        QCOMPARE(r.levels(kRunner, Side::Bid), QStringList());
        // Deltas wait for the image.
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.2,1]]}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), QStringList());
        const BookStatus s = r.status(kRunner); // a tick: the books ask for a new image
        QCOMPARE(s.resyncs, quint64(1));
        QCOMPARE(s.lastResyncReason, QStringLiteral("market 1.23456789: version 4 after 6"));
        QCOMPARE(s.state, BookState::Resyncing);
        const QStringList sent = r.subscriptions();
        QCOMPARE(sent.size(), 1); // one for both runners
        QVERIFY2(!sent.at(0).contains(QLatin1String("clk")), qPrintable(sent.at(0)));
        r.mcm(R"("ct":"SUB_IMAGE",)", image(4)); // a new subscription's image: its version stands
        QCOMPARE(r.state(kRunner), BookState::Synced);
        QCOMPARE(r.state(kOther), BookState::Synced);
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:120", "2.48:50"}));
        QCOMPARE(r.status(kRunner).resyncs, quint64(1));
    }

    // The same market twice in one image (moved to a new event): the higher version stays,
    // whichever comes first.
    void sameMarketTwiceInOneImage()
    {
        const char *older = R"({"id":"1.23456789","marketDefinition":{"version":6},"rc":[{"id":47972,"atb":[[1.5,1]]},)"
                            R"({"id":47973,"atb":[[1.6,1]]}]})";
        const char *newer =
            R"({"id":"1.23456789","marketDefinition":{"version":7},"rc":[{"id":47972,"atb":[[2.5,2]]}]})";
        for (bool newerFirst : {true, false}) {
            BetfairRig r;
            const QByteArray mc = newerFirst ? QByteArray(newer) + ',' + older : QByteArray(older) + ',' + newer;
            r.mcm(R"("ct":"SUB_IMAGE",)", mc);
            QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:2"}));
            QCOMPARE(r.levels(kOther, Side::Bid), QStringList());
            QCOMPARE(r.status(kRunner).resyncs, quint64(0));
            QCOMPARE(r.state(kRunner), BookState::Synced);
        }
    }

    // Best back at or above best lay: crossed, once per episode.
    void crossedLadder()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.52,4]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Crossed);
        QCOMPARE(r.state(kOther), BookState::Synced);
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.52,0]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Synced);
        QCOMPARE(r.status(kRunner).crossedEpisodes, quint64(1));
    }

    // A delta of a market that has had no image is dropped: its books wait, syncing.
    void deltaBeforeImage()
    {
        BetfairRig r;
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.5,1]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Syncing);
        QCOMPARE(r.levels(kRunner, Side::Bid), QStringList());
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        QCOMPARE(r.state(kRunner), BookState::Synced);
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:120", "2.48:50"}));
        QCOMPARE(r.status(kRunner).resyncs, quint64(0));
    }

    // A segmented image is applied whole at SEG_END; until then the books wait.
    void segmentedImage()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE","segmentType":"SEG_START",)",
              R"({"id":"1.23456789","img":true,"rc":[{"id":47972,"atb":[[2.5,1]]}]})");
        r.mcm(R"("ct":"SUB_IMAGE","segmentType":"SEG",)", R"({"id":"1.2","img":true,"rc":[{"id":7,"atl":[[9,1]]}]})");
        QVERIFY(r.state(kRunner) != BookState::Synced);
        QCOMPARE(r.levels(kRunner, Side::Bid), QStringList());
        r.mcm(R"("ct":"SUB_IMAGE","segmentType":"SEG_END",)",
              R"({"id":"1.3","img":true,"rc":[{"id":8,"atb":[[3,2]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Synced);
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:1"}));
        QCOMPARE(r.levels("1.2/7", Side::Ask), texts({"9:1"}));
        QCOMPARE(r.levels("1.3/8", Side::Bid), texts({"3:2"}));
        QCOMPARE(r.status(kRunner).resyncs, quint64(0));
    }

    // A segmented image cut short (a plain delta before SEG_END) breaks the books it carried:
    // they ask for a new image.
    void segmentedImageCutShort()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE","segmentType":"SEG_START",)",
              R"({"id":"1.23456789","img":true,"rc":[{"id":47972,"atb":[[2.5,1]]}]})");
        r.mcm("", R"({"id":"1.2","rc":[{"id":7,"atl":[[9,1]]}]})");
        const BookStatus s = r.status(kRunner);
        QCOMPARE(s.resyncs, quint64(1));
        QCOMPARE(s.lastResyncReason, QStringLiteral("a segmented image ended without its last segment"));
        QCOMPARE(r.subscriptions().size(), 1);
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        QCOMPARE(r.state(kRunner), BookState::Synced);
    }

    // EX_BEST_OFFERS: places [position, price, size]; a place set again moves its level, size 0
    // empties it.
    void bestOffersPlaces()
    {
        BetfairRig r("EX_BEST_OFFERS");
        r.mcm(R"("ct":"SUB_IMAGE",)",
              R"({"id":"1.23456789","img":true,"rc":[{"id":47972,"batb":[[0,2.5,120.0],[1,2.48,50]],)"
              R"("batl":[[0,2.52,80]]}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:120", "2.48:50"}));
        // The best back moves up a tick: both places change, in either order.
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"batb":[[1,2.5,120],[0,2.51,30]]}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.51:30", "2.5:120"}));
        QCOMPARE(r.levels(kRunner, Side::Ask), texts({"2.52:80"}));
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"batb":[[1,2.5,0]]}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.51:30"}));
        // Full-ladder keys are not this subscription's ladder.
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[1.01,5]]}]})");
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.51:30"}));
        QCOMPARE(r.state(kRunner), BookState::Synced);
    }

    // A non-zero handicap names its own book; a zero one does not.
    void handicapInTheName()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)",
              R"({"id":"1.5","img":true,"rc":[{"id":10,"hc":-1.5,"atb":[[1.9,2]]},)"
              R"({"id":10,"hc":1.5,"atb":[[2.1,3]]},{"id":11,"hc":0.0,"atb":[[3,4]]}]})");
        QCOMPARE(r.levels("1.5/10/-1.5", Side::Bid), texts({"1.9:2"}));
        QCOMPARE(r.levels("1.5/10/1.5", Side::Bid), texts({"2.1:3"}));
        QCOMPARE(r.levels("1.5/11", Side::Bid), texts({"3:4"}));
    }

    // A size written with an exponent is not an exact decimal: that runner's book cannot follow.
    void inexactSizeResyncs()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        r.mcm("", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.5,1e3]]},{"id":47973,"atb":[[4.0,1]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Desynced);
        QCOMPARE(r.status(kRunner).lastResyncReason,
                 QStringLiteral("a size that is not an exact decimal of at most 8 places: \"1e3\""));
        QCOMPARE(r.levels(kOther, Side::Bid), texts({"4.1:5", "4:1"}));
    }

    // The connection going keeps the ladders: the venue resumes them (RESUB_DELTA).
    void reconnectKeepsTheLadders()
    {
        BetfairRig r;
        r.mcm(R"("ct":"SUB_IMAGE",)", image(3));
        r.rig.last()->drop(1006, QStringLiteral("gone"));
        r.rig.run(5000);
        QVERIFY(r.rig.transports.size() >= 2);
        r.rig.last()->up();
        r.mcm(R"("ct":"RESUB_DELTA",)", R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.5,7]]}]})");
        QCOMPARE(r.state(kRunner), BookState::Synced);
        QCOMPARE(r.levels(kRunner, Side::Bid), texts({"2.5:7", "2.48:50"}));
    }

    // Once the ladders are loaded, a delta (head scan, decode, the handler, the ladders' pass,
    // the book) allocates nothing, full ladders and best offers alike.
    void steadyStateDoesNotAllocate()
    {
        if (!STREAMSCOPE_COUNTS_ALLOCATIONS)
            QSKIP("allocations are counted in the builds without a thread sanitizer");
        for (const char *fields : {"EX_ALL_OFFERS", "EX_BEST_OFFERS"}) {
            BetfairRig r(fields);
            const bool places = QByteArray(fields) == "EX_BEST_OFFERS";
            r.mcm(R"("ct":"SUB_IMAGE",)",
                  places ? QByteArray(R"({"id":"1.23456789","img":true,"rc":[{"id":47972,)"
                                      R"("batb":[[0,2.5,10],[1,2.48,5]],"batl":[[0,2.52,7]]}]})")
                         : image(3));
            QList<QByteArray> deltas;
            for (int i = 0; i < 200; ++i) {
                const QByteArray size = QByteArray::number(10 + i % 7) + ".5";
                deltas << r.text("",
                                 places ? R"({"id":"1.23456789","rc":[{"id":47972,"batb":[[1,2.48,)" + size + "]]}]}"
                                        : R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.48,)" + size
                                         + R"(],[2.46,0]],"atl":[[2.53,)" + size + "]]}]}");
            }
            for (int i = 0; i < 20; ++i) // warm: every reused vector at its size
                r.send(deltas.at(i));
            g_allocations = 0;
            g_counting = true;
            for (int i = 20; i < deltas.size(); ++i)
                r.send(deltas.at(i));
            g_counting = false;
            QCOMPARE(g_allocations.load(), 0L);
            QCOMPARE(r.state(kRunner), BookState::Synced);
            QCOMPARE(r.levels(kRunner, Side::Bid).size(), 2);
        }
    }

    // No ladder field in the subscription: no books.
    void noLadderNoBooks()
    {
        BetfairRig r("EX_MARKET_DEF");
        QVERIFY(!r.rig.session.books());
        BetfairRig none(nullptr);
        QVERIFY(!none.rig.session.books());
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestBetfairBooks)
#include "tst_betfairbooks.moc"
