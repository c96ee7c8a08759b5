// The audit of Bybit's and OKX's in-stream books against their REST snapshots (docs/books.md,
// "The audit"; engine/book/BookStreamAudit.cpp, the venues' BookRules): the REST requests each
// venue's rules build, their answers as the venues document them read by the book keeper's
// reader (the venue's error status refused with its text escaped), the request weight and the
// pause each venue asks for, and recorded message sequences through BookSync: Bybit's 1000-level
// book compared at the same update id, its 50-level book and OKX's compared at the nearest (a
// level the next message changes matching either way, a first mismatch audited again before it
// counts, a book that has not passed the snapshot's point waited for, a snapshot from before the
// audit inconclusive). No network. Each case fails without the rule it is named after.

#include "../common/TestRegistry.h"
#include "LevelChanges.h"
#include "book/BookSync.h"
#include "protocol/MessageDecoder.h"
#include "protocol/ReceiveBuffer.h"
#include "session/BookKeeper.h"
#include "session/BookLevelReader.h"
#include "venues/bybit/BybitBookRules.h"
#include "venues/okx/OkxBookRules.h"

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;
using namespace streamscope::book;
using bybit::BybitBookRules;
using okx::OkxBookRules;

namespace {

using Pairs = std::vector<std::pair<const char *, const char *>>;

const Pairs kAuditBids{{"100", "1"}, {"99", "2"}, {"98", "3"}};
const Pairs kAuditAsks{{"101", "1"}, {"102", "2"}};

// One stream message as the keeper hands it over: Bybit's (u, seq) or OKX's (prevSeqId, seqId, ts).
void send(BookSync &sync, const char *type, bool snapshot, std::int64_t last, std::int64_t prev, std::int64_t key,
          const Pairs &bids, const Pairs &asks = {})
{
    StreamMessage m;
    m.ids = DiffIds{INT64_MIN, last, prev};
    m.eventType = type;
    m.snapshot = snapshot;
    m.auditKey = key;
    const std::vector<LevelChange> c = changes(bids, asks);
    sync.onStreamMessage(m, c.data(), c.size());
}

// Bybit: u, and seq as the audit key.
void bybitMessage(BookSync &sync, const char *topic, bool snapshot, std::int64_t u, std::int64_t seq, const Pairs &bids,
                  const Pairs &asks = {})
{
    send(sync, topic, snapshot, u, INT64_MIN, seq, bids, asks);
}

// A book synced from a snapshot, its first audit due one period (60 s) after the tick that saw it.
void synced(BookSync &sync, const char *topic, std::int64_t u, std::int64_t seq)
{
    bybitMessage(sync, topic, true, u, seq, kAuditBids, kAuditAsks);
    sync.tick(1000);
    QCOMPARE(sync.state(), BookState::Synced);
    QVERIFY(!sync.auditDue(60999, 60000));
    QVERIFY(sync.auditDue(61000, 60000));
}

QByteArray recorded(const char *text)
{
    return QByteArray(text);
}

} // namespace

class TestBookAudit : public QObject {
    Q_OBJECT
private slots:
    void bybitRequests();
    void okxRequests();
    void weightAndPauses();
    void bybitAnswer();
    void bybitErrorAnswer();
    void okxAnswer();
    void okxErrorAnswer();
    void streamMessagesCarryTheirKey();
    void bybitSameIdMatches();
    void bybitSameIdCatchesACorruption();
    void bybitNearestToleratesTheNextMessage();
    void bybitNearestConfirmsAMismatch();
    void nearestWaitsThenSettles();
    void nearestSnapshotBeforeTheAuditIsInconclusive();
    void okxNearestByTimestamp();
    void noAuditWithoutAnAuditPoint();
};

void TestBookAudit::bybitRequests()
{
    const BybitBookRules &r = BybitBookRules::instance();
    const QUrl spot(QStringLiteral("wss://stream.bybit.com/v5/public/spot"));
    const QUrl linear(QStringLiteral("wss://stream-testnet.bybit.com/v5/public/linear"));
    QCOMPARE(r.defaultRestBase(spot), QUrl(QStringLiteral("https://api.bybit.com")));
    QCOMPARE(r.defaultRestBase(linear), QUrl(QStringLiteral("https://api-testnet.bybit.com")));
    QCOMPARE(r.defaultRestBase(QUrl(QStringLiteral("ws://127.0.0.1:9000/v5/public/spot"))),
             QUrl(QStringLiteral("http://127.0.0.1:9000")));
    QString why;
    QCOMPARE(r.auditUrl(r.defaultRestBase(spot), spot, QStringLiteral("BTCUSDT"), 50, why),
             QUrl(QStringLiteral("https://api.bybit.com/v5/market/orderbook?category=spot&symbol=BTCUSDT&limit=50")));
    // The 1000-level book: as deep as each category allows.
    QCOMPARE(
        r.auditUrl(QUrl(QStringLiteral("https://api.bybit.com")), spot, QStringLiteral("BTCUSDT"), 1000, why).query(),
        QStringLiteral("category=spot&symbol=BTCUSDT&limit=200"));
    QCOMPARE(
        r.auditUrl(QUrl(QStringLiteral("https://proxy.example/bybit/")), linear, QStringLiteral("ETHUSDT"), 1000, why),
        QUrl(QStringLiteral(
            "https://proxy.example/bybit/v5/market/orderbook?category=linear&symbol=ETHUSDT&limit=500")));
    // No category in the stream's URL: no request, and why.
    QVERIFY(r.auditUrl(QUrl(QStringLiteral("http://127.0.0.1:1")), QUrl(QStringLiteral("ws://127.0.0.1:1/ws")),
                       QStringLiteral("BTCUSDT"), 50, why)
                .isEmpty());
    QVERIFY2(why.contains(QLatin1String("category")), qPrintable(why));
    QCOMPARE(r.auditPoint(1000), AuditPoint::SameId);
    QCOMPARE(r.auditPoint(50), AuditPoint::Nearest);
    QCOMPARE(r.auditPoint(200), AuditPoint::Nearest);
}

void TestBookAudit::okxRequests()
{
    const OkxBookRules &r = OkxBookRules::instance();
    const QUrl ws(QStringLiteral("wss://ws.okx.com:8443/ws/v5/public"));
    QCOMPARE(r.defaultRestBase(ws), QUrl(QStringLiteral("https://www.okx.com")));
    QString why;
    QCOMPARE(r.auditUrl(r.defaultRestBase(ws), ws, QStringLiteral("BTC-USDT"), 400, why),
             QUrl(QStringLiteral("https://www.okx.com/api/v5/market/books?instId=BTC-USDT&sz=400")));
    QCOMPARE(r.auditUrl(r.defaultRestBase(ws), ws, QStringLiteral("BTC-USDT"), 5, why).query(),
             QStringLiteral("instId=BTC-USDT&sz=5"));
    QCOMPARE(r.auditPoint(400), AuditPoint::Nearest);
}

void TestBookAudit::weightAndPauses()
{
    const BybitBookRules &b = BybitBookRules::instance();
    QCOMPARE(b.snapshotWeight(), 1);
    QCOMPARE(b.weightPerMinute(), 3600); // half of 600 requests per 5 s
    QCOMPARE(b.pauseSeconds(403), 600);  // "access too frequent": at least 10 minutes
    QCOMPARE(b.pauseSeconds(429), 60);
    QCOMPARE(b.pauseSeconds(200), 0);
    const OkxBookRules &o = OkxBookRules::instance();
    QCOMPARE(o.weightPerMinute(), 600); // half of 40 requests per 2 s
    QCOMPARE(o.pauseSeconds(429), 60);
    QCOMPARE(o.pauseSeconds(403), 0);
}

void TestBookAudit::bybitAnswer()
{
    // As Bybit documents it.
    const QByteArray body =
        recorded(R"({"retCode":0,"retMsg":"OK","result":{"s":"BTCUSDT","a":[["65557.7","16.606555"]],)"
                 R"("b":[["65485.47","47.081829"],["65485.4","0.5"]],"ts":1716863719031,"u":230704,"seq":1432604333,)"
                 R"("cts":1716863718905},"retExtInfo":{},"time":1716863719382})");
    const BybitBookRules &r = BybitBookRules::instance();
    MessageDecoder decoder;
    std::int64_t id = 0;
    std::vector<LevelChange> levels;
    QString why;
    QVERIFY2(
        BookKeeper::readAnswer(decoder, r, bookDecoderKeys(r.auditKeys(AuditPoint::SameId)), body, id, levels, why),
        qPrintable(why));
    QCOMPARE(id, 230704); // "u": the 1000-level stream's update id
    QCOMPARE(levels.size(), std::size_t(3));
    QCOMPARE(levels[0].side, Side::Ask);
    QCOMPARE(levels[0].price, fx("65557.7"));
    QCOMPARE(levels[2].qty, fx("0.5"));
    levels.clear();
    QVERIFY(
        BookKeeper::readAnswer(decoder, r, bookDecoderKeys(r.auditKeys(AuditPoint::Nearest)), body, id, levels, why));
    QCOMPARE(id, 1432604333); // "seq": the cross sequence
}

void TestBookAudit::bybitErrorAnswer()
{
    const QByteArray body = recorded(R"({"retCode":10001,"retMsg":"params error: Symbol Is Invalid\u001b[31m",)"
                                     R"("result":{},"retExtInfo":{},"time":1716863719382})");
    const BybitBookRules &r = BybitBookRules::instance();
    MessageDecoder decoder;
    std::int64_t id = 0;
    std::vector<LevelChange> levels;
    QString why;
    QVERIFY(
        !BookKeeper::readAnswer(decoder, r, bookDecoderKeys(r.auditKeys(AuditPoint::Nearest)), body, id, levels, why));
    QVERIFY2(why.startsWith(QLatin1String("the venue's error 10001: params error: Symbol Is Invalid")),
             qPrintable(why));
    QVERIFY2(!why.contains(QChar(0x1b)), qPrintable(why)); // the peer's control character escaped
}

void TestBookAudit::okxAnswer()
{
    // As OKX documents it: strings everywhere, "ts" included; no seqId.
    const QByteArray body = recorded(R"({"code":"0","msg":"","data":[{"asks":[["41006.8","0.60038921","0","1"]],)"
                                     R"("bids":[["41006.3","0.30178218","0","2"]],"ts":"1629966436396"}]})");
    const OkxBookRules &r = OkxBookRules::instance();
    MessageDecoder decoder;
    std::int64_t id = 0;
    std::vector<LevelChange> levels;
    QString why;
    QVERIFY2(
        BookKeeper::readAnswer(decoder, r, bookDecoderKeys(r.auditKeys(AuditPoint::Nearest)), body, id, levels, why),
        qPrintable(why));
    QCOMPARE(id, Q_INT64_C(1629966436396));
    QCOMPARE(levels.size(), std::size_t(2));
    QCOMPARE(levels[1].side, Side::Bid);
    QCOMPARE(levels[1].qty, fx("0.30178218"));
}

void TestBookAudit::okxErrorAnswer()
{
    const QByteArray body = recorded(R"({"code":"51001","msg":"Instrument ID does not exist","data":[]})");
    const OkxBookRules &r = OkxBookRules::instance();
    MessageDecoder decoder;
    std::int64_t id = 0;
    std::vector<LevelChange> levels;
    QString why;
    QVERIFY(
        !BookKeeper::readAnswer(decoder, r, bookDecoderKeys(r.auditKeys(AuditPoint::Nearest)), body, id, levels, why));
    QCOMPARE(why, QStringLiteral("the venue's error 51001: Instrument ID does not exist"));
}

// The key an audit at the nearest places each stream message by is read with its levels.
void TestBookAudit::streamMessagesCarryTheirKey()
{
    struct Sink final : MessageDecoder::LevelSink {
        bool level(bool, std::string_view, std::string_view) override { return true; }
        void updateId(std::int64_t v) override { id = v; }
        std::int64_t id = INT64_MIN;
    };
    MessageDecoder decoder;
    ReceiveBuffer buffer;
    Sink bybitSink;
    const QByteArray b = R"({"topic":"orderbook.50.BTCUSDT","type":"delta","ts":1,"data":{"s":"BTCUSDT",)"
                         R"("b":[["1","2"]],"a":[],"u":8,"seq":7000123},"cts":1})";
    QVERIFY(decoder.decodeLevels(buffer.copy(b.constData(), b.size()),
                                 bookDecoderKeys(BybitBookRules::instance().diffKeys()), bybitSink));
    QCOMPARE(bybitSink.id, 7000123);
    Sink okxSink;
    const QByteArray o = R"({"arg":{"channel":"books","instId":"BTC-USDT"},"action":"update","data":[{"asks":[],)"
                         R"("bids":[["1","2","0","1"]],"ts":"1629966436396","prevSeqId":1,"seqId":2}]})";
    QVERIFY(decoder.decodeLevels(buffer.copy(o.constData(), o.size()),
                                 bookDecoderKeys(OkxBookRules::instance().diffKeys()), okxSink));
    QCOMPARE(okxSink.id, Q_INT64_C(1629966436396));
}

void TestBookAudit::bybitSameIdMatches()
{
    BookSync sync(BybitBookRules::instance(), QStringLiteral("BTCUSDT"));
    synced(sync, "orderbook.1000.BTCUSDT", 100, 7000);
    sync.auditRequested(61000);
    bybitMessage(sync, "orderbook.1000.BTCUSDT", false, 101, 7010, {{"100", "1.5"}});
    bybitMessage(sync, "orderbook.1000.BTCUSDT", false, 102, 7020, {{"99", "0"}});
    // The venue's book at u 101; the kept update 102 brings it to the book's own id.
    sync.onAuditSnapshot(101, changes({{"100", "1.5"}, {"99", "2"}, {"98", "3"}}, kAuditAsks));
    QVERIFY(!sync.auditing());
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.auditMismatches, quint64(0));
    QCOMPARE(s.lastAuditMatchRatio, 1.0);
    QCOMPARE(sync.state(), BookState::Synced);
}

void TestBookAudit::bybitSameIdCatchesACorruption()
{
    BookSync sync(BybitBookRules::instance(), QStringLiteral("BTCUSDT"));
    synced(sync, "orderbook.1000.BTCUSDT", 100, 7000);
    sync.auditRequested(61000);
    bybitMessage(sync, "orderbook.1000.BTCUSDT", false, 101, 7010, {{"99", "7"}}); // the venue set 5
    sync.onAuditSnapshot(101, changes({{"100", "1"}, {"99", "5"}, {"98", "3"}}, kAuditAsks));
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.auditMismatches, quint64(1));
    QCOMPARE(s.lastAuditMatchRatio, 0.8);
    QCOMPARE(sync.state(), BookState::Desynced); // resubscribed by the keeper
    QVERIFY2(s.lastResyncReason.startsWith(QLatin1String("audit at update 101: 80 % of the top 20")),
             qPrintable(s.lastResyncReason));
}

void TestBookAudit::bybitNearestToleratesTheNextMessage()
{
    BookSync sync(BybitBookRules::instance(), QStringLiteral("BTCUSDT"));
    synced(sync, "orderbook.50.BTCUSDT", 100, 7000);
    sync.auditRequested(61000);
    bybitMessage(sync, "orderbook.50.BTCUSDT", false, 101, 7010, {{"100", "1.5"}});
    // The snapshot at seq 7015: between two pushes; the next one (7020) changed 99 and 98, and
    // the snapshot saw 99's change only.
    sync.onAuditSnapshot(7015, changes({{"100", "1.5"}, {"99", "4"}, {"98", "3"}}, kAuditAsks));
    QVERIFY(sync.auditing()); // the book has not passed 7015 yet
    bybitMessage(sync, "orderbook.50.BTCUSDT", false, 102, 7020, {{"99", "4"}, {"98", "6"}});
    QVERIFY(!sync.auditing());
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.auditMismatches, quint64(0));
    QCOMPARE(s.lastAuditMatchRatio, 1.0);
    QCOMPARE(s.staleLevels, qint64(0));
    QCOMPARE(sync.state(), BookState::Synced);
    QVERIFY(!sync.auditDue(61001, 60000)); // the next one a period later
}

void TestBookAudit::bybitNearestConfirmsAMismatch()
{
    BookSync sync(BybitBookRules::instance(), QStringLiteral("BTCUSDT"));
    synced(sync, "orderbook.50.BTCUSDT", 100, 7000);
    bybitMessage(sync, "orderbook.50.BTCUSDT", false, 101, 7010, {{"99", "7"}}); // the venue set 5
    const auto audit = [&sync](qint64 nowMs, std::int64_t seq) {
        sync.auditRequested(nowMs);
        sync.onAuditSnapshot(seq, changes({{"100", "1"}, {"99", "5"}, {"98", "3"}}, kAuditAsks));
        // The next push: a size set again to what it was.
        bybitMessage(sync, "orderbook.50.BTCUSDT", false, 102 + (nowMs - 61000), seq + 5, {{"100", "1"}});
    };
    audit(61000, 7010);
    // A first mismatch at the nearest: not counted, audited again at once.
    QCOMPARE(sync.status().audits, quint64(0));
    QCOMPARE(sync.state(), BookState::Synced);
    QVERIFY(sync.auditDue(61001, 60000));
    audit(61001, 7015);
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.auditMismatches, quint64(1));
    QCOMPARE(s.lastAuditMatchRatio, 0.8);
    QCOMPARE(sync.state(), BookState::Desynced);
    QVERIFY2(s.lastResyncReason.startsWith(QLatin1String("audit at the nearest to the snapshot's 7015: 80 %")),
             qPrintable(s.lastResyncReason));
}

void TestBookAudit::nearestWaitsThenSettles()
{
    BookSync sync(BybitBookRules::instance(), QStringLiteral("BTCUSDT"));
    synced(sync, "orderbook.50.BTCUSDT", 100, 7000);
    sync.auditRequested(61000);
    // No message after the snapshot's point: after kAuditSettleMs the book as it is stands for it
    // (a stale level here: 97 the snapshot does not have).
    bybitMessage(sync, "orderbook.50.BTCUSDT", false, 101, 7010, {{"97", "1"}});
    const std::vector<LevelChange> venue = changes({{"100", "1"}, {"99", "2"}, {"98", "3"}, {"96", "1"}}, kAuditAsks);
    sync.onAuditSnapshot(7010, venue);
    QVERIFY(sync.auditing());
    sync.tick(61100);
    QVERIFY(sync.auditing());
    sync.tick(61100 + BookSync::kAuditSettleMs);
    QCOMPARE(sync.status().audits, quint64(0)); // a first mismatch: audited again
    QVERIFY(!sync.auditing());
    sync.auditRequested(61200);
    sync.onAuditSnapshot(7010, venue);
    sync.tick(61300);
    sync.tick(61300 + BookSync::kAuditSettleMs);
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(1));
    QCOMPARE(s.staleLevels, qint64(1));
    QCOMPARE(s.auditMismatches, quint64(1));
}

void TestBookAudit::nearestSnapshotBeforeTheAuditIsInconclusive()
{
    BookSync sync(BybitBookRules::instance(), QStringLiteral("BTCUSDT"));
    synced(sync, "orderbook.50.BTCUSDT", 100, 7000);
    bybitMessage(sync, "orderbook.50.BTCUSDT", false, 101, 7010, {{"100", "1.5"}});
    sync.auditRequested(61000);
    // From before the audit began (7010): the book as it was then is not kept.
    sync.onAuditSnapshot(7005, changes({{"100", "9"}}, kAuditAsks));
    QVERIFY(!sync.auditing());
    QCOMPARE(sync.status().audits, quint64(0));
    QCOMPARE(sync.status().auditMismatches, quint64(0));
    QCOMPARE(sync.state(), BookState::Synced);
}

void TestBookAudit::okxNearestByTimestamp()
{
    BookSync sync(OkxBookRules::instance(), QStringLiteral("BTC-USDT"));
    send(sync, "books", true, 10, -1, 1629966436000, kAuditBids, kAuditAsks);
    sync.tick(1000);
    QVERIFY(sync.auditDue(61000, 60000));
    sync.auditRequested(61000);
    send(sync, "books", false, 11, 10, 1629966436100, {{"100", "1.5"}});
    send(sync, "books", false, 12, 11, 1629966436200, {{"99", "0"}});
    // The answer's "ts" between the two: the book after the first, the second's change tolerated.
    sync.onAuditSnapshot(1629966436150, changes({{"100", "1.5"}, {"99", "2"}, {"98", "3"}}, kAuditAsks));
    QVERIFY(!sync.auditing());
    QCOMPARE(sync.status().audits, quint64(1));
    QCOMPARE(sync.status().lastAuditMatchRatio, 1.0);
    // A corruption: the venue's 98 is 4, the book got 3 and kept it.
    const std::vector<LevelChange> venue = changes({{"100", "1.5"}, {"98", "4"}, {"97", "1"}}, kAuditAsks);
    sync.auditRequested(121000);
    send(sync, "books", false, 13, 12, 1629966436300, {{"97", "1"}});
    sync.onAuditSnapshot(1629966436300, venue);
    send(sync, "books", false, 14, 13, 1629966436400, {{"100", "1.5"}});
    QCOMPARE(sync.status().audits, quint64(1)); // a first mismatch: audited again at once
    QVERIFY(sync.auditDue(121001, 60000));
    sync.auditRequested(121001);
    sync.onAuditSnapshot(1629966436400, venue);
    send(sync, "books", false, 15, 14, 1629966436500, {{"100", "1.5"}});
    const BookStatus &s = sync.status();
    QCOMPARE(s.audits, quint64(2));
    QCOMPARE(s.auditMismatches, quint64(1));
    QCOMPARE(sync.state(), BookState::Desynced);
}

void TestBookAudit::noAuditWithoutAnAuditPoint()
{
    // The base rules (Kraken's and Coinbase's keep them): an in-stream book without an audit.
    struct NoAudit final : BookRules {
        SnapshotSource snapshotSource() const override { return SnapshotSource::Stream; }
        std::string_view diffEventType() const override { return "book"; }
        LevelKeys diffKeys() const override { return {"data", "bids", "asks", {}}; }
        LevelKeys snapshotKeys() const override { return diffKeys(); }
        DiffAction next(const DiffIds &, std::int64_t) const override { return DiffAction::Apply; }
    } rules;
    BookSync sync(rules, QStringLiteral("BTC/USD"));
    send(sync, "book", true, INT64_MIN, INT64_MIN, INT64_MIN, kAuditBids, kAuditAsks);
    sync.tick(1000);
    QCOMPARE(sync.state(), BookState::Synced);
    QVERIFY(!sync.auditDue(1'000'000, 60000));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBookAudit)
#include "tst_bookaudit.moc"
