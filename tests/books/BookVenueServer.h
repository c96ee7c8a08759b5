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

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMap>
#include <QtCore/QPointer>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include <map>

namespace streamscope::testing {

class BookVenueServer {
public:
    // One side: price text → quantity text, as Binance writes them; ordered by price value.
    struct Book {
        std::map<double, std::pair<QString, QString>> bids;
        std::map<double, std::pair<QString, QString>> asks;
        qint64 id = 1000;
    };

    BookVenueServer()
        : m_ws(QStringLiteral("books"), QWebSocketServer::NonSecureMode)
    {
        QObject::connect(&m_ws, &QWebSocketServer::newConnection, &m_context, [this] {
            while (QWebSocket *s = m_ws.nextPendingConnection()) {
                s->setParent(&m_context);
                m_sockets.append(s);
            }
        });
        QObject::connect(&m_http, &QTcpServer::newConnection, &m_context, [this] {
            while (QTcpSocket *s = m_http.nextPendingConnection()) {
                s->setParent(&m_context);
                QObject::connect(s, &QTcpSocket::readyRead, &m_context, [this, s] { serve(s); });
            }
        });
    }

    bool listen() { return m_ws.listen(QHostAddress::LocalHost, 0) && m_http.listen(QHostAddress::LocalHost, 0); }
    QUrl streamUrl(const QStringList &symbols) const
    {
        QStringList names;
        for (const QString &s : symbols)
            names << s.toLower() + QStringLiteral("@depth@100ms");
        return QUrl(QStringLiteral("ws://127.0.0.1:%1/stream?streams=%2")
                        .arg(m_ws.serverPort())
                        .arg(names.join(QLatin1Char('/'))));
    }
    QUrl restUrl() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_http.serverPort())); }
    int connections() const
    {
        int n = 0;
        for (const QPointer<QWebSocket> &s : m_sockets)
            n += s && s->state() == QAbstractSocket::ConnectedState ? 1 : 0;
        return n;
    }
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
    static void apply(std::map<double, std::pair<QString, QString>> &side, const QList<QPair<QString, QString>> &levels)
    {
        for (const auto &[p, q] : levels) {
            if (q.toDouble() == 0.0)
                side.erase(p.toDouble());
            else
                side[p.toDouble()] = {p, q};
        }
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
        const QString text = QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact));
        for (const QPointer<QWebSocket> &s : m_sockets)
            if (s && s->state() == QAbstractSocket::ConnectedState)
                s->sendTextMessage(text);
    }
    QByteArray snapshot(const QString &symbol)
    {
        Book &b = m_books[symbol];
        QJsonArray bids;
        for (auto it = b.bids.rbegin(); it != b.bids.rend(); ++it)
            bids.append(QJsonArray{it->second.first, it->second.second});
        QJsonArray asks;
        for (const auto &[price, level] : b.asks)
            asks.append(QJsonArray{level.first, level.second});
        return QJsonDocument(QJsonObject{{QStringLiteral("lastUpdateId"), b.id},
                                         {QStringLiteral("bids"), bids},
                                         {QStringLiteral("asks"), asks}})
            .toJson(QJsonDocument::Compact);
    }
    void serve(QTcpSocket *s)
    {
        QByteArray &in = m_requests[s];
        in += s->readAll();
        if (!in.contains("\r\n\r\n"))
            return;
        const QList<QByteArray> line = in.left(in.indexOf("\r\n")).split(' ');
        m_requests.remove(s);
        const QUrl target(QString::fromLatin1(line.value(1)));
        QByteArray body;
        QByteArray status = "200 OK";
        if (target.path() == QLatin1String("/api/v3/depth")) {
            const QString symbol = QUrlQuery(target).queryItemValue(QStringLiteral("symbol"));
            ++m_snapshotRequests[symbol];
            if (m_refuse > 0) {
                --m_refuse;
                status = "429 Too Many Requests\r\nRetry-After: " + QByteArray::number(m_retryAfterS);
                body = R"({"code":-1003,"msg":"Too many requests."})";
            } else {
                body = snapshot(symbol);
            }
        } else if (target.path() == QLatin1String("/api/v3/time")) {
            body = "{\"serverTime\":" + QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + '}';
        } else {
            status = "404 Not Found";
            body = "{}";
        }
        s->write("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: "
                 + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        s->disconnectFromHost();
    }

    QObject m_context;
    QWebSocketServer m_ws;
    QTcpServer m_http;
    QList<QPointer<QWebSocket>> m_sockets;
    QHash<QTcpSocket *, QByteArray> m_requests;
    QMap<QString, Book> m_books;
    QHash<QString, int> m_snapshotRequests;
    int m_refuse = 0;
    int m_retryAfterS = 0;
};

} // namespace streamscope::testing
