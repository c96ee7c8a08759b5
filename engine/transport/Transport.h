#pragma once

// One connection of a stream: a websocket or a CRLF line socket. Delivers each complete
// message to its MessageSink by a direct call (no signal per message), reports connection
// events with signals, and closes itself on bad input with a reason.
//
// Thread contract: created, used and destroyed on the stream's worker thread. After
// abort() no further signal or message is delivered.

#include "model/StreamConfig.h"

#include <QtCore/QObject>

namespace streamscope {

class MessageDecoder;

class MessageSink {
public:
    // A complete message. `inScratch`: the bytes are in the worker decoder's padded buffer
    // (ready to parse in place); otherwise they must be copied there before decoding.
    virtual void onMessage(const char *data, qsizetype len, bool inScratch) = 0;
    // A binary websocket message: counted and routed as any message; a recording keeps it
    // apart (docs/capture.md).
    virtual void onBinaryMessage(const char *data, qsizetype len) { onMessage(data, len, false); }

    // Whether only the head of a message (HeadScanner::kHeadBytes) is needed: a raw stream
    // that no inspector watches. A transport that must convert text before it can hand it
    // over may then convert the head of a long ASCII message only and call onMessageHead().
    virtual bool wantsHeadOnly() const { return false; }
    // The head of a message of `messageBytes` bytes, in the worker decoder's padded buffer.
    // Returns false when the whole message is needed after all (a response, whose text is
    // kept): the transport then converts it all and calls onMessage().
    virtual bool onMessageHead(const char *head, qsizetype headLen, qsizetype messageBytes)
    {
        Q_UNUSED(head);
        Q_UNUSED(headLen);
        Q_UNUSED(messageBytes);
        return false;
    }

protected:
    ~MessageSink() = default;
};

class Transport : public QObject {
    Q_OBJECT
public:
    Transport(const StreamConfig &config, MessageDecoder &decoder, MessageSink &sink, QObject *parent = nullptr)
        : QObject(parent)
        , m_config(config)
        , m_decoder(decoder)
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
    MessageDecoder &m_decoder;
    MessageSink &m_sink;
};

} // namespace streamscope
