// The audit of an in-stream venue's books against its REST snapshot, end to end (docs/books.md,
// "The audit"): the real engine against a Bybit-like venue written in this test, its v5 public
// websocket (a QWebSocketServer) and its GET /v5/market/orderbook (a QTcpServer), both on
// 127.0.0.1. The venue keeps each symbol's true book, its update id "u" and its cross sequence
// "seq"; a REST answer is its true book at the moment it is asked for. BTCUSDT is kept at the
// 1000-level depth, whose "u" the REST answer shares: compared at the same update id. ETHUSDT
// at the 50-level depth: compared at the nearest by "seq". A level corrupted on the wire (every
// "u" still consecutive) is caught by the audit in each (match below 100 %), the book is
// resubscribed (unsubscribe, subscribe: a new snapshot) and synced again, the next audit
// matches, and book_desync is raised and cleared.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "BookTestSupport.h"
#include "LoopbackVenue.h"

#include "AlertMonitor.h"
#include "AlertService.h"
#include "Engine.h"
#include "Report.h"
#include "StreamSnapshot.h"
#include "Workspace.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtCore/QUrlQuery>
#include <QtWebSockets/QWebSocket>

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;
using Condition = alerts::AlertMonitor::Condition;

namespace {

// A Bybit-like venue: per symbol a book of price text → size text (ordered by value), its "u"
// and its "seq".
class BybitBookServer {
public:
    struct Book {
        BookSide bids;
        BookSide asks;
        qint64 u = 100;
        qint64 seq = 7000;
    };

    BybitBookServer()
        : m_venue(
            QStringLiteral("bybit"), [this](QWebSocket *s, const QString &text) { onRequest(s, text); },
            [this](const QUrl &target) { return answer(target); })
    {
    }

    bool listen() { return m_venue.listen(); }
    QUrl url() const { return m_venue.wsUrl(QStringLiteral("/v5/public/linear")); }
    QUrl restUrl() const { return m_venue.restUrl(); }
    Book &book(const QString &symbol) { return m_books[symbol]; }
    int subscribes(const QString &topic) const { return m_subscribes.value(topic); }
    int unsubscribes(const QString &topic) const { return m_unsubscribes.value(topic); }
    int audits(const QString &symbol) const { return m_audits.value(symbol); }
    int connections() const { return m_venue.accepted(); }

    // The venue's book changes by `bids`; `wire` is what the delta says (a corruption on the way
    // when it differs). "u" goes on by one, "seq" by ten (other books' changes between).
    void delta(const QString &symbol, const Levels &bids, const Levels &wire = {})
    {
        Book &b = m_books[symbol];
        for (const auto &[p, q] : bids)
            setLevel(b.bids, p, q);
        ++b.u;
        b.seq += 10;
        send(symbol, QStringLiteral("delta"), json(wire.isEmpty() ? bids : wire), QJsonArray());
    }

private:
    static QJsonArray json(const Levels &levels)
    {
        QJsonArray a;
        for (const auto &[p, q] : levels)
            a.append(QJsonArray{p, q});
        return a;
    }
    static QJsonArray side(const Book &b, bool asks, int limit)
    {
        QJsonArray a;
        for (const auto &[p, q] : bestFirst(asks ? b.asks : b.bids, asks, limit))
            a.append(QJsonArray{p, q});
        return a;
    }
    void send(const QString &symbol, const QString &type, const QJsonArray &bids, const QJsonArray &asks)
    {
        const Book &b = m_books[symbol];
        for (auto it = m_topics.cbegin(); it != m_topics.cend(); ++it) {
            if (it.value() != symbol)
                continue;
            const QJsonObject message{{QStringLiteral("topic"), it.key()},
                                      {QStringLiteral("type"), type},
                                      {QStringLiteral("ts"), QDateTime::currentMSecsSinceEpoch()},
                                      {QStringLiteral("data"),
                                       QJsonObject{{QStringLiteral("s"), symbol},
                                                   {QStringLiteral("b"), bids},
                                                   {QStringLiteral("a"), asks},
                                                   {QStringLiteral("u"), b.u},
                                                   {QStringLiteral("seq"), b.seq}}},
                                      {QStringLiteral("cts"), QDateTime::currentMSecsSinceEpoch()}};
            m_venue.broadcast(QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
        }
    }
    void onRequest(QWebSocket *s, const QString &text)
    {
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
        const QString op = o.value(QStringLiteral("op")).toString();
        s->sendTextMessage(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("success"), true},
                                      {QStringLiteral("ret_msg"),
                                       op == QLatin1String("ping") ? QStringLiteral("pong") : QString()},
                                      {QStringLiteral("conn_id"), QStringLiteral("loopback")},
                                      {QStringLiteral("op"), op}})
                .toJson(QJsonDocument::Compact)));
        for (const QJsonValue &v : o.value(QStringLiteral("args")).toArray()) {
            const QString topic = v.toString(); // orderbook.<depth>.<symbol>
            const QString symbol = topic.section(QLatin1Char('.'), 2);
            if (op == QLatin1String("subscribe")) {
                ++m_subscribes[topic];
                m_topics.insert(topic, symbol);
                const Book &b = m_books[symbol];
                send(symbol, QStringLiteral("snapshot"), side(b, false, 1000), side(b, true, 1000));
            } else if (op == QLatin1String("unsubscribe")) {
                ++m_unsubscribes[topic];
                m_topics.remove(topic);
            }
        }
    }

    LoopbackVenue::Answer answer(const QUrl &target)
    {
        const QUrlQuery q(target);
        if (target.path() == QLatin1String("/v5/market/orderbook")
            && q.queryItemValue(QStringLiteral("category")) == QLatin1String("linear")) {
            const QString symbol = q.queryItemValue(QStringLiteral("symbol"));
            const int limit = q.queryItemValue(QStringLiteral("limit")).toInt();
            ++m_audits[symbol];
            const Book &b = m_books[symbol];
            const QJsonObject result{{QStringLiteral("s"), symbol},
                                     {QStringLiteral("b"), side(b, false, limit)},
                                     {QStringLiteral("a"), side(b, true, limit)},
                                     {QStringLiteral("ts"), QDateTime::currentMSecsSinceEpoch()},
                                     {QStringLiteral("u"), b.u},
                                     {QStringLiteral("seq"), b.seq},
                                     {QStringLiteral("cts"), QDateTime::currentMSecsSinceEpoch()}};
            return {"200 OK",
                    QJsonDocument(QJsonObject{{QStringLiteral("retCode"), 0},
                                              {QStringLiteral("retMsg"), QStringLiteral("OK")},
                                              {QStringLiteral("result"), result},
                                              {QStringLiteral("retExtInfo"), QJsonObject()},
                                              {QStringLiteral("time"), QDateTime::currentMSecsSinceEpoch()}})
                        .toJson(QJsonDocument::Compact)};
        }
        return {"404 Not Found", "{}"};
    }

    QHash<QString, Book> m_books;
    QHash<QString, QString> m_topics; // subscribed topic → symbol
    QHash<QString, int> m_subscribes;
    QHash<QString, int> m_unsubscribes;
    QHash<QString, int> m_audits;
    LoopbackVenue m_venue; // last: it goes first
};

void fill(BybitBookServer::Book &b, double mid)
{
    for (int i = 1; i <= 30; ++i) {
        setLevel(b.bids, QString::number(mid - i, 'f', 2), QStringLiteral("1.%1").arg(i));
        setLevel(b.asks, QString::number(mid + i, 'f', 2), QStringLiteral("2.%1").arg(i));
    }
}

} // namespace

class TestBybitBookAudit : public QObject {
    Q_OBJECT
private slots:
    void auditCatchesASilentCorruption();
};

void TestBybitBookAudit::auditCatchesASilentCorruption()
{
    BybitBookServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    const QString eth = QStringLiteral("ETHUSDT");
    const QString btcTopic = QStringLiteral("orderbook.1000.BTCUSDT");
    const QString ethTopic = QStringLiteral("orderbook.50.ETHUSDT");
    fill(venue.book(btc), 45000.0);
    fill(venue.book(eth), 2000.0);

    Engine engine;
    BookAlerts alerts(engine, {QStringLiteral("book_desync")});
    StreamConfig c;
    c.name = QStringLiteral("bybit-books");
    c.venue = Venue("bybit");
    c.url = venue.url();
    c.restUrl = venue.restUrl();
    c.subscribe = {QStringLiteral("orderbook.1000:") + btc, QStringLiteral("orderbook.50:") + eth};
    c.pingIntervalMs = 0;
    c.bookAuditS = 1;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, eth).state, BookState::Synced, scaledMs(10000));
    venue.delta(btc, {{QStringLiteral("44999.50"), QStringLiteral("0.5")}});
    venue.delta(eth, {{QStringLiteral("1999.50"), QStringLiteral("0.5")}});

    // First audits of right books: full matches, at the same update id and at the nearest.
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, btc).audits >= 1, scaledMs(10000));
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, eth).audits >= 1, scaledMs(10000));
    for (const QString &s : {btc, eth}) {
        const BookStatus b = bookOf(engine, id, s);
        QCOMPARE(b.lastAuditMatchRatio, 1.0);
        QCOMPARE(b.auditMismatches, quint64(0));
        QCOMPARE(b.staleLevels, qint64(0));
        QCOMPARE(b.resyncs, quint64(0));
    }
    QVERIFY(venue.audits(btc) >= 1);
    QCOMPARE(alerts.raised(Condition::BookDesync), 0);

    // The 1000-level book: 44998.00 goes to 5 at the venue, 7 reaches the book, every "u" in order.
    venue.delta(btc, {{QStringLiteral("44998.00"), QStringLiteral("5")}},
                {{QStringLiteral("44998.00"), QStringLiteral("7")}});
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, btc).auditMismatches >= 1, scaledMs(10000));
    BookStatus b = bookOf(engine, id, btc);
    QVERIFY2(b.minAuditMatchRatio < 1.0, qPrintable(QString::number(b.minAuditMatchRatio)));
    QCOMPARE(b.minAuditMatchRatio, 39.0 / 40.0); // 20 levels a side compared, one differs
    QVERIFY2(b.lastResyncReason.startsWith(QLatin1String("audit at update 102:")), qPrintable(b.lastResyncReason));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.raised(Condition::BookDesync), 1, scaledMs(10000));
    // Resubscribed, that book alone: a new snapshot sets it right, the next audit matches.
    QTRY_COMPARE_WITH_TIMEOUT(venue.unsubscribes(btcTopic), 1, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(venue.subscribes(btcTopic), 2, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    const quint64 audits = bookOf(engine, id, btc).audits;
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, btc).audits > audits, scaledMs(10000));
    b = bookOf(engine, id, btc);
    QCOMPARE(b.lastAuditMatchRatio, 1.0);
    QCOMPARE(b.resyncs, quint64(1));
    QCOMPARE(venue.unsubscribes(ethTopic), 0);
    QTRY_COMPARE_WITH_TIMEOUT(alerts.cleared(Condition::BookDesync), 1,
                              scaledMs(int(alerts::AlertMonitor::kGapHoldMs) + 10000));

    // The 50-level book, audited at the nearest by "seq": the same corruption, caught too (a
    // mismatch there is audited again before it counts).
    venue.delta(eth, {{QStringLiteral("1998.00"), QStringLiteral("5")}},
                {{QStringLiteral("1998.00"), QStringLiteral("7")}});
    QTRY_VERIFY_WITH_TIMEOUT(bookOf(engine, id, eth).auditMismatches >= 1, scaledMs(15000));
    b = bookOf(engine, id, eth);
    QCOMPARE(b.minAuditMatchRatio, 39.0 / 40.0);
    QVERIFY2(b.lastResyncReason.startsWith(QLatin1String("audit at the nearest to the snapshot's 7020:")),
             qPrintable(b.lastResyncReason));
    QTRY_COMPARE_WITH_TIMEOUT(venue.subscribes(ethTopic), 2, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, eth).state, BookState::Synced, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.raised(Condition::BookDesync), 2, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.cleared(Condition::BookDesync), 2,
                              scaledMs(int(alerts::AlertMonitor::kGapHoldMs) + 10000));
    QCOMPARE(bookOf(engine, id, eth).resyncs, quint64(1));
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    QCOMPARE(venue.connections(), 1);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBybitBookAudit)
#include "tst_bybitbookaudit.moc"
