// An in-stream-snapshot venue's order books end to end (docs/books.md): the real engine against a
// Kraken-like WebSocket v2 venue written in this test (a QWebSocketServer on 127.0.0.1) that
// keeps its own books, answers "book" subscriptions with a snapshot and sends updates, each
// with the CRC32 checksum of its top 10 levels a side. The books sync from the snapshots; an
// update corrupted on the way (the wire says 0.3, the venue's book and its checksum 0.2) is
// caught by the checksum; the engine resubscribes that book alone (unsubscribe, subscribe) and
// syncs it from the new snapshot while the other book and the connection go on; the report's
// books entry shows it all.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "BookTestSupport.h"
#include "LoopbackVenue.h"

#include "Engine.h"
#include "Report.h"
#include "StreamSnapshot.h"
#include "book/Crc32.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtWebSockets/QWebSocket>

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

// A Kraken-like venue: per symbol a book of price text → quantity text (ordered by value), at
// depth 10; every message it sends carries the checksum of its own book.
class KrakenBookServer {
public:
    struct Book {
        BookSide bids;
        BookSide asks;
    };

    KrakenBookServer()
        : m_venue(QStringLiteral("kraken"), [this](QWebSocket *s, const QString &text) { onRequest(s, text); })
    {
    }

    bool listen() { return m_venue.listen(); }
    QUrl url() const { return m_venue.wsUrl(QStringLiteral("/v2")); }
    Book &book(const QString &symbol) { return m_books[symbol]; }
    int subscribes(const QString &symbol) const { return m_subscribes.value(symbol); }
    int unsubscribes(const QString &symbol) const { return m_unsubscribes.value(symbol); }
    int connections() const { return m_venue.accepted(); }

    // The venue's book changes by one bid; `wire` is the quantity the message says (a corruption
    // on the way when it differs from `qty`).
    void updateBid(const QString &symbol, const QString &price, const QString &qty, const QString &wire = {})
    {
        Book &b = m_books[symbol];
        setLevel(b.bids, price, qty);
        const QString sent = wire.isEmpty() ? qty : wire;
        send(symbol, QStringLiteral("update"), QStringLiteral("[{\"price\":%1,\"qty\":%2}]").arg(price, sent),
             QStringLiteral("[]"));
    }

private:
    static QString levels(const std::vector<std::pair<QString, QString>> &side)
    {
        QStringList items;
        for (const auto &[p, q] : side)
            items << QStringLiteral("{\"price\":%1,\"qty\":%2}").arg(p, q);
        return QLatin1Char('[') + items.join(QLatin1Char(',')) + QLatin1Char(']');
    }
    // Best first, at most 10 a side.
    static std::vector<std::pair<QString, QString>> top(const Book &b, bool asks)
    {
        return bestFirst(asks ? b.asks : b.bids, asks, 10);
    }
    // Kraken's checksum of its own book, from the text: '.' and leading zeros removed.
    static quint32 checksum(const Book &b)
    {
        QByteArray s;
        for (const bool asks : {true, false}) {
            for (const auto &[p, q] : top(b, asks)) {
                for (QString t : {p, q}) {
                    t.remove(QLatin1Char('.'));
                    while (t.startsWith(QLatin1Char('0')))
                        t.remove(0, 1);
                    s += t.toLatin1();
                }
            }
        }
        return book::crc32(std::string_view(s.constData(), std::size_t(s.size())));
    }
    void send(const QString &symbol, const QString &type, const QString &bids, const QString &asks)
    {
        const QString text = QStringLiteral(R"({"channel":"book","type":"%1","data":[{"symbol":"%2","bids":%3,)"
                                            R"("asks":%4,"checksum":%5,"timestamp":"2026-12-02T14:00:00.000000Z"}]})")
                                 .arg(type, symbol, bids, asks)
                                 .arg(checksum(m_books[symbol]));
        if (m_subscribed.contains(symbol))
            m_venue.broadcast(text);
    }
    void onRequest(QWebSocket *s, const QString &text)
    {
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
        const QString method = o.value(QStringLiteral("method")).toString();
        const QJsonObject params = o.value(QStringLiteral("params")).toObject();
        if (params.value(QStringLiteral("channel")).toString() != QLatin1String("book"))
            return;
        for (const QJsonValue &v : params.value(QStringLiteral("symbol")).toArray()) {
            const QString symbol = v.toString();
            s->sendTextMessage(QStringLiteral(R"({"method":"%1","result":{"channel":"book","depth":10,"symbol":"%2"},)"
                                              R"("success":true,"time_in":"2026-12-02T14:00:00.000000Z",)"
                                              R"("time_out":"2026-12-02T14:00:00.000050Z"})")
                                   .arg(method, symbol));
            if (method == QLatin1String("subscribe")) {
                ++m_subscribes[symbol];
                m_subscribed.insert(symbol);
                const Book &b = m_books[symbol];
                send(symbol, QStringLiteral("snapshot"), levels(top(b, false)), levels(top(b, true)));
            } else if (method == QLatin1String("unsubscribe")) {
                ++m_unsubscribes[symbol];
                m_subscribed.remove(symbol);
            }
        }
    }

    QHash<QString, Book> m_books;
    QSet<QString> m_subscribed;
    QHash<QString, int> m_subscribes;
    QHash<QString, int> m_unsubscribes;
    LoopbackVenue m_venue; // last: it goes first
};

void fillKrakenBook(KrakenBookServer::Book &b, double mid)
{
    for (int i = 1; i <= 12; ++i) {
        setLevel(b.bids, QString::number(mid - i * 0.5, 'f', 1),
                 QStringLiteral("1.%1").arg(i, 8, 10, QLatin1Char('0')));
        setLevel(b.asks, QString::number(mid + i * 0.5, 'f', 1),
                 QStringLiteral("2.%1").arg(i, 8, 10, QLatin1Char('0')));
    }
}

} // namespace

class TestKrakenBooksLoopback : public QObject {
    Q_OBJECT
private slots:
    void checksumMismatchResubscribesOneBook();
};

void TestKrakenBooksLoopback::checksumMismatchResubscribesOneBook()
{
    KrakenBookServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTC/USD");
    const QString eth = QStringLiteral("ETH/USD");
    fillKrakenBook(venue.book(btc), 45000.0);
    fillKrakenBook(venue.book(eth), 2000.0);

    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("kraken-books");
    c.venue = Venue("kraken");
    c.url = venue.url();
    c.subscribe = {QStringLiteral("book:") + btc, QStringLiteral("book:") + eth};
    c.pingIntervalMs = 0;
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, eth).state, BookState::Synced, scaledMs(10000));
    QCOMPARE(bookOf(engine, id, btc).bidLevels, 10); // the snapshot at depth 10

    // A good update: a new best bid pushes the 10th out of the subscribed depth.
    venue.updateBid(btc, QStringLiteral("45000.0"), QStringLiteral("0.50000000"));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(3), scaledMs(5000));
    BookStatus b = bookOf(engine, id, btc);
    QCOMPARE(b.state, BookState::Synced);
    QCOMPARE(b.checksumFailures, quint64(0));
    QCOMPARE(b.bidLevels, 10);

    // Corrupted on the way: the venue's book (and its checksum) holds 0.2, the wire says 0.3.
    venue.updateBid(btc, QStringLiteral("44999.5"), QStringLiteral("0.20000000"), QStringLiteral("0.30000000"));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).checksumFailures, quint64(1), scaledMs(5000));
    QTRY_COMPARE_WITH_TIMEOUT(venue.unsubscribes(btc), 1, scaledMs(5000));
    QTRY_COMPARE_WITH_TIMEOUT(venue.subscribes(btc), 2, scaledMs(5000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, btc).state, BookState::Synced, scaledMs(10000));

    // Synced again from the new snapshot: the next good update checks out.
    venue.updateBid(btc, QStringLiteral("44998.0"), QStringLiteral("3.00000000"));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(6), scaledMs(5000));
    b = bookOf(engine, id, btc);
    QCOMPARE(b.state, BookState::Synced);
    QCOMPARE(b.checksumFailures, quint64(1));
    QCOMPARE(b.resyncs, quint64(1));
    QVERIFY2(b.lastResyncReason.startsWith(QLatin1String("checksum mismatch")), qPrintable(b.lastResyncReason));

    // The other book and the connection went on.
    const BookStatus e = bookOf(engine, id, eth);
    QCOMPARE(e.state, BookState::Synced);
    QCOMPARE(e.resyncs, quint64(0));
    QCOMPARE(venue.unsubscribes(eth), 0);
    QCOMPARE(venue.subscribes(eth), 1);
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    QCOMPARE(venue.connections(), 1);

    // The report's books entry.
    const QJsonObject report = app::buildReport(engine.snapshot(true), 1.0);
    QJsonObject entry;
    for (const QJsonValue &v :
         report.value(QStringLiteral("streams")).toArray().at(0).toObject().value(QStringLiteral("books")).toArray())
        if (v.toObject().value(QStringLiteral("instrument")).toString() == btc)
            entry = v.toObject();
    QCOMPARE(entry.value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
    QCOMPARE(entry.value(QStringLiteral("checksum_failures")).toInt(), 1);
    QCOMPARE(entry.value(QStringLiteral("resyncs")).toInt(), 1);
    QCOMPARE(entry.value(QStringLiteral("bid_levels")).toInt(), 10);
    QVERIFY(
        entry.value(QStringLiteral("last_resync_reason")).toString().startsWith(QLatin1String("checksum mismatch")));
    QVERIFY(entry.value(QStringLiteral("time_to_sync_ms")).toInt() >= 0);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestKrakenBooksLoopback)
#include "tst_krakenbooksloopback.moc"
