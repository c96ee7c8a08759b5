#pragma once

// Prometheus/OpenMetrics endpoint: GET (or HEAD) /metrics renders every stream's counters,
// state and latency histogram (_bucket/_sum/_count) from a fresh engine snapshot, and
// GET /api/v1/streams the headless report's JSON (docs/report.md), live. Bound to 127.0.0.1
// unless the user asks for another address; for an agent exposed to a network, HTTP basic
// authentication and TLS (setAccess) keep the names and counters to those who may read them. Served by a small bounded HTTP/1.x
// server of our own (HttpConnection, within HttpServerLimits): Qt HttpServer 6.4 cannot
// bound a request or time a connection out (docs/architecture.md, "The metrics endpoint").
// Idle connections cannot stop a scrape: they hold only a share of the slots, and give them
// up oldest first (ConnectionSlots); a request that failed authentication closes its
// connection at once.
//
// Thread contract: lives on the Engine's thread; requests are answered there (a snapshot
// costs the workers nothing). Owns the listening socket and the connections.

#include "ConnectionSlots.h"
#include "HttpServerLimits.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QSslConfiguration>

#include <functional>

class QTcpServer;

namespace streamscope {
class Engine;
}

namespace streamscope::app {

class HttpConnection;
struct HttpRequestHead;
struct HttpResponse;

class MetricsServer : public QObject {
    Q_OBJECT
public:
    explicit MetricsServer(const Engine &engine, QObject *parent = nullptr);
    // Tests shorten the timeouts and the connection cap through `limits`.
    MetricsServer(const Engine &engine, const HttpServerLimits &limits, QObject *parent = nullptr);
    ~MetricsServer() override;

    // Who may read, set before listen(): with `basicAuth` ("user:password") every request
    // must carry those credentials (401 and no data otherwise); with `tls` (a configuration
    // holding a certificate and its key) connections are TLS only.
    struct Access {
        QByteArray basicAuth;
        QSslConfiguration tls;
        bool usesTls() const { return !tls.localCertificate().isNull(); }
    };
    void setAccess(const Access &access) { m_access = access; }
    // Whether an Authorization header carries exactly `userColonPassword` (compared in a time
    // that does not depend on where they differ).
    static bool authorized(const QByteArray &authorization, const QByteArray &userColonPassword);
    // Reads an access file: one line "user:password" (for --metrics-auth-file); false with
    // `error` set when it cannot be read or does not hold that.
    static bool readAuthFile(const QString &path, QByteArray *userColonPassword, QString *error);
    // A TLS configuration from PEM files (for --metrics-tls-cert/-key).
    static bool tlsFromFiles(const QString &certPath, const QString &keyPath, QSslConfiguration *tls, QString *error);

    // Returns the port listened on (useful with 0), or 0 on failure with `error` set.
    quint16 listen(const QHostAddress &address, quint16 port, QString *error);

    // The two exposition formats: OpenMetrics 1.0, and Prometheus's classic text format 0.0.4
    // for scrapers that ask for it (`promtool check metrics` reads only that one).
    enum class Format { OpenMetrics, PrometheusText };
    // The format an Accept header asks for: the classic text format when it prefers text/plain
    // to application/openmetrics-text (by q-value); OpenMetrics otherwise, and when it names
    // neither.
    static Format negotiate(const QByteArray &accept);
    static QByteArray contentType(Format format);

    // The metrics text for the engine's current state.
    static QByteArray render(const Engine &engine, Format format = Format::OpenMetrics);

    // More families appended to every answer (the alerts'); `classic` as for Format::PrometheusText.
    void setExtraMetrics(std::function<QByteArray(bool classic)> render) { m_extra = std::move(render); }

    // Connections open now (at most the limit's maxConnections once a new one is placed).
    int openConnections() const { return m_slots.size(); }

private:
    // Qt accepts from the listening socket for as long as its kernel queue has connections and
    // the pending list is short of maxPendingConnections. Taking them inside newConnection would
    // keep that list empty, so a client re-opening every connection the server closes could
    // hold this thread in one accept loop forever. They are taken from a queued call instead,
    // a pending list's worth a turn of the event loop, so that requests, timers and the engine
    // are served in between.
    void onNewConnection();
    void acceptPending();
    // Closes waiting connections, oldest first, until every count is within its limit; one
    // whose request has arrived is answered instead of closed.
    void makeRoom();
    HttpResponse answer(const HttpRequestHead &request) const;
    // GET /api/v1/streams: the report, and per stream a "live" object (docs/operations.md).
    QByteArray liveReport() const;

    const Engine &m_engine;
    HttpServerLimits m_limits;
    Access m_access;
    QElapsedTimer m_since; // the report's duration
    QTcpServer *m_tcp = nullptr;
    ConnectionSlots m_slots;
    QHash<ConnectionSlots::Id, HttpConnection *> m_connections;
    ConnectionSlots::Id m_lastId = 0;
    bool m_acceptQueued = false;
    std::function<QByteArray(bool)> m_extra;
};

} // namespace streamscope::app
