#pragma once

// A hostile peer on 127.0.0.1 for the hostile-peer suite (tst_hostilepeer.cpp): a websocket
// server that answers the handshake itself and then sends whatever bytes it is told, frames
// no correct server would send included, or a plain TCP line server. Each connection gets a
// script: bytes sent at once and, for the endless attacks, a generator asked for more
// whenever the socket's send buffer runs low, until the client goes away or a cap is reached.

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtNetwork/QTcpServer>

#include <functional>

class QTcpSocket;

namespace streamscope::testing {

// Websocket frames as a server writes them (RFC 6455 §5.2), correct or not.
namespace wsframe {

enum Opcode : quint8 { Continuation = 0x0, Text = 0x1, Binary = 0x2, Close = 0x8, Ping = 0x9, Pong = 0xA };
constexpr quint8 kRsv1 = 0x40;

struct Frame {
    quint8 opcode = Text;
    QByteArray payload;
    bool fin = true;
    quint8 rsv = 0;      // bits 0x70 of the first byte
    quint32 maskKey = 0; // non-zero: the payload is masked with it (a server must not)
};

// The frame's header and payload, with the shortest length encoding.
QByteArray encode(const Frame &frame);
// A header alone that declares `length` payload bytes (64-bit length form): for lying lengths.
QByteArray header(quint8 opcode, quint64 length, bool fin = true);
QByteArray text(const QByteArray &payload);
QByteArray close(quint16 code, const QByteArray &reason = {});

} // namespace wsframe

struct PeerScript {
    QByteArray bytes;                 // sent as soon as the connection is open
    std::function<QByteArray()> more; // if set: asked again whenever the send buffer runs low
};

class HostilePeer : public QObject {
public:
    enum class Mode { WebSocket, Lines };
    // `script(n)` says what connection n (1, 2, ...) receives once it is open.
    HostilePeer(Mode mode, std::function<PeerScript(int connection)> script);

    bool listen();
    quint16 port() const { return m_server.serverPort(); }
    int connections() const { return m_connections; }

private:
    void onReadyRead(QTcpSocket *socket);
    void start(QTcpSocket *socket);
    void feed(QTcpSocket *socket);

    // What one connection still has to do.
    struct Connection {
        QByteArray request; // the websocket handshake request, until it is complete
        bool open = false;
        std::function<QByteArray()> more;
        qint64 sent = 0;
    };

    Mode m_mode;
    std::function<PeerScript(int)> m_script;
    QHash<QTcpSocket *, Connection> m_sockets; // before m_server: its sockets report to it as they go
    QTcpServer m_server;
    int m_connections = 0;
};

} // namespace streamscope::testing
