#pragma once

#include "BuiltinCertificate.h"
#include "ReplayOptions.h"

#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QString>

#include <algorithm>
#include <atomic>

class QTcpServer;

namespace streamscope::replay {

class PaceTicker;
class ReplayConnection;

// A market-data replay server on 127.0.0.1 for benchmarks, tests and the demo: websocket
// (Binance-like) or CRLF lines (Betfair-like), plain or TLS, serving the scenarios of
// docs/benchmarks.md and misbehaving on request (see ReplayOptions).
//
// The websocket side is our own small RFC 6455 server on QTcpServer/QSslServer, not
// QWebSocketServer, because it must send what QWebSocketServer never would: frames with
// reserved bits, invalid UTF-8, pre-serialized frames written in large batches.
//
// Thread contract: lives on the thread that creates it (or the one it is moved to before
// listen()); all sockets are created and served there. totalSent() and connectionCount()
// may be read from any thread; dropAllConnections() and setSilent() may be called from any
// thread (from another one they are queued). Owns its connections.
class ReplayServer : public QObject {
    Q_OBJECT
public:
    explicit ReplayServer(const ReplayOptions &options = {}, QObject *parent = nullptr);
    ~ReplayServer() override;

    bool listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0);
    void close();
    // Stops accepting connections (later ones are refused); the open ones go on.
    void stopListening();
    bool isListening() const;
    quint16 port() const;
    QString errorString() const { return m_errorString; }

    // Data messages sent over all connections since construction.
    quint64 totalSent() const { return m_totalSent.load(std::memory_order_relaxed); }
    // Clients with a completed handshake that are still connected.
    int connectionCount() const { return m_connectionCount.load(std::memory_order_relaxed); }
    // Aborts every client socket now (no close frame): a network failure, for reconnect tests.
    void dropAllConnections();
    // Stops (true) or resumes (false) data on every connection, present and future.
    void setSilent(bool silent);

    // For ReplayConnection, on the server's thread.
    // The one timer of every paced connection (PaceTicker.h).
    PaceTicker &paceTicker() { return *m_paceTicker; }
    void addSent(quint64 n) { m_totalSent.fetch_add(n, std::memory_order_relaxed); }
    // The drop misbehaviour fires once per request target unless drop_every is set: true if
    // this connection is the first one for key.
    bool claimDrop(const QString &key);
    // Shared markets (ReplayOptions::market): the furthest event index any connection of
    // `scenario` has sent.
    quint64 marketPosition(const QString &scenario) const { return m_markets.value(scenario); }
    void advanceMarket(const QString &scenario, quint64 position)
    {
        quint64 &p = m_markets[scenario];
        p = std::max(p, position);
    }
    bool isSilent() const { return m_silent; }
    // Book scenarios (DepthSnapshot.h): the last depth diff a connection of `scenario` sent, its
    // pool index and its `u`, which the REST snapshot answers at. The latest connection's.
    struct DepthPosition {
        qint64 poolIndex = -1; // none sent yet
        quint64 lastUpdateId = 0;
    };
    void noteDepth(const QString &scenario, qint64 poolIndex, quint64 lastUpdateId)
    {
        m_depth.insert(scenario, {poolIndex, lastUpdateId});
    }
    DepthPosition depthPosition(const QString &scenario) const { return m_depth.value(scenario); }
    // depth_books: a connection serving the instruments [first, first + count) in turn has
    // moved `diffs` diffs on (its sequence position); the latest connection's word for each
    // `first`. The position of one instrument's last diff from that (with `poolSize` messages in
    // the pool, which each instrument walks in order).
    void noteDepthRange(const QString &scenario, quint64 first, quint64 count, quint64 diffs)
    {
        m_depthRanges[scenario].insert(first, {count, diffs});
    }
    DepthPosition depthPosition(const QString &scenario, quint64 instrument, std::size_t poolSize) const;

signals:
    void clientConnected();
    void clientDisconnected();
    void controlReceived(const QString &text);

private:
    void onPendingConnection();
    void onConnectionOpened();
    void onConnectionClosed();

    ReplayOptions m_options;
    QTcpServer *m_tcpServer = nullptr;
    PaceTicker *m_paceTicker = nullptr; // a child, made first
    QSet<ReplayConnection *> m_connections;
    QSet<QString> m_droppedKeys;
    QHash<QString, quint64> m_markets;
    QHash<QString, DepthPosition> m_depth;
    struct DepthRange {
        quint64 count = 1;
        quint64 diffs = 0;
    };
    QHash<QString, QMap<quint64, DepthRange>> m_depthRanges;
    QString m_errorString;
    quint64 m_serial = 0;
    bool m_silent = false;
    std::atomic<quint64> m_totalSent{0};
    std::atomic<int> m_connectionCount{0};
};

} // namespace streamscope::replay
