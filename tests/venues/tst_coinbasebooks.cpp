// Coinbase Advanced Trade's order-book rules (engine/venues/coinbase/CoinbaseBookRules,
// docs/books.md) through a stream session without sockets (StreamBooksRig.h): level2 ("l2_data")
// messages written as Coinbase sends them, a snapshot then updates, a new snapshot as a legal
// reset, a jump of the connection's sequence_num (a dropped message, of any product: the
// handler resubscribes and the connection's books resync), an update whose sequence_num went
// back, a crossed book, an update before the snapshot. Every sequence fails without the rule it
// is named after.

#include "../common/TestRegistry.h"
#include "StreamBooksRig.h"

using namespace streamscope;
using namespace streamscope::testing;
using book::Side;

namespace {

QByteArray coinbaseMessage(qint64 sequence, const char *type, const char *product, const char *updates)
{
    return QStringLiteral(R"({"channel":"l2_data","client_id":"","timestamp":"2026-12-02T14:00:00.000000000Z",)"
                          R"("sequence_num":%1,"events":[{"type":"%2","product_id":"%3","updates":%4}]})")
        .arg(sequence)
        .arg(QLatin1String(type), QLatin1String(product), QLatin1String(updates))
        .toUtf8();
}

QByteArray coinbaseLevel(const char *side, const char *price, const char *qty)
{
    return QStringLiteral(R"({"side":"%1","event_time":"2026-12-02T14:00:00.000000Z","price_level":"%2",)"
                          R"("new_quantity":"%3"})")
        .arg(QLatin1String(side), QLatin1String(price), QLatin1String(qty))
        .toUtf8();
}

QByteArray coinbaseSnapshot(qint64 sequence, const char *product = "BTC-USD")
{
    const QByteArray updates = '[' + coinbaseLevel("bid", "21921.73", "0.06317902") + ','
        + coinbaseLevel("bid", "21921.30", "1.2") + ',' + coinbaseLevel("offer", "21921.74", "0.5") + ','
        + coinbaseLevel("offer", "21922.00", "2") + ']';
    return coinbaseMessage(sequence, "snapshot", product, updates.constData());
}

QByteArray heartbeat(qint64 sequence)
{
    return QStringLiteral(R"({"channel":"heartbeats","client_id":"","timestamp":"2026-12-02T14:00:00.000000000Z",)"
                          R"("sequence_num":%1,"events":[{"current_time":"2026-12-02 14:00:00 +0000 UTC",)"
                          R"("heartbeat_counter":3}]})")
        .arg(sequence)
        .toUtf8();
}

StreamBooksRig coinbaseRig()
{
    return StreamBooksRig("coinbase", {QStringLiteral("level2:BTC-USD"), QStringLiteral("level2:ETH-USD")});
}

} // namespace

class TestCoinbaseBooks : public QObject {
    Q_OBJECT

private slots:
    void snapshotThenUpdates()
    {
        StreamBooksRig r = coinbaseRig();
        r.send(coinbaseSnapshot(0));
        r.send(coinbaseMessage(1, "update", "BTC-USD", '[' + coinbaseLevel("bid", "21921.73", "0") + ']'));
        r.send(coinbaseMessage(2, "update", "BTC-USD", '[' + coinbaseLevel("offer", "21921.80", "0.25") + ']'));
        QCOMPARE(r.state("BTC-USD"), BookState::Synced);
        QCOMPARE(r.levels("BTC-USD", Side::Bid), texts({"21921.3:1.2"}));
        QCOMPARE(r.levels("BTC-USD", Side::Ask), texts({"21921.74:0.5", "21921.8:0.25", "21922:2"}));
    }

    // A new snapshot replaces the book: a legal reset, not a resync.
    void newSnapshotResets()
    {
        StreamBooksRig r = coinbaseRig();
        r.send(coinbaseSnapshot(0));
        r.send(coinbaseMessage(1, "update", "BTC-USD", '[' + coinbaseLevel("bid", "21000.00", "3") + ']'));
        r.send(coinbaseSnapshot(2));
        QCOMPARE(r.levels("BTC-USD", Side::Bid), texts({"21921.73:0.06317902", "21921.3:1.2"}));
        QCOMPARE(r.status("BTC-USD").resyncs, quint64(0));
    }

    // sequence_num 2 then 4 on the connection (3 was dropped, whichever product it was for):
    // the handler resubscribes the connection's channels and both books resync; their new
    // snapshots sync them.
    void connectionGap()
    {
        StreamBooksRig r = coinbaseRig();
        r.send(coinbaseSnapshot(0));
        r.send(coinbaseSnapshot(1, "ETH-USD"));
        r.send(heartbeat(2));
        r.takeSent();
        r.send(coinbaseMessage(4, "update", "BTC-USD", '[' + coinbaseLevel("bid", "21921.00", "1") + ']'));
        const BookStatus btc = r.status("BTC-USD");
        QCOMPARE(btc.state, BookState::Resyncing);
        QCOMPARE(btc.resyncs, quint64(1));
        QVERIFY2(btc.lastResyncReason.contains(QStringLiteral("sequence")), qPrintable(btc.lastResyncReason));
        QCOMPARE(r.status("ETH-USD").state, BookState::Resyncing);
        QVERIFY(r.takeSent().join(QLatin1Char(' ')).contains(QStringLiteral("\"subscribe\"")));
        r.send(coinbaseSnapshot(5));
        r.send(coinbaseSnapshot(6, "ETH-USD"));
        QCOMPARE(r.state("BTC-USD"), BookState::Synced);
        QCOMPARE(r.state("ETH-USD"), BookState::Synced);
        QCOMPARE(r.levels("BTC-USD", Side::Bid).size(), 2);
    }

    // An update whose sequence_num went back: not applied, the book resyncs (the connection's
    // count and the book's own both say so).
    void wentBack()
    {
        StreamBooksRig r = coinbaseRig();
        r.send(coinbaseSnapshot(10));
        r.send(coinbaseMessage(8, "update", "BTC-USD", '[' + coinbaseLevel("bid", "21000.00", "3") + ']'));
        const BookStatus s = r.status("BTC-USD");
        QCOMPARE(s.state, BookState::Resyncing);
        QCOMPARE(s.resyncs, quint64(1));
        QCOMPARE(s.bidLevels, 0);
    }

    void crossedBook()
    {
        StreamBooksRig r = coinbaseRig();
        r.send(coinbaseSnapshot(0));
        r.send(coinbaseMessage(1, "update", "BTC-USD", '[' + coinbaseLevel("bid", "21921.74", "1") + ']'));
        QCOMPARE(r.state("BTC-USD"), BookState::Crossed);
        QCOMPARE(r.status("BTC-USD").crossedEpisodes, quint64(1));
    }

    // One message, two products' events: each to its own book.
    void twoProductsInOneMessage()
    {
        StreamBooksRig r = coinbaseRig();
        r.send(coinbaseSnapshot(0));
        r.send(coinbaseSnapshot(1, "ETH-USD"));
        r.send(R"({"channel":"l2_data","client_id":"","timestamp":"2026-12-02T14:00:00.000000000Z","sequence_num":2,)"
               R"("events":[{"type":"update","product_id":"BTC-USD","updates":[)"
               + coinbaseLevel("bid", "21921.50", "4") + R"(]},{"type":"update","product_id":"ETH-USD","updates":[)"
               + coinbaseLevel("offer", "21921.74", "0") + "]}]}");
        QCOMPARE(r.levels("BTC-USD", Side::Bid), texts({"21921.73:0.06317902", "21921.5:4", "21921.3:1.2"}));
        QCOMPARE(r.levels("BTC-USD", Side::Ask).size(), 2);
        QCOMPARE(r.levels("ETH-USD", Side::Ask), texts({"21922:2"}));
        QCOMPARE(r.levels("ETH-USD", Side::Bid).size(), 2);
        QCOMPARE(r.state("BTC-USD"), BookState::Synced);
        QCOMPARE(r.state("ETH-USD"), BookState::Synced);
    }

    // An update before the snapshot is not applied.
    void updateBeforeSnapshot()
    {
        StreamBooksRig r = coinbaseRig();
        r.send(coinbaseMessage(0, "update", "BTC-USD", '[' + coinbaseLevel("bid", "20000.00", "3") + ']'));
        QCOMPARE(r.state("BTC-USD"), BookState::Syncing);
        r.send(coinbaseSnapshot(1));
        QCOMPARE(r.levels("BTC-USD", Side::Bid), texts({"21921.73:0.06317902", "21921.3:1.2"}));
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestCoinbaseBooks)
#include "tst_coinbasebooks.moc"
