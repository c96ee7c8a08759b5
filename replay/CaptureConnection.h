#pragma once

#include "WebSocketFrameParser.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QTcpSocket;
class QTimer;

namespace streamscope::replay {

class CaptureServer;

// One client of a CaptureServer: the websocket handshake (or none, for lines), then the
// capture's messages from the server's position on, paced by their recorded times, taken from
// the server's CaptureWindow as they are due (or as the socket takes them, at --speed max).
// When the window's slice of reading runs out, the rest waits for the next turn of the event
// loop, so that nothing (SIGTERM included) waits for a long read. Answers pings and a client's
// close; ignores what else the client sends (its subscriptions were answered in the recording
// already). A plain GET of a depth snapshot (RestAnswer.h) instead of a websocket upgrade is
// answered by the server from the capture's snapshots (CaptureServer::requestDepth), now or
// later; the connection is kept for the next request unless the client asks otherwise.
// Thread contract: the server's thread. Owns its socket; deletes itself once it is gone.
class CaptureConnection : public QObject {
    Q_OBJECT
public:
    CaptureConnection(QTcpSocket *socket, CaptureServer *server, bool webSocket);
    ~CaptureConnection() override;
    void start();
    // The entry it sends next (the server's position until it is open).
    qint64 next() const;
    // The answer to its depth request (CaptureServer).
    void answerDepth(const QByteArray &status, const QByteArray &body);

signals:
    void opened();
    void closed();

private:
    void onReadyRead();
    bool handleHandshake();
    void handleDepthRequest(const QByteArray &head, const QByteArray &target);
    void pump();
    void send(const QByteArray &payload, bool base64);
    void closeAsRecorded(const QByteArray &eventJson);
    void finish();

    QPointer<QTcpSocket> m_socket;
    QPointer<CaptureServer> m_server;
    bool m_webSocket = true;
    bool m_open = false;
    bool m_closing = false;
    bool m_closedEmitted = false;
    bool m_depthWaiting = false; // a depth request is waiting for its answer
    QByteArray m_depthHead;      // its header
    QByteArray m_input;
    WebSocketFrameParser m_parser;
    QTimer *m_timer = nullptr;    // the next message's recorded time
    QTimer *m_readMore = nullptr; // the next slice of reading, on the next turn of the loop
    QElapsedTimer m_clock;
    qint64 m_baseUs = -1; // recorded time of the first message sent in this pass
    qint64 m_next = 0;    // the next entry's index in the window
};

} // namespace streamscope::replay
