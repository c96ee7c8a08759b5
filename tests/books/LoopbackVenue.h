#pragma once

// What the order-book tests' venues on 127.0.0.1 share (BookVenueServer.h, SnapshotVenueServer.h,
// tst_bybitbookaudit, tst_krakenbooksloopback): a book side kept as the venue writes it, and the
// plumbing of a venue's websocket server (its connections, a text to all of them, the client's
// requests) and of its REST server (one GET a connection, answered and closed). Each venue's
// messages and answers are its own test's.
//
// Thread contract: the test's thread; its event loop must run.

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include <functional>
#include <map>
#include <utility>
#include <vector>

namespace streamscope::testing {

// One side of a venue's book: price value → (price text, quantity text), as the venue writes them.
using BookSide = std::map<double, std::pair<QString, QString>>;

// Sets the level at `price`; a quantity of zero removes it.
inline void setLevel(BookSide &side, const QString &price, const QString &qty)
{
    if (qty.toDouble() == 0.0)
        side.erase(price.toDouble());
    else
        side[price.toDouble()] = {price, qty};
}

// The side's levels best first (bids from the highest price, asks from the lowest), at most `limit`.
inline std::vector<std::pair<QString, QString>> bestFirst(const BookSide &side, bool asks, int limit)
{
    std::vector<std::pair<QString, QString>> out;
    const auto take = [&out, limit](auto begin, auto end) {
        for (auto it = begin; it != end && int(out.size()) < limit; ++it)
            out.push_back(it->second);
    };
    if (asks)
        take(side.begin(), side.end());
    else
        take(side.rbegin(), side.rend());
    return out;
}

class LoopbackVenue {
public:
    // A text from a client (its requests).
    using TextHandler = std::function<void(QWebSocket *socket, const QString &text)>;
    // A GET's status line text ("200 OK", or with header lines after it) and JSON body.
    struct Answer {
        QByteArray status;
        QByteArray body;
    };
    using GetHandler = std::function<Answer(const QUrl &target)>;

    // `onGet` empty: no REST server.
    explicit LoopbackVenue(const QString &name, TextHandler onText = {}, GetHandler onGet = {})
        : m_ws(name, QWebSocketServer::NonSecureMode)
        , m_onText(std::move(onText))
        , m_onGet(std::move(onGet))
    {
        QObject::connect(&m_ws, &QWebSocketServer::newConnection, &m_context, [this] {
            while (QWebSocket *s = m_ws.nextPendingConnection()) {
                s->setParent(&m_context);
                m_sockets.append(s);
                if (m_onText)
                    QObject::connect(s, &QWebSocket::textMessageReceived, &m_context,
                                     [this, s](const QString &text) { m_onText(s, text); });
            }
        });
        QObject::connect(&m_http, &QTcpServer::newConnection, &m_context, [this] {
            while (QTcpSocket *s = m_http.nextPendingConnection()) {
                s->setParent(&m_context);
                QObject::connect(s, &QTcpSocket::readyRead, &m_context, [this, s] { serve(s); });
            }
        });
    }

    bool listen()
    {
        return m_ws.listen(QHostAddress::LocalHost, 0) && (!m_onGet || m_http.listen(QHostAddress::LocalHost, 0));
    }
    // ws://127.0.0.1:<port><pathAndQuery>
    QUrl wsUrl(const QString &pathAndQuery) const
    {
        return QUrl(QStringLiteral("ws://127.0.0.1:%1%2").arg(m_ws.serverPort()).arg(pathAndQuery));
    }
    QUrl restUrl() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_http.serverPort())); }
    // Connections accepted, and those still open.
    int accepted() const { return int(m_sockets.size()); }
    int open() const
    {
        int n = 0;
        for (const QPointer<QWebSocket> &s : m_sockets)
            n += s && s->state() == QAbstractSocket::ConnectedState ? 1 : 0;
        return n;
    }
    // `text` to every open connection.
    void broadcast(const QString &text)
    {
        for (const QPointer<QWebSocket> &s : m_sockets)
            if (s && s->state() == QAbstractSocket::ConnectedState)
                s->sendTextMessage(text);
    }

private:
    void serve(QTcpSocket *s)
    {
        QByteArray &in = m_requests[s];
        in += s->readAll();
        if (!in.contains("\r\n\r\n"))
            return;
        const QUrl target(QString::fromLatin1(in.left(in.indexOf("\r\n")).split(' ').value(1)));
        m_requests.remove(s);
        const Answer a = m_onGet(target);
        s->write("HTTP/1.1 " + a.status + "\r\nContent-Type: application/json\r\nContent-Length: "
                 + QByteArray::number(a.body.size()) + "\r\nConnection: close\r\n\r\n" + a.body);
        s->disconnectFromHost();
    }

    QObject m_context;
    QWebSocketServer m_ws;
    QTcpServer m_http;
    TextHandler m_onText;
    GetHandler m_onGet;
    QList<QPointer<QWebSocket>> m_sockets;
    QHash<QTcpSocket *, QByteArray> m_requests;
};

} // namespace streamscope::testing
