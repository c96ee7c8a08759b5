#pragma once

// A Binance-like venue on 127.0.0.1 for the order-book tests, written here and driven by the
// test step by step: a websocket server for the combined depth stream (/stream?streams=...)
// and an HTTP server for its REST snapshot (/api/v3/depth?symbol=X&limit=N) and server time.
// The venue keeps each symbol's true book and update id; diff() changes the true book and
// sends the change with the next ids, corrupt() sends a quantity the true book does not get
// (every id still consecutive), skip() lets ids go by unsent (a real gap). The snapshot is the
// true book at the id of the moment it is asked for.
//
// Thread contract: the test's thread; its event loop must run (QTRY_*).

#include "LoopbackVenue.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMap>
#include <QtCore/QUrlQuery>

#include <climits>

namespace streamscope::testing {

class BookVenueServer {
public:
    // One side: price text → quantity text, as Binance writes them; ordered by price value.
    struct Book {
        BookSide bids;
        BookSide asks;
        qint64 id = 1000;
    };

    BookVenueServer()
        : m_venue(QStringLiteral("books"), {}, [this](const QUrl &target) { return answer(target); })
    {
    }

    bool listen() { return m_venue.listen(); }
    QUrl streamUrl(const QStringList &symbols) const
    {
        QStringList names;
        for (const QString &s : symbols)
            names << s.toLower() + QStringLiteral("@depth@100ms");
        return m_venue.wsUrl(QStringLiteral("/stream?streams=") + names.join(QLatin1Char('/')));
    }
    QUrl restUrl() const { return m_venue.restUrl(); }
    int connections() const { return m_venue.open(); }
    int snapshotRequests(const QString &symbol) const { return m_snapshotRequests.value(symbol); }
    Book &book(const QString &symbol) { return m_books[symbol]; }

    // The venue's book changes: sent as the next diff.
    void diff(const QString &symbol, const QList<QPair<QString, QString>> &bids,
              const QList<QPair<QString, QString>> &asks)
    {
        Book &b = m_books[symbol];
        apply(b.bids, bids);
        apply(b.asks, asks);
        send(symbol, bids, asks);
    }
    // A diff whose levels differ from the venue's change: `sentBids` go on the wire, `trueBids`
    // into the venue's book. The ids stay consecutive.
    void corrupt(const QString &symbol, const QList<QPair<QString, QString>> &trueBids,
                 const QList<QPair<QString, QString>> &sentBids)
    {
        apply(m_books[symbol].bids, trueBids);
        send(symbol, sentBids, {});
    }
    // The next `n` snapshot requests are answered 429 with Retry-After: `retryAfterS`.
    void refuseNext(int n, int retryAfterS)
    {
        m_refuse = n;
        m_retryAfterS = retryAfterS;
    }
    // `n` updates that nobody receives.
    void skip(const QString &symbol, int n) { m_books[symbol].id += n; }

private:
    static void apply(BookSide &side, const QList<QPair<QString, QString>> &levels)
    {
        for (const auto &[p, q] : levels)
            setLevel(side, p, q);
    }
    static QJsonArray levelsJson(const QList<QPair<QString, QString>> &levels)
    {
        QJsonArray a;
        for (const auto &[p, q] : levels)
            a.append(QJsonArray{p, q});
        return a;
    }
    void send(const QString &symbol, const QList<QPair<QString, QString>> &bids,
              const QList<QPair<QString, QString>> &asks)
    {
        Book &b = m_books[symbol];
        const qint64 first = b.id + 1;
        b.id = first;
        const QJsonObject data{{QStringLiteral("e"), QStringLiteral("depthUpdate")},
                               {QStringLiteral("E"), QDateTime::currentMSecsSinceEpoch()},
                               {QStringLiteral("s"), symbol},
                               {QStringLiteral("U"), first},
                               {QStringLiteral("u"), b.id},
                               {QStringLiteral("b"), levelsJson(bids)},
                               {QStringLiteral("a"), levelsJson(asks)}};
        const QJsonObject message{{QStringLiteral("stream"), symbol.toLower() + QStringLiteral("@depth@100ms")},
                                  {QStringLiteral("data"), data}};
        m_venue.broadcast(QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
    }
    QByteArray snapshot(const QString &symbol)
    {
        Book &b = m_books[symbol];
        const auto side = [](const BookSide &levels, bool asks) {
            QJsonArray a;
            for (const auto &[price, qty] : bestFirst(levels, asks, INT_MAX))
                a.append(QJsonArray{price, qty});
            return a;
        };
        return QJsonDocument(QJsonObject{{QStringLiteral("lastUpdateId"), b.id},
                                         {QStringLiteral("bids"), side(b.bids, false)},
                                         {QStringLiteral("asks"), side(b.asks, true)}})
            .toJson(QJsonDocument::Compact);
    }
    LoopbackVenue::Answer answer(const QUrl &target)
    {
        if (target.path() == QLatin1String("/api/v3/depth")) {
            const QString symbol = QUrlQuery(target).queryItemValue(QStringLiteral("symbol"));
            ++m_snapshotRequests[symbol];
            if (m_refuse > 0) {
                --m_refuse;
                return {"429 Too Many Requests\r\nRetry-After: " + QByteArray::number(m_retryAfterS),
                        R"({"code":-1003,"msg":"Too many requests."})"};
            }
            return {"200 OK", snapshot(symbol)};
        }
        if (target.path() == QLatin1String("/api/v3/time"))
            return {"200 OK", "{\"serverTime\":" + QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + '}'};
        return {"404 Not Found", "{}"};
    }

    QMap<QString, Book> m_books;
    QHash<QString, int> m_snapshotRequests;
    int m_refuse = 0;
    int m_retryAfterS = 0;
    LoopbackVenue m_venue; // last: it goes first
};

} // namespace streamscope::testing
