#pragma once

// One connection of a stream: a websocket or a CRLF line socket. Delivers each complete
// message to its MessageSink by one direct call (no signal per message), reports connection
// events with signals, and closes itself on bad input with a reason.
//
// Thread contract: created, used and destroyed on the stream's worker thread. After
// abort() no further signal or message is delivered.

#include "ReceivedMessage.h"
#include "model/StreamConfig.h"

#include <QtCore/QObject>

namespace streamscope {

class MessageSink {
public:
    // One complete message, in one call. The sink asks `message` for as much of it as it needs
    // (ReceivedMessage: its head, all of it, or all of it in the worker's receive buffer for the
    // decoder); the message and every view of it are valid during the call only.
    // A transport that writes several messages into the receive buffer at once may later hand
    // them in one call as a batch: each view is complete in itself (its own pointer, size and
    // padding), and the decoder puts back what it writes past a message.
    virtual void onMessage(ReceivedMessage &message) = 0;

protected:
    ~MessageSink() = default;
};

class Transport : public QObject {
    Q_OBJECT
public:
    // `buffer`: the worker's receive buffer, which the transport fills (text to convert,
    // later frames read straight into it) and the sink's decoder reads.
    Transport(const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink, QObject *parent = nullptr)
        : QObject(parent)
        , m_config(config)
        , m_buffer(buffer)
        , m_sink(sink)
    {
    }

    virtual void open() = 0;
    // Drops the connection now, without a closing handshake and without further signals.
    virtual void abort() = 0;
    virtual bool sendText(const QString &text) = 0;
    // Whether the transport has a liveness probe that the peer must answer (a websocket
    // ping). Only such a connection is declared dead when no frame or pong came for
    // pong_timeout_ms; a line stream without one may be quiet for as long as its data allows.
    virtual bool hasPing() const { return false; }
    // Liveness probe; returns false when the transport has none (lines).
    virtual bool ping() { return false; }
    // Bytes received but not read yet (socket buffer + kernel queue; SocketBacklog.h), for
    // the backpressure view, on the tick only; -1 unknown.
    virtual qint64 unreadBytes() const { return -1; }

signals:
    void connected();
    // The connection ended for a reason other than our own abort(). closeCode is the
    // websocket close code when there was one (0 otherwise).
    void disconnected(int closeCode, const QString &reason);
    void pongReceived();

protected:
    // Drops a socket without a closing handshake and without any further signal to us;
    // deleted later, since this may run inside one of its own signals.
    template<typename Socket>
    void discard(Socket *&socket)
    {
        if (!socket)
            return;
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
        socket = nullptr;
    }

    const StreamConfig &m_config;
    ReceiveBuffer &m_buffer;
    MessageSink &m_sink;
};

} // namespace streamscope
