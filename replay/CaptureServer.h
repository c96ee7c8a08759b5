#pragma once

#include "CaptureConnection.h" // the complete type a QPointer of the waiting requests needs
#include "CaptureWindow.h"

#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>

#include <atomic>

class QTcpServer;

namespace streamscope::replay {

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
// A websocket capture's recorded REST depth snapshots (book_snapshot events, engine/io/
// BookEvents.h) answer the depth requests of a replayed stream's books (GET /api/v3/depth or
// /fapi/v1/depth?symbol=S on the same port), in order, as the recording got them: a request is
// answered by the next snapshot of its symbol the replay passes (held until then), or at once by
// the last one passed if no request took it yet; once the capture has ended, by the last one.
// At most kMaxDepthBooks symbols and kMaxDepthBytes of snapshots are kept.
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

    static constexpr int kMaxDepthBooks = 1024;
    static constexpr qint64 kMaxDepthBytes = 64LL * 1024 * 1024;
    static constexpr int kMaxDepthWaiting = 64; // requests held per symbol

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
    // Depth requests answered with a recorded snapshot.
    quint64 depthAnswers() const { return m_depthAnswers; }

    // For CaptureConnection.
    CaptureWindow &window() { return m_window; }
    const Options &options() const { return m_options; }
    qint64 position() const { return m_position; }
    void setPosition(qint64 position) { m_position = position; }
    void addSent(quint64 n) { m_totalSent.fetch_add(n, std::memory_order_relaxed); }
    // After a connection moved on: drops the entries no client needs and reports problems.
    void tidy();
    // A depth request for `symbol`: `connection` is answered now or once the replay passes its
    // next snapshot (CaptureConnection::answerDepth).
    void requestDepth(CaptureConnection *connection, const QString &symbol);
    // The replay passed the entry `index`, a book_snapshot event; and the capture's end.
    void bookSnapshotPassed(qint64 index, const QByteArray &eventJson);
    void captureEnded();

signals:
    void clientConnected();
    void clientDisconnected();
    void problem(const QString &message);

private:
    struct DepthBook {
        QByteArray body;    // the last snapshot passed, as recorded
        qint64 index = -1;  // its entry
        bool served = true; // a request took it already
        QList<QPointer<CaptureConnection>> waiting;
    };
    void onPendingConnection();
    void answer(CaptureConnection *connection, DepthBook &book);

    CaptureWindow m_window;
    Options m_options;
    QTcpServer *m_server = nullptr;
    QList<CaptureConnection *> m_connections;
    QString m_error;
    qint64 m_position = 0; // the entry the next connection starts from
    QHash<QString, DepthBook> m_depth;
    qint64 m_depthBytes = 0;
    quint64 m_depthAnswers = 0;
    bool m_ended = false;
    std::atomic<quint64> m_totalSent{0};
};

} // namespace streamscope::replay
