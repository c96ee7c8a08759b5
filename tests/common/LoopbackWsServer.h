#pragma once

// A websocket server on 127.0.0.1 (on a port the system picks) for the engine's class tests,
// driven from the test's own thread. Each connection gets the feed set for its URL path:
// Binance depth updates of BTCUSDT numbered 1, 2, 3... on that connection (U = u, so that a
// lost or doubled one is a sequence gap), either a fixed number of them or a firehose until
// the connection goes. It sends only while the socket holds less than kWriteCapBytes unsent
// (then it waits for bytesWritten), so a firehose runs at the client's pace without filling
// memory or spinning. It keeps what each
// connection sent and answers a control request ({"method":..,"id":N}) with
// {"result":null,"id":N}, as Binance does.
//
// Thread contract: the thread that creates it; its event loop must run (QTRY_*, spy.wait()).

#include <QtCore/QDateTime>
#include <QtCore/QHash>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QStringList>
#include <QtCore/QTimer>
#include <QtNetwork/QHostAddress>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include <algorithm>
#include <deque>

namespace streamscope::testing {

class LoopbackWsServer {
public:
    static constexpr qint64 kFirehose = -1;
    static constexpr qint64 kWriteCapBytes = 256 * 1024;
    static constexpr int kChunk = 64; // messages per connection per turn of the event loop

    struct Peer {
        QPointer<QWebSocket> socket;
        QString path;
        qint64 toSend = 0; // still to send; kFirehose: until it goes
        qint64 sent = 0;
        QStringList received;
        bool open = true;
    };

    LoopbackWsServer()
    {
        QObject::connect(&m_server, &QWebSocketServer::newConnection, &m_context, [this] { accept(); });
        m_pump.setInterval(0);
        QObject::connect(&m_pump, &QTimer::timeout, &m_context, [this] { pump(); });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QUrl url(const QString &path) const
    {
        return QUrl(QStringLiteral("ws://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path));
    }
    // What a new connection to `path` receives; 0 (the default): nothing.
    void setFeed(const QString &path, qint64 count) { m_feeds.insert(path, count); }

    const std::deque<Peer> &peers() const { return m_peers; }
    int accepted(const QString &path) const
    {
        return int(std::count_if(m_peers.begin(), m_peers.end(), [&](const Peer &p) { return p.path == path; }));
    }
    int open(const QString &path) const
    {
        return int(
            std::count_if(m_peers.begin(), m_peers.end(), [&](const Peer &p) { return p.path == path && p.open; }));
    }
    // The last connection to `path`; null when none came.
    const Peer *last(const QString &path) const
    {
        for (auto it = m_peers.rbegin(); it != m_peers.rend(); ++it)
            if (it->path == path)
                return &*it;
        return nullptr;
    }
    // Closes every open connection to `path` with a close frame.
    void close(const QString &path, QWebSocketProtocol::CloseCode code)
    {
        for (Peer &p : m_peers)
            if (p.path == path && p.socket)
                p.socket->close(code, QStringLiteral("closed by the test"));
    }

private:
    void accept()
    {
        while (QWebSocket *socket = m_server.nextPendingConnection()) {
            socket->setParent(&m_context);
            Peer &peer = m_peers.emplace_back();
            peer.socket = socket;
            peer.path = socket->requestUrl().path();
            peer.toSend = m_feeds.value(peer.path, 0);
            QObject::connect(
                socket, &QWebSocket::textMessageReceived, &m_context, [socket, &peer](const QString &text) {
                    peer.received << text;
                    const QJsonObject request = QJsonDocument::fromJson(text.toUtf8()).object();
                    if (request.contains(QLatin1String("method")) && request.contains(QLatin1String("id")))
                        socket->sendTextMessage(QString::fromUtf8(
                            QJsonDocument(QJsonObject{{QStringLiteral("result"), QJsonValue::Null},
                                                      {QStringLiteral("id"), request.value(QLatin1String("id"))}})
                                .toJson(QJsonDocument::Compact)));
                });
            QObject::connect(socket, &QWebSocket::disconnected, &m_context, [socket, &peer] {
                peer.open = false;
                socket->deleteLater();
            });
            QObject::connect(socket, &QWebSocket::bytesWritten, &m_context, [this, &peer] {
                if (peer.toSend != 0 && !m_pump.isActive())
                    m_pump.start();
            });
            if (peer.toSend != 0)
                m_pump.start();
        }
    }

    void pump()
    {
        bool more = false;
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        for (Peer &p : m_peers) {
            if (!p.open || !p.socket || p.toSend == 0)
                continue;
            for (int i = 0; i < kChunk && p.toSend != 0 && p.socket->bytesToWrite() < kWriteCapBytes; ++i) {
                ++p.sent;
                p.socket->sendTextMessage(
                    QStringLiteral("{\"e\":\"depthUpdate\",\"E\":%1,\"s\":\"BTCUSDT\",\"U\":%2,\"u\":%2,\"b\":[],"
                                   "\"a\":[]}")
                        .arg(nowMs)
                        .arg(p.sent));
                if (p.toSend > 0)
                    --p.toSend;
            }
            // A connection that is full waits for bytesWritten to start the pump again.
            more = more || (p.toSend != 0 && p.socket->bytesToWrite() < kWriteCapBytes);
        }
        if (!more)
            m_pump.stop();
    }

    QWebSocketServer m_server{QStringLiteral("loopback"), QWebSocketServer::NonSecureMode};
    QTimer m_pump;
    QHash<QString, qint64> m_feeds;
    std::deque<Peer> m_peers;
    QObject m_context; // first to go: the connections and their handlers with it
};

} // namespace streamscope::testing
