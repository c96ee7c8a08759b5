#pragma once

// Prometheus/OpenMetrics endpoint: GET /metrics renders every stream's counters, state and
// latency histogram (_bucket/_sum/_count) from a fresh engine snapshot. Bound to 127.0.0.1
// unless the user asks for another address.
//
// Thread contract: lives on the Engine's thread; requests are answered there (a snapshot
// costs the workers nothing).

#include <QtCore/QObject>
#include <QtNetwork/QHostAddress>

#include <memory>

class QHttpServer;
class QTcpServer;

namespace streamscope {
class Engine;
}

namespace streamscope::app {

class MetricsServer : public QObject {
    Q_OBJECT
public:
    explicit MetricsServer(const Engine &engine, QObject *parent = nullptr);
    ~MetricsServer() override;

    // Returns the port listened on (useful with 0), or 0 on failure with `error` set.
    quint16 listen(const QHostAddress &address, quint16 port, QString *error);

    // The OpenMetrics text for the engine's current state.
    static QByteArray render(const Engine &engine);

private:
    const Engine &m_engine;
    std::unique_ptr<QHttpServer> m_http;
};

} // namespace streamscope::app
