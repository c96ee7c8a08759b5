#pragma once

// Websocket transport (ws and wss) on QWebSocket. Text messages arrive from Qt as UTF-16;
// they are encoded once, straight into the worker's receive buffer, as far as the sink asks
// (ReceivedMessage), so that the head scan and the parser read them in place. A maximum message size is always set (Qt's
// default is about 2 GiB); Qt itself closes the connection on protocol violations (1002),
// invalid UTF-8 (1007) and oversized messages (1009).
//
// Thread contract: see Transport.

#include "Transport.h"

#include <QtCore/QPointer>
#include <QtCore/QStringEncoder>

class QTcpSocket;
class QWebSocket;

namespace streamscope {

class WebSocketTransport final : public Transport {
    Q_OBJECT
public:
    using Transport::Transport;
    ~WebSocketTransport() override;

    void open() override;
    void abort() override;
    bool sendText(const QString &text) override;
    bool hasPing() const override { return true; }
    bool ping() override;
    qint64 unreadBytes() const override; // SocketBacklog.cpp

private:
    void onTextMessage(const QString &message);
    void onBinaryMessage(const QByteArray &message);
    void onDisconnected();
    void release();

    QWebSocket *m_socket = nullptr;
    QPointer<QTcpSocket> m_tcp; // QWebSocket's own socket: its read buffer and its backlog
    QStringEncoder m_encoder{QStringEncoder::Utf8};
    QString m_errorText;
    bool m_closing = false;        // a closing handshake started: closeCode() is meaningful
    bool m_opened = false;         // the handshake completed (connected was emitted)
    bool m_reportDeferred = false; // the end of a connection that never opened waits for its error
};

} // namespace streamscope
