#pragma once

// Helpers for the venue tests, on top of the integration tests' helpers: stream
// configurations pointed at a replay server on 127.0.0.1 and waits on engine state.

#include "../integration/IntegrationSupport.h"

#include "RecordingHost.h"

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

// What a channel venue's replay scenario run of `count` messages gives once `dataMessages` of
// them were data (with latency: the caller checks that every one carried its event time).
inline StreamSnapshot runChannelScenario(const char *venue, const QString &scenario, const QString &subscription,
                                         quint64 count, quint64 dataMessages)
{
    replay::ReplayServer server;
    if (!server.listen())
        return {};
    Engine engine;
    StreamConfig c = channelStream(venue,
                                   QUrl(QStringLiteral("ws://127.0.0.1:%1/%2?count=%3&wait_subscribe=1")
                                            .arg(server.port())
                                            .arg(scenario)
                                            .arg(count)),
                                   {subscription});
    c.pingIntervalMs = 60000; // no keep-alive within the run: the message counts stay exact
    const StreamId id = engine.addStream(c);
    // A run that does not get there returns what it got, for the caller's comparisons to show.
    const bool arrived =
        QTest::qWaitFor([&] { return snap(engine, id).dataMessages >= dataMessages; }, scaledMs(20000));
    Q_UNUSED(arrived);
    return engine.snapshot(id, true);
}

// A stream of `venue` subscribing `subscription` on `server` (which answers with its
// onSubscribe replies), once it has counted `venueErrors` venue errors and `venueNotices`
// notices, or the wait ran out (the caller's comparisons then show what it got).
inline StreamSnapshot afterVenueReplies(const char *venue, LoopbackVenueServer &server, const QString &subscription,
                                        quint64 venueErrors, quint64 venueNotices)
{
    Engine engine;
    const StreamId id = engine.addStream(channelStream(venue, server.url(), {subscription}));
    const bool arrived = QTest::qWaitFor(
        [&] {
            const StreamSnapshot s = snap(engine, id);
            return s.venueErrors >= venueErrors && s.venueNotices >= venueNotices;
        },
        scaledMs(10000));
    Q_UNUSED(arrived);
    return snap(engine, id);
}

// A channel venue's keep-alive against its replay scenario: `ping_interval_ms` 300, at least
// four pings, each answered, no reconnect; a pong is no data. Returns false (with a message)
// when not.
inline bool keepAliveAnsweredByReplay(const char *venue, const QString &scenario, const QString &subscription,
                                      QString *why)
{
    replay::ReplayServer server;
    if (!server.listen())
        return false;
    Engine engine;
    StreamConfig c = channelStream(
        venue, QUrl(QStringLiteral("ws://127.0.0.1:%1/%2?count=10&wait_subscribe=1").arg(server.port()).arg(scenario)),
        {subscription});
    c.pingIntervalMs = 300;
    c.pongTimeoutMs = 60000; // only the keep-alive's own rule could call the connection dead
    const StreamId id = engine.addStream(c);
    const bool ok = QTest::qWaitFor([&] { return snap(engine, id).dataMessages == 10; }, scaledMs(10000))
        && QTest::qWaitFor([&] { return snap(engine, id).outgoingPings >= 4; }, scaledMs(15000));
    const StreamSnapshot s = snap(engine, id);
    *why = QStringLiteral("data %1, pings %2, control %3, reconnects %4, parse errors %5, errors %6")
               .arg(s.dataMessages)
               .arg(s.outgoingPings)
               .arg(s.controlMessages)
               .arg(s.reconnects)
               .arg(s.parseErrors)
               .arg(s.errors);
    // Each ping answered (the last may be on its way).
    return ok && s.reconnects == 0 && s.parseErrors == 0 && s.errors == 0 && s.dataMessages == 10
        && s.controlMessages + 1 >= s.outgoingPings;
}

} // namespace streamscope::testing
