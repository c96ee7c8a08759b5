#pragma once

// Websocket transport (ws and wss) of our own: RFC 6455 over QTcpSocket, or QSslSocket for wss
// (Qt keeps TLS, the CA store and proxies, set up as for the Qt transport). The opening
// handshake is WebSocketHandshake's; the server's frames are read straight into the worker's
// receive buffer by WebSocketFrameReader, and each complete message goes to the sink as the
// bytes that are already there, text validated as UTF-8 and never converted (the Qt transport,
// WebSocketTransport, turns text into UTF-16 and back). Our frames are masked with a fresh key
// each; pings are answered (one pong for the last ping of a read, none while more than
// kMaxUnsentBytes wait to be sent: a ping flood costs no memory); a close frame is answered
// and the connection then waits at most kCloseWaitMs for the server to close it. A server
// that breaks the protocol is sent the close code for it (1002, 1007, 1009), and that code and
// the reason are what disconnected() reports; masked server frames are refused (1002), which
// QWebSocket cannot do.
//
// The text messages of one read go to the sink together (MessageSink::onMessages, up to
// kBatchMessages at a time, so that the decoder can parse them as one batch); a binary message,
// or one that the reader joined behind the read, goes alone, in order.
//
// A ws socket is unbuffered: a read goes from the kernel straight into the receive buffer, and
// our few frames straight to the kernel, with no buffer of Qt's in between (Qt keeps a 32 KiB
// write block and a read block per socket otherwise, most of a stream's memory at scale). A
// wss socket is QSslSocket's, buffered. One read a notification takes at most kReadBatchBytes,
// so a worker slower than its stream returns to its event loop between reads, and the rest
// waits in the kernel where the backpressure view sees it. unreadBytes() counts what the
// socket and the kernel hold and what the reader keeps of a cut frame or message.
//
// Thread contract: see Transport.

#include "Transport.h"
#include "WebSocketFrameReader.h"
#include "WebSocketHandshake.h"

#include <QtNetwork/QAbstractSocket>

class QTcpSocket;
class QTimer;

namespace streamscope {

class NativeWebSocketTransport final : public Transport, private WebSocketFrameReader::Handler {
    Q_OBJECT
public:
    static constexpr qint64 kReadBatchBytes = 1024 * 1024;
    static constexpr qsizetype kBatchMessages = 64;
    static constexpr qint64 kMaxUnsentBytes = 64 * 1024;
    static constexpr int kCloseWaitMs = 1000;
    // The transport's own bound on the set-up: the stream's connect timeout and this.
    static constexpr int kSetUpGraceMs = 1000;

    NativeWebSocketTransport(const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink,
                             QObject *parent = nullptr);
    ~NativeWebSocketTransport() override;

    void open() override;
    void abort() override;
    bool sendText(const QString &text) override;
    bool hasPing() const override { return true; }
    bool ping() override;
    qint64 unreadBytes() const override; // SocketBacklog.cpp

private:
    enum class Phase : quint8 { Idle = 0, Connecting, Handshake, Open };

    void onSocketReady(); // TCP connected (ws) or TLS encrypted (wss): the request goes out
    void onReadyRead();
    bool readHandshake(); // true when the connection is open and frames may follow
    void readFrames(const char *first, qsizetype firstBytes);
    // After a read: the pong due, the pongs seen; false when the reading must stop.
    bool afterRead(WebSocketFrameReader::Status status);
    void onSocketError(QAbstractSocket::SocketError error);
    void onDisconnected();
    // A read found the connection ended (an unbuffered socket signals nothing): as onDisconnected().
    void readEnded();
    // Ends the connection: when it is open and `closeCode` is set, a close frame with it and
    // `closeReason` goes to the server first and the socket closes gracefully; then
    // disconnected(reportedCode, reason). The texts are copies: they may be the reader's, which
    // the end resets.
    void end(int reportedCode, QString reason, quint16 closeCode = 0, QString closeReason = {});
    bool sendFrame(quint8 opcode, QByteArrayView payload);
    void release();

    bool onMessage(const MessageView &message, bool binary) override;
    // Hands the text messages collected from this read to the sink; false when the sink dropped
    // (or dropped and reopened) the connection, whose reading then stops.
    bool deliverPending();
    void onPing(const char *payload, qsizetype len) override;
    void onPong() override;

    QTcpSocket *m_socket = nullptr;   // a QSslSocket for wss
    quint64 m_connection = 0;         // changes whenever m_socket does (MessageBatch::current())
    MessageView *m_pending = nullptr; // readFrames()'s kBatchMessages, on its stack
    qsizetype m_pendingCount = 0;
    QTimer *m_handshakeTimer = nullptr;
    WebSocketHandshake m_handshake;
    WebSocketFrameReader m_reader;
    QByteArray m_pongPayload; // the last ping's, answered after the read
    bool m_pongDue = false;
    bool m_pongSeen = false;
    Phase m_phase = Phase::Idle;
    QString m_errorText;
};

} // namespace streamscope
