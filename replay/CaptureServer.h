#pragma once

#include "CaptureWindow.h"

#include <QHostAddress>
#include <QList>
#include <QObject>

#include <atomic>

class QTcpServer;

namespace streamscope::replay {

class CaptureConnection;

// Serves a capture file (docs/capture.md) on 127.0.0.1, as `streamscope-replay --file`, read
// while it is served (CaptureWindow: never whole, whatever its size or content):
// websocket captures as websocket text (or binary) frames, line captures (Betfair-style) as
// CRLF lines over TCP, or TLS with `tls`. Messages go out with their recorded spacing divided
// by `speed` (0: as fast as the socket takes them). A recorded "closed" event closes the
// client's connection (a websocket close frame with the recorded code, or a drop for 1006);
// the next connection goes on from there, as the recorded stream did after it reconnected.
// At the end the connection stays open and quiet, or with `loop` the capture starts over.
// What the reading finds wrong (a file cut short, lines skipped, corrupt data) is emitted as
// `problem`, each message once, naming the file.
// Thread contract: lives on the thread that creates it; totalSent() from any thread.
class CaptureServer : public QObject {
    Q_OBJECT
public:
    struct Options {
        double speed = 1.0; // 0 = as fast as possible
        bool loop = false;
        bool tls = false; // the built-in certificate unless certPem/keyPem are given
        QByteArray certPem;
        QByteArray keyPem;
    };

    explicit CaptureServer(const Options &options, QObject *parent = nullptr);
    ~CaptureServer() override;

    // The capture to serve; false, with errorString() naming the file, when it cannot be
    // served (CaptureWindow::open). Before listen().
    bool open(const QString &path);
    bool listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0);
    quint16 port() const;
    QString errorString() const { return m_error; }
    quint64 totalSent() const { return m_totalSent.load(std::memory_order_relaxed); }
    int connectionCount() const { return int(m_connections.size()); }

    // For CaptureConnection.
    CaptureWindow &window() { return m_window; }
    const Options &options() const { return m_options; }
    qint64 position() const { return m_position; }
    void setPosition(qint64 position) { m_position = position; }
    void addSent(quint64 n) { m_totalSent.fetch_add(n, std::memory_order_relaxed); }
    // After a connection moved on: drops the entries no client needs and reports problems.
    void tidy();

signals:
    void clientConnected();
    void clientDisconnected();
    void problem(const QString &message);

private:
    void onPendingConnection();

    CaptureWindow m_window;
    Options m_options;
    QTcpServer *m_server = nullptr;
    QList<CaptureConnection *> m_connections;
    QString m_error;
    qint64 m_position = 0; // the entry the next connection starts from
    std::atomic<quint64> m_totalSent{0};
};

} // namespace streamscope::replay
