// Bybit's order-book rules (engine/venues/bybit/BybitBookRules, docs/books.md) through a stream
// session without sockets (StreamBooksRig.h): v5 "orderbook.50.<symbol>" messages written as
// Bybit sends them, a snapshot then deltas with "u" consecutive, a new snapshot and "u" = 1 as
// legal resets (never resyncs), a real gap resubscribed without touching the other book of the
// connection, a crossed book, a delta before the snapshot. Every sequence fails without the
// rule it is named after.

#include "../common/TestRegistry.h"
#include "StreamBooksRig.h"

using namespace streamscope;
using namespace streamscope::testing;
using book::Side;

namespace {

QByteArray bybitBookMessage(const char *type, const char *symbol, qint64 u, const char *bids, const char *asks)
{
    return QStringLiteral(R"({"topic":"orderbook.50.%1","type":"%2","ts":1780000000000,"data":{"s":"%1",)"
                          R"("b":%3,"a":%4,"u":%5,"seq":%6},"cts":1780000000000})")
        .arg(QLatin1String(symbol), QLatin1String(type), QLatin1String(bids), QLatin1String(asks))
        .arg(u)
        .arg(u + 7000000)
        .toUtf8();
}

QByteArray bybitSnapshot(qint64 u = 100, const char *symbol = "BTCUSDT")
{
    return bybitBookMessage("snapshot", symbol, u, R"([["16493.50","0.006"],["16493.00","0.100"]])",
                            R"([["16611.00","0.029"],["16612.00","0.213"]])");
}

QByteArray bybitDelta(qint64 u, const char *bids, const char *asks = "[]", const char *symbol = "BTCUSDT")
{
    return bybitBookMessage("delta", symbol, u, bids, asks);
}

StreamBooksRig bybitRig(bool two = false)
{
    QStringList subscribe{QStringLiteral("orderbook.50:BTCUSDT")};
    if (two)
        subscribe << QStringLiteral("orderbook.50:ETHUSDT");
    return StreamBooksRig("bybit", subscribe);
}

} // namespace

class TestBybitBooks : public QObject {
    Q_OBJECT

private slots:
    void snapshotThenDeltas()
    {
        StreamBooksRig r = bybitRig();
        r.send(bybitSnapshot());
        r.send(bybitDelta(101, R"([["16493.50","0"],["16490.00","1.5"]])"));
        r.send(bybitDelta(102, "[]", R"([["16611.00","0.030"]])"));
        QCOMPARE(r.state("BTCUSDT"), BookState::Synced);
        QCOMPARE(r.levels("BTCUSDT", Side::Bid), texts({"16493:0.1", "16490:1.5"}));
        QCOMPARE(r.levels("BTCUSDT", Side::Ask), texts({"16611:0.03", "16612:0.213"}));
        QCOMPARE(r.sync("BTCUSDT")->updateId(), 102);
    }

    // A new snapshot replaces the book whatever it held (levels the old book had and the new
    // one has not are gone), and u = 1 (the service restarted) starts it over: no resync.
    void legalResets()
    {
        StreamBooksRig r = bybitRig();
        r.send(bybitSnapshot());
        r.send(bybitDelta(101, R"([["16400.00","9"]])"));
        r.send(bybitBookMessage("snapshot", "BTCUSDT", 500, R"([["16500.00","1"]])", R"([["16600.00","2"]])"));
        QCOMPARE(r.levels("BTCUSDT", Side::Bid), texts({"16500:1"}));
        r.send(bybitDelta(501, R"([["16499.00","3"]])"));
        r.send(bybitBookMessage("snapshot", "BTCUSDT", 1, R"([["16450.00","4"]])", R"([["16650.00","5"]])"));
        r.send(bybitDelta(2, R"([["16449.00","6"]])"));
        QCOMPARE(r.levels("BTCUSDT", Side::Bid), texts({"16450:4", "16449:6"}));
        const BookStatus s = r.status("BTCUSDT");
        QCOMPARE(s.state, BookState::Synced);
        QCOMPARE(s.resyncs, quint64(0));
    }

    // u = 1 starts the book over even when Bybit labels it a delta.
    void restartDelta()
    {
        StreamBooksRig r = bybitRig();
        r.send(bybitSnapshot());
        r.send(bybitDelta(1, R"([["16450.00","4"]])", R"([["16650.00","5"]])"));
        QCOMPARE(r.levels("BTCUSDT", Side::Bid), texts({"16450:4"}));
        QCOMPARE(r.status("BTCUSDT").resyncs, quint64(0));
    }

    // u 101 then 103: a gap; the book is resubscribed, the other instrument goes on.
    void realGap()
    {
        StreamBooksRig r = bybitRig(true);
        r.send(bybitSnapshot());
        r.send(bybitSnapshot(7, "ETHUSDT"));
        r.takeSent();
        r.send(bybitDelta(101, R"([["16490.00","1"]])"));
        r.send(bybitDelta(103, R"([["16491.00","1"]])"));
        QCOMPARE(r.state("BTCUSDT"), BookState::Desynced);
        const BookStatus s = r.status("BTCUSDT");
        QCOMPARE(s.resyncs, quint64(1));
        QCOMPARE(s.state, BookState::Resyncing);
        QVERIFY2(s.lastResyncReason.contains(QStringLiteral("103")), qPrintable(s.lastResyncReason));
        const QStringList sent = r.takeSent();
        QCOMPARE(sent.size(), 2);
        QVERIFY2(sent[0].contains(QStringLiteral("unsubscribe"))
                     && sent[0].contains(QStringLiteral("orderbook.50.BTCUSDT")),
                 qPrintable(sent[0]));
        QVERIFY2(sent[1].contains(QStringLiteral("\"subscribe\"")) && !sent[1].contains(QStringLiteral("ETHUSDT")),
                 qPrintable(sent[1]));
        QCOMPARE(r.state("ETHUSDT"), BookState::Synced);
        r.send(bybitDelta(104, R"([["16492.00","1"]])")); // the old subscription's: dropped
        r.send(bybitSnapshot(200));
        QCOMPARE(r.state("BTCUSDT"), BookState::Synced);
        QCOMPARE(r.levels("BTCUSDT", Side::Bid), texts({"16493.5:0.006", "16493:0.1"}));
    }

    // A delta whose u went back is a gap too, not applied.
    void wentBack()
    {
        StreamBooksRig r = bybitRig();
        r.send(bybitSnapshot());
        r.send(bybitDelta(99, R"([["16490.00","1"]])"));
        QCOMPARE(r.state("BTCUSDT"), BookState::Desynced);
    }

    void crossedBook()
    {
        StreamBooksRig r = bybitRig();
        r.send(bybitSnapshot());
        r.send(bybitDelta(101, R"([["16611.00","1"]])"));
        QCOMPARE(r.state("BTCUSDT"), BookState::Crossed);
        QCOMPARE(r.status("BTCUSDT").crossedEpisodes, quint64(1));
        r.send(bybitDelta(102, R"([["16611.00","0"]])"));
        QCOMPARE(r.state("BTCUSDT"), BookState::Synced);
    }

    // Deltas before the snapshot (a previous subscription's) are not applied.
    void deltaBeforeSnapshot()
    {
        StreamBooksRig r = bybitRig();
        r.send(bybitDelta(99, R"([["16000.00","1"]])"));
        QCOMPARE(r.state("BTCUSDT"), BookState::Syncing);
        r.send(bybitSnapshot());
        QCOMPARE(r.levels("BTCUSDT", Side::Bid), texts({"16493.5:0.006", "16493:0.1"}));
        QCOMPARE(r.status("BTCUSDT").resyncs, quint64(0));
    }

    // The book is kept at the topic's depth: a snapshot of 50 levels, an insert at the top, and
    // the 51st is dropped (Bybit sends no removal for it).
    void cutToDepth()
    {
        StreamBooksRig r = bybitRig();
        QByteArray bids = "[";
        for (int i = 0; i < 50; ++i)
            bids += (i ? "," : "") + QStringLiteral(R"(["%1.00","1"])").arg(16000 - i).toUtf8();
        bids += ']';
        r.send(bybitBookMessage("snapshot", "BTCUSDT", 100, bids.constData(), R"([["16611.00","0.029"]])"));
        r.send(bybitDelta(101, R"([["16001.00","1"]])"));
        QCOMPARE(r.status("BTCUSDT").bidLevels, 50);
        QCOMPARE(r.levels("BTCUSDT", Side::Bid).last(), QStringLiteral("15952:1"));
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestBybitBooks)
#include "tst_bybitbooks.moc"
