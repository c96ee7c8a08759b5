// What one order-book update costs on the worker (docs/books.md, "Cost"), measured, not asserted:
// the median over batches of the time one level change takes in BookSync, for Binance's REST
// path (onDiff, 1,000 levels a side) and the in-stream venues' (onStreamMessage: Bybit at depth
// 200, OKX at 400, Kraken at 10 with its CRC32 checked after every update), and the whole hot
// path of one Bybit delta message (head scan, decode, the handler's continuity, the levels'
// pass, the book) through a session without sockets, books on and off. The figures are printed
// (qInfo); each run checks only that the books end where the updates put them. A benchmark, not
// a gate: it lives here because it reaches the engine's private book classes, which the bench/
// folder may not include (scripts/check-layering.sh).

#include "../common/TestRegistry.h"
#include "../venues/StreamBooksRig.h"
#include "MedianNs.h"
#include "book/BookSync.h"
#include "venues/binance/BinanceBookRules.h"
#include "venues/bybit/BybitBookRules.h"
#include "venues/kraken/KrakenBookRules.h"
#include "venues/okx/OkxBookRules.h"

#include <algorithm>

using namespace streamscope;
using namespace streamscope::book;
using namespace streamscope::testing;

namespace {

std::vector<LevelChange> ladder(int perSide, Fixed mid, Fixed tick, int places = 1)
{
    Q_UNUSED(places);
    std::vector<LevelChange> out;
    for (int i = 1; i <= perSide; ++i) {
        out.push_back({Side::Bid, mid - i * tick, kUnit + i});
        out.push_back({Side::Ask, mid + i * tick, 2 * kUnit + i});
    }
    return out;
}

// One level change near the top (within the top `spread` levels): quantities move, levels stay.
LevelChange change(std::int64_t i, Fixed mid, Fixed tick, int spread)
{
    const Side side = (i & 1) ? Side::Ask : Side::Bid;
    const Fixed offset = (1 + (i / 2) % spread) * tick;
    return {side, side == Side::Bid ? mid - offset : mid + offset, kUnit + (i % 997) + 1};
}

} // namespace

class TestBookCost : public QObject {
    Q_OBJECT

private slots:
    void binanceOnDiff()
    {
        const Fixed mid = 27000 * kUnit;
        const Fixed tick = kUnit / 100;
        BookSync sync(binance::BinanceBookRules::spot(), QStringLiteral("BTCUSDT"));
        const LevelChange first = change(0, mid, tick, 50);
        sync.onDiff(DiffIds{1001, 1001, INT64_MIN}, &first, 1);
        QVERIFY(sync.wantsSnapshot(0));
        sync.snapshotRequested(0);
        sync.onSnapshot(1001, ladder(1000, mid, tick), 1);
        QCOMPARE(sync.state(), BookState::Synced);
        const double ns = medianNs([&](std::int64_t i) {
            const LevelChange c = change(i, mid, tick, 50);
            sync.onDiff(DiffIds{1002 + i, 1002 + i, INT64_MIN}, &c, 1);
        });
        QCOMPARE(sync.state(), BookState::Synced);
        QCOMPARE(sync.book().levels(Side::Bid), std::size_t(1000));
        qInfo("Binance spot, BookSync::onDiff, 1 level change, 1,000 levels a side: %.1f ns median", ns);
    }

    void inStream_data()
    {
        QTest::addColumn<QString>("venue");
        QTest::addColumn<int>("depth");
        QTest::newRow("bybit orderbook.200") << QStringLiteral("bybit") << 200;
        QTest::newRow("okx books") << QStringLiteral("okx") << 400;
        QTest::newRow("kraken book 10, checksum") << QStringLiteral("kraken") << 10;
        QTest::newRow("kraken book 100, checksum") << QStringLiteral("kraken") << 100;
    }

    void inStream()
    {
        QFETCH(QString, venue);
        QFETCH(int, depth);
        const BookRules &rules = venue == QLatin1String("bybit")
            ? static_cast<const BookRules &>(bybit::BybitBookRules::instance())
            : venue == QLatin1String("okx") ? static_cast<const BookRules &>(okx::OkxBookRules::instance())
                                            : static_cast<const BookRules &>(kraken::KrakenBookRules::instance());
        const bool kraken = venue == QLatin1String("kraken");
        const bool okx = venue == QLatin1String("okx");
        const Fixed mid = 45000 * kUnit;
        const Fixed tick = kUnit / 10;
        BookSync sync(rules, QStringLiteral("X"));
        const std::vector<LevelChange> snap = ladder(depth, mid, tick);
        StreamMessage m;
        m.snapshot = true;
        m.ids = {INT64_MIN, 100, okx ? -1 : INT64_MIN};
        m.eventType = venue == QLatin1String("bybit") ? std::string_view("orderbook.200.X")
            : okx                                     ? std::string_view("books")
                                                      : std::string_view("book");
        m.priceDecimals = 1;
        m.qtyDecimals = 8;
        // Kraken: the snapshot's checksum, as the venue would send it.
        if (kraken) {
            BookSync probe(rules, QStringLiteral("X"));
            probe.onStreamMessage(m, snap.data(), snap.size());
            m.hasChecksum = true;
            m.checksum = rules.checksum(probe.book(), 1, 8);
        }
        sync.onStreamMessage(m, snap.data(), snap.size());
        QCOMPARE(sync.state(), BookState::Synced);
        // Kraken's checksum of the book after each update is taken from a shadow book kept
        // apart (not timed): the venue's side.
        BookSync shadow(rules, QStringLiteral("X"));
        StreamMessage s = m;
        s.hasChecksum = false;
        shadow.onStreamMessage(s, snap.data(), snap.size());
        std::vector<std::uint32_t> sums;
        std::vector<LevelChange> changes;
        const std::int64_t total = callCount();
        changes.reserve(std::size_t(total));
        if (kraken)
            sums.reserve(std::size_t(total));
        for (std::int64_t i = 0; i < total; ++i) {
            changes.push_back(change(i, mid, tick, std::min(depth, 50)));
            if (kraken) {
                StreamMessage u;
                shadow.onStreamMessage(u, &changes.back(), 1);
                sums.push_back(rules.checksum(shadow.book(), 1, 8));
            }
        }
        const double ns = medianNs([&](std::int64_t i) {
            StreamMessage u;
            u.ids = {INT64_MIN, 101 + i, okx ? 100 + i : INT64_MIN};
            u.priceDecimals = 1;
            u.qtyDecimals = 8;
            if (kraken) {
                u.hasChecksum = true;
                u.checksum = sums[std::size_t(i)];
            }
            sync.onStreamMessage(u, &changes[std::size_t(i)], 1);
        });
        QCOMPARE(sync.state(), BookState::Synced);
        QCOMPARE(sync.status().checksumFailures, quint64(0));
        QCOMPARE(sync.book().levels(Side::Bid), std::size_t(depth));
        qInfo("%s, BookSync::onStreamMessage, 1 level change, depth %d: %.1f ns median", qPrintable(venue), depth, ns);
    }

    // A whole Bybit delta message of one level on the session's hot path, books on and off.
    void bybitMessage_data()
    {
        QTest::addColumn<bool>("books");
        QTest::newRow("books on") << true;
        QTest::newRow("books off") << false;
    }

    void bybitMessage()
    {
        QFETCH(bool, books);
        StreamConfig c = StreamBooksRig::configFor("bybit", {QStringLiteral("orderbook.200:BTCUSDT")});
        c.book = books;
        SessionRig rig(c);
        rig.session.start();
        rig.last()->up();
        QByteArray bids = "[";
        for (int i = 0; i < 200; ++i)
            bids += (i ? "," : "") + QStringLiteral(R"(["%1.0","1.5"])").arg(45000 - i).toUtf8();
        bids += ']';
        QByteArray asks = "[";
        for (int i = 0; i < 200; ++i)
            asks += (i ? "," : "") + QStringLiteral(R"(["%1.0","2.5"])").arg(45001 + i).toUtf8();
        asks += ']';
        rig.last()->deliver(
            R"({"topic":"orderbook.200.BTCUSDT","type":"snapshot","ts":1780000000000,"data":{"s":"BTCUSDT","b":)" + bids
            + R"(,"a":)" + asks + R"(,"u":100,"seq":7},"cts":1780000000000})");
        const std::int64_t total = callCount();
        std::vector<QByteArray> messages;
        messages.reserve(std::size_t(total));
        for (std::int64_t i = 0; i < total; ++i) {
            const bool ask = i & 1;
            messages.push_back(
                QStringLiteral(R"({"topic":"orderbook.200.BTCUSDT","type":"delta","ts":1780000000000,)"
                               R"("data":{"s":"BTCUSDT","b":[%1],"a":[%2],"u":%3,"seq":%4},"cts":1780000000000})")
                    .arg(ask ? QString() : QStringLiteral(R"(["%1.0","%2"])").arg(45000 - (i / 2) % 50).arg(1 + i % 7),
                         ask ? QStringLiteral(R"(["%1.0","%2"])").arg(45001 + (i / 2) % 50).arg(1 + i % 7) : QString())
                    .arg(101 + i)
                    .arg(8 + i)
                    .toUtf8());
        }
        const double ns = medianNs([&](std::int64_t i) { rig.last()->deliver(messages[std::size_t(i)]); });
        if (books) {
            const book::BookSync *sync = rig.session.books()->book(QStringLiteral("BTCUSDT"));
            QVERIFY(sync);
            QCOMPARE(sync->state(), BookState::Synced);
            QCOMPARE(sync->updateId(), 100 + total);
        } else {
            QVERIFY(!rig.session.books());
        }
        qInfo("Bybit delta message of one level, whole hot path, books %s: %.1f ns median", books ? "on" : "off", ns);
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestBookCost)
#include "tst_bookcost.moc"
