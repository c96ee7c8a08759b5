#pragma once

// Prometheus/OpenMetrics endpoint: GET (or HEAD) /metrics renders every stream's counters,
// state and latency histogram (_bucket/_sum/_count) from a fresh engine snapshot. Bound to
// 127.0.0.1 unless the user asks for another address. Served by a small bounded HTTP/1.x
// server of our own (HttpConnection, within HttpServerLimits): Qt HttpServer 6.4 cannot
// bound a request or time a connection out (docs/architecture.md, "The metrics endpoint").
//
// Thread contract: lives on the Engine's thread; requests are answered there (a snapshot
// costs the workers nothing). Owns the listening socket and the connections.

#include "HttpServerLimits.h"

#include <QtCore/QObject>
#include <QtNetwork/QHostAddress>

#include <functional>

class QTcpServer;

namespace streamscope {
class Engine;
}

namespace streamscope::app {

class MetricsServer : public QObject {
    Q_OBJECT
public:
    explicit MetricsServer(const Engine &engine, QObject *parent = nullptr);
    // Tests shorten the timeouts and the connection cap through `limits`.
    MetricsServer(const Engine &engine, const HttpServerLimits &limits, QObject *parent = nullptr);
    ~MetricsServer() override;

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

    // Connections being served now (at most the limit's maxConnections).
    int openConnections() const { return m_openConnections; }

private:
    void onNewConnection();

    const Engine &m_engine;
    HttpServerLimits m_limits;
    QTcpServer *m_tcp = nullptr;
    int m_openConnections = 0;
    std::function<QByteArray(bool)> m_extra;
};

} // namespace streamscope::app
