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

// Complete text messages of one read, handed in one call (NativeWebSocketTransport): each view
// padded in the worker's receive buffer, later ones at higher addresses; the bytes between two
// are the transport's and no longer needed, so a reader may overwrite them (MessageDecoder's
// batch turns them into spaces). Valid during the call only. A sink that drops or reopens the
// connection ends the batch: current() is then false, and no further message of it is read.
struct MessageBatch {
    const MessageView *messages = nullptr;
    qsizetype count = 0;
    ReceiveBuffer *buffer = nullptr;
    const quint64 *connection = nullptr; // the transport's connection serial
    quint64 reading = 0;                 // its value when the batch was read

    bool current() const { return *connection == reading; }
};

class MessageSink {
public:
    // One complete message, in one call. The sink asks `message` for as much of it as it needs
    // (ReceivedMessage: its head, all of it, or all of it in the worker's receive buffer for the
    // decoder); the message and every view of it are valid during the call only.
    virtual void onMessage(ReceivedMessage &message) = 0;
    // Several messages of one read (MessageBatch), in order; by default one onMessage() each.
    virtual void onMessages(const MessageBatch &batch)
    {
        for (qsizetype i = 0; i < batch.count && batch.current(); ++i) {
            ReceivedMessage message(batch.messages[i], false, *batch.buffer);
            onMessage(message);
        }
    }

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
