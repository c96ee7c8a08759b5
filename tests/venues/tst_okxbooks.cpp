// OKX's order-book rules (engine/venues/okx/OkxBookRules, docs/books.md) through a stream session
// without sockets (StreamBooksRig.h): v5 "books" messages written as OKX sends them, the
// seqId/prevSeqId chain from a snapshot (prevSeqId -1), the idle keep-alive (seqId = prevSeqId),
// a maintenance reset (seqId below prevSeqId) and a new snapshot with a lower seqId as legal
// resets, a real gap resubscribed without touching the other book, a crossed book, an update
// before the snapshot, the deprecated checksum (0) never read. Every sequence fails without the
// rule it is named after.

#include "../common/TestRegistry.h"
#include "StreamBooksRig.h"

using namespace streamscope;
using namespace streamscope::testing;
using book::Side;

namespace {

QByteArray okxBookMessage(const char *action, const char *inst, qint64 prev, qint64 seq, const char *bids,
                          const char *asks, const char *channel = "books")
{
    return QStringLiteral(R"({"arg":{"channel":"%1","instId":"%2"},"action":"%3","data":[{"asks":%4,"bids":%5,)"
                          R"("ts":"1780000000000","checksum":0,"prevSeqId":%6,"seqId":%7}]})")
        .arg(QLatin1String(channel), QLatin1String(inst), QLatin1String(action), QLatin1String(asks),
             QLatin1String(bids))
        .arg(prev)
        .arg(seq)
        .toUtf8();
}

QByteArray okxSnapshot(qint64 seq = 100, const char *inst = "BTC-USDT")
{
    return okxBookMessage("snapshot", inst, -1, seq, R"([["8476.98","415","0","13"],["8475.55","101","0","1"]])",
                          R"([["8477.00","9","0","2"],["8478.30","3","0","1"]])");
}

QByteArray okxUpdate(qint64 prev, qint64 seq, const char *bids, const char *asks = "[]", const char *inst = "BTC-USDT")
{
    return okxBookMessage("update", inst, prev, seq, bids, asks);
}

StreamBooksRig okxRig(bool two = false)
{
    QStringList subscribe{QStringLiteral("books:BTC-USDT")};
    if (two)
        subscribe << QStringLiteral("books:ETH-USDT");
    return StreamBooksRig("okx", subscribe);
}

} // namespace

class TestOkxBooks : public QObject {
    Q_OBJECT

private slots:
    void chain()
    {
        StreamBooksRig r = okxRig();
        r.send(okxSnapshot());
        r.send(okxUpdate(100, 123, R"([["8476.98","0","0","0"],["8476.50","7","0","2"]])"));
        r.send(okxUpdate(123, 123, "[]")); // the keep-alive after ~60 s idle
        r.send(okxUpdate(123, 130, "[]", R"([["8477.00","10","0","3"]])"));
        QCOMPARE(r.state("BTC-USDT"), BookState::Synced);
        QCOMPARE(r.levels("BTC-USDT", Side::Bid), texts({"8476.5:7", "8475.55:101"}));
        QCOMPARE(r.levels("BTC-USDT", Side::Ask), texts({"8477:10", "8478.3:3"}));
        QCOMPARE(r.sync("BTC-USDT")->updateId(), 130);
    }

    // Maintenance: seqId goes below prevSeqId and the chain goes on from it; a later snapshot
    // with a lower seqId starts the book over. Neither is a resync.
    void legalResets()
    {
        StreamBooksRig r = okxRig();
        r.send(okxSnapshot());
        r.send(okxUpdate(100, 3, R"([["8476.00","1","0","1"]])"));
        r.send(okxUpdate(3, 4, R"([["8476.10","2","0","1"]])"));
        QCOMPARE(r.state("BTC-USDT"), BookState::Synced);
        QCOMPARE(r.levels("BTC-USDT", Side::Bid).size(), 4);
        r.send(okxBookMessage("snapshot", "BTC-USDT", -1, 2, R"([["8400.00","1","0","1"]])",
                              R"([["8500.00","1","0","1"]])"));
        QCOMPARE(r.levels("BTC-USDT", Side::Bid), texts({"8400:1"}));
        r.send(okxUpdate(2, 5, R"([["8401.00","1","0","1"]])"));
        const BookStatus s = r.status("BTC-USDT");
        QCOMPARE(s.state, BookState::Synced);
        QCOMPARE(s.resyncs, quint64(0));
    }

    // prevSeqId is not the book's seqId: a gap; resubscribed, the other book goes on.
    void realGap()
    {
        StreamBooksRig r = okxRig(true);
        r.send(okxSnapshot());
        r.send(okxSnapshot(50, "ETH-USDT"));
        r.takeSent();
        r.send(okxUpdate(100, 110, "[]"));
        r.send(okxUpdate(115, 120, R"([["8470.00","1","0","1"]])")); // 110..115 missed
        QCOMPARE(r.state("BTC-USDT"), BookState::Desynced);
        const BookStatus s = r.status("BTC-USDT");
        QCOMPARE(s.resyncs, quint64(1));
        QVERIFY2(s.lastResyncReason.contains(QStringLiteral("115")), qPrintable(s.lastResyncReason));
        const QStringList sent = r.takeSent();
        QCOMPARE(sent.size(), 2);
        QVERIFY2(sent[0].contains(QStringLiteral("\"unsubscribe\"")) && sent[0].contains(QStringLiteral("BTC-USDT"))
                     && !sent[0].contains(QStringLiteral("ETH-USDT")),
                 qPrintable(sent[0]));
        QVERIFY2(sent[1].contains(QStringLiteral("\"subscribe\"")), qPrintable(sent[1]));
        QCOMPARE(r.state("ETH-USDT"), BookState::Synced);
        r.send(okxSnapshot(300));
        QCOMPARE(r.state("BTC-USDT"), BookState::Synced);
    }

    void crossedBook()
    {
        StreamBooksRig r = okxRig();
        r.send(okxSnapshot());
        r.send(okxUpdate(100, 101, R"([["8477.00","1","0","1"]])"));
        QCOMPARE(r.state("BTC-USDT"), BookState::Crossed);
        QCOMPARE(r.status("BTC-USDT").crossedEpisodes, quint64(1));
    }

    // An update before the snapshot (a previous subscription's) is not applied.
    void updateBeforeSnapshot()
    {
        StreamBooksRig r = okxRig();
        r.send(okxUpdate(90, 99, R"([["8000.00","1","0","1"]])"));
        QCOMPARE(r.state("BTC-USDT"), BookState::Syncing);
        r.send(okxSnapshot());
        QCOMPARE(r.levels("BTC-USDT", Side::Bid), texts({"8476.98:415", "8475.55:101"}));
        QCOMPARE(r.status("BTC-USDT").resyncs, quint64(0));
    }

    // "books5" pushes a whole book each time, without "action".
    void books5()
    {
        StreamBooksRig r("okx", {QStringLiteral("books5:BTC-USDT")});
        r.send(R"({"arg":{"channel":"books5","instId":"BTC-USDT"},"data":[{"asks":[["8477.00","9","0","2"]],)"
               R"("bids":[["8476.98","415","0","13"]],"instId":"BTC-USDT","ts":"1780000000000","seqId":10}]})");
        r.send(R"({"arg":{"channel":"books5","instId":"BTC-USDT"},"data":[{"asks":[["8478.00","1","0","2"]],)"
               R"("bids":[["8476.00","2","0","13"]],"instId":"BTC-USDT","ts":"1780000000100","seqId":12}]})");
        QCOMPARE(r.state("BTC-USDT"), BookState::Synced);
        QCOMPARE(r.levels("BTC-USDT", Side::Bid), texts({"8476:2"}));
        QCOMPARE(r.levels("BTC-USDT", Side::Ask), texts({"8478:1"}));
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestOkxBooks)
#include "tst_okxbooks.moc"
