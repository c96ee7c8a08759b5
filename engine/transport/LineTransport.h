#pragma once

// CRLF-delimited JSON lines over TCP ("tcp://") or TLS ("tls://"), the Betfair stream
// framing. Reads whatever the socket has into one reused buffer and hands every complete
// line to the sink as a view of where it lies (LineFramer: the read buffer, or the framer's
// own for a line split across reads), without a copy; a line longer than the stream's maximum
// message size closes the connection with that reason.
//
// Thread contract: see Transport.

#include "LineFramer.h"
#include "Transport.h"

class QSslSocket;

namespace streamscope {

class LineTransport final : public Transport {
    Q_OBJECT
public:
    LineTransport(const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink, QObject *parent = nullptr);
    ~LineTransport() override;

    void open() override;
    void abort() override;
    bool sendText(const QString &text) override;
    qint64 unreadBytes() const override; // SocketBacklog.cpp

private:
    void onReadyRead();
    void onDisconnected();
    void fail(const QString &reason);
    void release();

    QSslSocket *m_socket = nullptr; // plain TCP uses it unencrypted
    LineFramer m_framer;
    QByteArray m_readBuffer;
    QString m_errorText;
};

} // namespace streamscope
