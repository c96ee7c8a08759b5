#pragma once

// Helpers for the venue tests, on top of the integration tests' helpers: stream
// configurations pointed at a replay server on 127.0.0.1 and waits on engine state.

#include "../integration/IntegrationSupport.h"

#include "stats/StreamShared.h"
#include "venues/VenueHost.h"

#include <QtCore/QPointer>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

namespace streamscope::testing {

inline StreamConfig binanceStream(quint16 port, const QString &pathAndQuery)
{
    return wsStream(QStringLiteral("binance"), port, pathAndQuery);
}

// A stream of a venue whose subscriptions are "channel:instrument" pairs (OKX, Bybit,
// Hyperliquid), quick to reconnect.
inline StreamConfig channelStream(const char *venue, const QUrl &url, const QStringList &subscribe)
{
    StreamConfig c;
    c.name = QString::fromLatin1(venue);
    c.venue = Venue(venue);
    c.url = url;
    c.subscribe = subscribe;
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    c.stallTimeoutMs = 60000;
    return c;
}

// A host that keeps what the handler reports; nothing is sent anywhere.
struct RecordingHost final : VenueHost {
    void sendOn(int, const QString &text, const QString &, const QString &) override { sent << text; }
    void venueEvent(EventKind kind, const QString &text) override { events << qMakePair(kind, text); }
    void venueFailed(const QString &) override { }
    void venueReconnect(const QString &) override { }
    void venueStalled(const QString &) override { }
    void rollOver(int, const QString &) override { }
    StreamShared &shared() override { return m_shared; }
    qint64 monotonicMs() const override { return 0; }
    qint64 wallMs() const override { return 1700000000000; }
    StreamShared m_shared{1, StreamConfig{}};
    QStringList sent;
    QList<QPair<EventKind, QString>> events;
};

// A websocket server of the test's own on 127.0.0.1 (not the replay server): it keeps what its
// clients send, answers the venue's keep-alive `ping` (the exact text) with `pong` while
// `answerPings`, and anything else with `onSubscribe`.
class LoopbackVenueServer : public QObject {
public:
    LoopbackVenueServer(const QString &path, const QString &ping, const QString &pong)
        : m_server(QStringLiteral("venue-like"), QWebSocketServer::NonSecureMode)
        , m_path(path)
    {
        connect(&m_server, &QWebSocketServer::newConnection, this, [this, ping, pong] {
            while (QWebSocket *socket = m_server.nextPendingConnection()) {
                ++connections;
                socket->setParent(this);
                sockets << socket;
                connect(socket, &QWebSocket::textMessageReceived, this,
                        [this, socket, ping, pong](const QString &text) {
                            received << text;
                            if (text == ping) {
                                ++pings;
                                if (answerPings)
                                    socket->sendTextMessage(pong);
                                return;
                            }
                            for (const QString &reply : std::as_const(onSubscribe))
                                socket->sendTextMessage(reply);
                        });
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl url() const { return QUrl(QStringLiteral("ws://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(m_path)); }
    // What the clients sent but the keep-alive pings.
    QStringList requests() const
    {
        QStringList out;
        for (const QString &text : received)
            if (!text.contains(QLatin1String("ping")))
                out << text;
        return out;
    }

    // Sends `text` to every client still connected.
    void broadcast(const QString &text)
    {
        for (const QPointer<QWebSocket> &socket : std::as_const(sockets))
            if (socket && socket->state() == QAbstractSocket::ConnectedState)
                socket->sendTextMessage(text);
    }

    bool answerPings = true;
    QStringList onSubscribe;
    QList<QPointer<QWebSocket>> sockets;
    QStringList received;
    int connections = 0;
    int pings = 0;

private:
    QWebSocketServer m_server;
    QString m_path;
};

inline StreamSnapshot snap(const Engine &engine, StreamId id)
{
    return engine.snapshot(id);
}

} // namespace streamscope::testing
