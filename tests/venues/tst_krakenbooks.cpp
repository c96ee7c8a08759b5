// Kraken's order-book rules (engine/venues/kraken/KrakenBookRules, docs/books.md) through a
// stream session without sockets (StreamBooksRig.h): WebSocket v2 "book" messages written as
// Kraken sends them (prices and quantities JSON numbers with all their places), the CRC32 of
// the top 10 levels a side against each message's "checksum" (a known-good one from Kraken's
// own published example, 3310070434), the book cut to the subscribed depth, a checksum mismatch
// counted and resubscribed without touching the other book of the connection, a crossed book,
// an update before the snapshot. Every sequence fails without the rule it is named after.

#include "../common/TestRegistry.h"
#include "StreamBooksRig.h"

#include "book/Crc32.h"
#include "venues/scenario/ScenarioKit.h"
#include "venues/scenario/VenueScenarios.h"

#include <random>

using namespace streamscope;
using namespace streamscope::testing;
using book::Side;

namespace {

using Levels = std::vector<std::pair<std::string, std::string>>; // price, qty as sent

// Kraken's published example (its "Spot Websockets (v2) Book Checksum" guide): BTC/USD at depth
// 10, checksum 3310070434.
const Levels kBids{{"45283.5", "0.10000000"}, {"45283.4", "1.54582015"}, {"45282.1", "0.10000000"},
                   {"45281.0", "0.10000000"}, {"45280.3", "1.54592586"}, {"45279.0", "0.07990000"},
                   {"45277.6", "0.03310103"}, {"45277.5", "0.30000000"}, {"45277.3", "1.54602737"},
                   {"45276.6", "0.15445238"}};
const Levels kAsks{{"45285.2", "0.00100000"}, {"45286.4", "1.54571953"}, {"45286.6", "1.54571109"},
                   {"45289.6", "1.54560911"}, {"45290.2", "0.15890660"}, {"45291.8", "1.54553491"},
                   {"45294.7", "0.04454749"}, {"45296.1", "0.35380000"}, {"45297.5", "0.09945542"},
                   {"45299.5", "0.18772827"}};
constexpr quint32 kPublishedChecksum = 3310070434u;

// The checksum as Kraken's guide builds it, from the text: '.' removed, leading zeros removed,
// asks then bids, best first (a reference written apart from the engine's integer formatting).
quint32 reference(const Levels &asks, const Levels &bids)
{
    std::string s;
    const auto add = [&s](const std::string &t) {
        std::string d;
        for (const char c : t) {
            if (c != '.' && !(c == '0' && d.empty()))
                d += c;
        }
        s += d;
    };
    for (const Levels *side : {&asks, &bids}) {
        for (std::size_t i = 0; i < std::min<std::size_t>(10, side->size()); ++i) {
            add((*side)[i].first);
            add((*side)[i].second);
        }
    }
    return book::crc32(s);
}

QByteArray levelsJson(const Levels &levels)
{
    QByteArray out = "[";
    for (const auto &[p, q] : levels) {
        if (out.size() > 1)
            out += ',';
        out += "{\"price\":" + QByteArray::fromStdString(p) + ",\"qty\":" + QByteArray::fromStdString(q) + '}';
    }
    return out + ']';
}

QByteArray krakenBookMessage(const char *type, const char *symbol, const Levels &bids, const Levels &asks,
                             quint32 checksum)
{
    return QByteArray(R"({"channel":"book","type":")") + type + R"(","data":[{"symbol":")" + symbol + R"(","bids":)"
        + levelsJson(bids) + R"(,"asks":)" + levelsJson(asks) + R"(,"checksum":)" + QByteArray::number(checksum)
        + R"(,"timestamp":"2026-12-02T14:00:00.000000Z"}]})";
}

QByteArray krakenSnapshot(const char *symbol = "BTC/USD")
{
    return krakenBookMessage("snapshot", symbol, kBids, kAsks, kPublishedChecksum);
}

// Kraken's book after a change: `bids`/`asks` its full top levels.
QByteArray krakenUpdate(const Levels &bidChanges, const Levels &askChanges, const Levels &bids, const Levels &asks,
                        const char *symbol = "BTC/USD")
{
    return krakenBookMessage("update", symbol, bidChanges, askChanges, reference(asks, bids));
}

} // namespace

class TestKrakenBooks : public QObject {
    Q_OBJECT

private slots:
    void crc32KnownValue()
    {
        QCOMPARE(book::crc32("123456789"), 0xCBF43926u);
        QCOMPARE(reference(kAsks, kBids), kPublishedChecksum);
    }

    // Kraken's published example: the snapshot's own checksum matches.
    void knownGoodSnapshot()
    {
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD")});
        r.send(krakenSnapshot());
        QCOMPARE(r.state("BTC/USD"), BookState::Synced);
        const BookStatus s = r.status("BTC/USD");
        QCOMPARE(s.checksumFailures, quint64(0));
        QCOMPARE(s.bidLevels, 10);
        QCOMPARE(s.askLevels, 10);
        QCOMPARE(r.levels("BTC/USD", Side::Bid).first(), QStringLiteral("45283.5:0.1"));
        QCOMPARE(r.levels("BTC/USD", Side::Ask).first(), QStringLiteral("45285.2:0.001"));
    }

    // An update whose checksum matches the book it leaves.
    void updateWithChecksum()
    {
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD")});
        r.send(krakenSnapshot());
        Levels asks = kAsks;
        asks[0].second = "0.00200000";
        r.send(krakenUpdate({}, {{"45285.2", "0.00200000"}}, kBids, asks));
        QCOMPARE(r.state("BTC/USD"), BookState::Synced);
        QCOMPARE(r.status("BTC/USD").checksumFailures, quint64(0));
        QCOMPARE(r.levels("BTC/USD", Side::Ask).first(), QStringLiteral("45285.2:0.002"));
    }

    // After an insert the book is cut to the subscribed depth (10): Kraken sends no removal for
    // the level pushed out, and refills the depth when the top level goes. Without the cut, the
    // pushed-out level would come back into the top 10 and the checksum would not match.
    void cutToDepth()
    {
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD")});
        r.send(krakenSnapshot());
        Levels bids = kBids;
        bids.insert(bids.begin(), {"45283.6", "0.50000000"});
        bids.pop_back(); // 45276.6 leaves Kraken's book
        r.send(krakenUpdate({{"45283.6", "0.50000000"}}, {}, bids, kAsks));
        QCOMPARE(r.status("BTC/USD").bidLevels, 10);
        bids.erase(bids.begin());
        bids.push_back({"45275.0", "0.20000000"});
        r.send(krakenUpdate({{"45283.6", "0"}, {"45275.0", "0.20000000"}}, {}, bids, kAsks));
        QCOMPARE(r.state("BTC/USD"), BookState::Synced);
        QCOMPARE(r.status("BTC/USD").checksumFailures, quint64(0));
        QCOMPARE(r.levels("BTC/USD", Side::Bid).last(), QStringLiteral("45275:0.2"));
    }

    // A level corrupted on the way (the book applies 0.3, Kraken's book holds 0.2): the
    // checksum catches it, counts it, and the book is resubscribed; the other book of the
    // connection goes on. A new snapshot syncs it again.
    void checksumMismatchResubscribes()
    {
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD"), QStringLiteral("book:ETH/USD")});
        r.send(krakenSnapshot());
        r.send(krakenSnapshot("ETH/USD"));
        r.takeSent();
        Levels theirs = kBids;
        theirs[1].second = "0.20000000";
        r.send(krakenBookMessage("update", "BTC/USD", {{"45283.4", "0.30000000"}}, {}, reference(kAsks, theirs)));
        QCOMPARE(r.state("BTC/USD"), BookState::Desynced);
        BookStatus s = r.status("BTC/USD"); // the tick resubscribes
        QCOMPARE(s.checksumFailures, quint64(1));
        QCOMPARE(s.resyncs, quint64(1));
        QVERIFY2(s.lastResyncReason.startsWith(QStringLiteral("checksum mismatch")), qPrintable(s.lastResyncReason));
        QCOMPARE(s.state, BookState::Resyncing);
        const QStringList sent = r.takeSent();
        QCOMPARE(sent.size(), 2);
        QVERIFY2(sent[0].contains(QStringLiteral("\"unsubscribe\"")) && sent[0].contains(QStringLiteral("BTC/USD"))
                     && !sent[0].contains(QStringLiteral("ETH/USD")),
                 qPrintable(sent[0]));
        QVERIFY2(sent[1].contains(QStringLiteral("\"subscribe\"")) && sent[1].contains(QStringLiteral("\"book\"")),
                 qPrintable(sent[1]));
        QCOMPARE(r.state("ETH/USD"), BookState::Synced);
        QCOMPARE(r.status("ETH/USD").resyncs, quint64(0));
        r.send(krakenSnapshot());
        const BookStatus again = r.status("BTC/USD");
        QCOMPARE(again.state, BookState::Synced);
        QCOMPARE(again.resyncs, quint64(1));
        QVERIFY(again.timeToSyncMs >= 0);
    }

    // The depth from the subscribe answer (25), not from the snapshot's size: a book of 8 bids
    // would be guessed at 10 and cut there; Kraken keeps 25, so when the top bid goes, its top 10
    // holds an 11th level the cut book lost, and the checksum would not match.
    void depthFromTheSubscribeAnswer()
    {
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD")});
        r.send(QByteArray(R"({"method":"subscribe","result":{"channel":"book","depth":25,"snapshot":true,)"
                          R"("symbol":"BTC/USD"},"success":true,"time_in":"2026-12-02T14:00:00.000000Z",)"
                          R"("time_out":"2026-12-02T14:00:00.000050Z"})"));
        Levels bids(kBids.begin(), kBids.begin() + 8);
        r.send(krakenBookMessage("snapshot", "BTC/USD", bids, kAsks, reference(kAsks, bids)));
        const Levels deeper{{"45270.0", "1.00000000"}, {"45269.0", "1.00000000"}, {"45268.0", "1.00000000"}};
        bids.insert(bids.end(), deeper.begin(), deeper.end());
        r.send(krakenUpdate(deeper, {}, bids, kAsks));
        QCOMPARE(r.status("BTC/USD").bidLevels, 11);
        bids.erase(bids.begin());
        r.send(krakenUpdate({{"45283.5", "0"}}, {}, bids, kAsks));
        const BookStatus s = r.status("BTC/USD");
        QCOMPARE(s.checksumFailures, quint64(0));
        QCOMPARE(s.state, BookState::Synced);
        QCOMPARE(s.bidLevels, 10);
    }

    // Best bid ≥ best ask, checksum and all: crossed, once, and resynced after a second.
    void crossedBook()
    {
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD")});
        r.send(krakenSnapshot());
        Levels bids = kBids;
        bids.insert(bids.begin(), {"45285.3", "0.10000000"});
        bids.pop_back();
        r.send(krakenUpdate({{"45285.3", "0.10000000"}}, {}, bids, kAsks));
        QCOMPARE(r.state("BTC/USD"), BookState::Crossed);
        QCOMPARE(r.status("BTC/USD").crossedEpisodes, quint64(1));
        QCOMPARE(r.status("BTC/USD").checksumFailures, quint64(0));
        r.rig.run(1200);
        const BookStatus s = r.status("BTC/USD");
        QCOMPARE(s.resyncs, quint64(1));
        QVERIFY2(s.lastResyncReason.startsWith(QStringLiteral("crossed")), qPrintable(s.lastResyncReason));
    }

    // An update before the snapshot (a previous subscription's) is not applied: the book is the
    // snapshot's, exactly.
    void updateBeforeSnapshot()
    {
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD")});
        r.send(krakenBookMessage("update", "BTC/USD", {{"45000.0", "9.00000000"}}, {}, 1));
        QCOMPARE(r.state("BTC/USD"), BookState::Syncing);
        QCOMPARE(r.status("BTC/USD").bidLevels, 0);
        r.send(krakenSnapshot());
        QCOMPARE(r.state("BTC/USD"), BookState::Synced);
        QVERIFY(!r.levels("BTC/USD", Side::Bid).join(QLatin1Char(' ')).contains(QStringLiteral("45000")));
        QCOMPARE(r.status("BTC/USD").checksumFailures, quint64(0));
    }

    // The replay server's kraken_book pool: its checksums are the CRC32s of the book it builds,
    // which never crosses; the local book agrees throughout.
    void replayScenario()
    {
        const scenario::ScenarioDefinition *def = scenario::VenueScenarios::find(QStringLiteral("kraken_book"));
        QVERIFY(def);
        std::mt19937_64 rng(7);
        scenario::ScenarioBuilder b(rng);
        StreamBooksRig r("kraken", {QStringLiteral("book:BTC/USD")});
        for (quint64 i = 0; i < 500; ++i)
            r.send(def->message(b, i).json);
        const BookStatus s = r.status("BTC/USD");
        QCOMPARE(s.state, BookState::Synced);
        QCOMPARE(s.checksumFailures, quint64(0));
        QCOMPARE(s.resyncs, quint64(0));
        QCOMPARE(s.crossedEpisodes, quint64(0));
        QCOMPARE(s.bidLevels, 10);
        QCOMPARE(s.askLevels, 10);
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestKrakenBooks)
#include "tst_krakenbooks.moc"
