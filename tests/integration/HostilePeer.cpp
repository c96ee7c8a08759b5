#include "HostilePeer.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QtEndian>
#include <QtNetwork/QTcpSocket>

namespace streamscope::testing {

namespace {

constexpr char kAcceptGuid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"; // RFC 6455 §1.3
constexpr quint8 kFin = 0x80;
constexpr quint8 kMaskBit = 0x80;
constexpr qint64 kLowWater = 64 * 1024;                  // ask the generator again below this
constexpr qint64 kEndlessCap = qint64(64) * 1024 * 1024; // an endless attack stops here

QByteArray lengthField(quint8 first, quint64 length, bool masked)
{
    QByteArray h;
    h.append(char(first));
    const quint8 mask = masked ? kMaskBit : 0;
    if (length < 126) {
        h.append(char(mask | quint8(length)));
    } else if (length <= 0xffff) {
        h.append(char(mask | 126));
        quint16 be = qToBigEndian(quint16(length));
        h.append(reinterpret_cast<const char *>(&be), 2);
    } else {
        h.append(char(mask | 127));
        quint64 be = qToBigEndian(length);
        h.append(reinterpret_cast<const char *>(&be), 8);
    }
    return h;
}

} // namespace

namespace wsframe {

QByteArray encode(const Frame &frame)
{
    const quint8 first = (frame.fin ? kFin : 0) | (frame.rsv & 0x70) | (frame.opcode & 0x0f);
    QByteArray out = lengthField(first, quint64(frame.payload.size()), frame.maskKey != 0);
    if (frame.maskKey == 0)
        return out + frame.payload;
    const char key[4] = {char(frame.maskKey >> 24), char(frame.maskKey >> 16), char(frame.maskKey >> 8),
                         char(frame.maskKey)};
    out.append(key, 4);
    for (qsizetype i = 0; i < frame.payload.size(); ++i)
        out.append(char(frame.payload.at(i) ^ key[i % 4]));
    return out;
}

QByteArray header(quint8 opcode, quint64 length, bool fin)
{
    QByteArray h;
    h.append(char((fin ? kFin : 0) | (opcode & 0x0f)));
    h.append(char(127));
    quint64 be = qToBigEndian(length);
    h.append(reinterpret_cast<const char *>(&be), 8);
    return h;
}

QByteArray text(const QByteArray &payload)
{
    return encode(Frame{Text, payload});
}

QByteArray close(quint16 code, const QByteArray &reason)
{
    quint16 be = qToBigEndian(code);
    return encode(Frame{Close, QByteArray(reinterpret_cast<const char *>(&be), 2) + reason});
}

} // namespace wsframe

HostilePeer::HostilePeer(Mode mode, std::function<PeerScript(int connection)> script)
    : m_mode(mode)
    , m_script(std::move(script))
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *s = m_server.nextPendingConnection()) {
            ++m_connections;
            m_sockets.insert(s, Connection{});
            connect(s, &QTcpSocket::disconnected, this, [this, s] {
                m_sockets.remove(s);
                s->deleteLater();
            });
            connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadyRead(s); });
            connect(s, &QTcpSocket::bytesWritten, this, [this, s] { feed(s); });
            if (m_mode == Mode::Lines)
                start(s);
        }
    });
}

bool HostilePeer::listen()
{
    return m_server.listen(QHostAddress::LocalHost);
}

void HostilePeer::onReadyRead(QTcpSocket *socket)
{
    const auto it = m_sockets.find(socket);
    if (it == m_sockets.end())
        return; // gone
    Connection &c = *it;
    if (c.open) {
        socket->readAll(); // the client's pings, pongs and closes: read and ignored
        return;
    }
    c.request += socket->readAll();
    if (!c.request.contains("\r\n\r\n"))
        return;
    QByteArray key;
    for (const QByteArray &line : c.request.split('\n'))
        if (line.toLower().startsWith("sec-websocket-key:"))
            key = line.mid(qsizetype(qstrlen("sec-websocket-key:"))).trimmed();
    const QByteArray accept = QCryptographicHash::hash(key + kAcceptGuid, QCryptographicHash::Sha1).toBase64();
    socket->write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Accept: "
                  + accept + "\r\n\r\n");
    start(socket);
}

void HostilePeer::start(QTcpSocket *socket)
{
    const auto it = m_sockets.find(socket);
    if (it == m_sockets.end())
        return; // gone
    Connection &c = *it;
    c.open = true;
    PeerScript script = m_script(m_connections);
    c.more = std::move(script.more);
    socket->write(script.bytes);
    feed(socket);
}

void HostilePeer::feed(QTcpSocket *socket)
{
    // Looked up again after every write: a write that fails can end the connection at once.
    for (auto it = m_sockets.find(socket); it != m_sockets.end() && it->more; it = m_sockets.find(socket)) {
        if (socket->state() != QAbstractSocket::ConnectedState || socket->bytesToWrite() >= kLowWater
            || it->sent >= kEndlessCap)
            return;
        const QByteArray chunk = it->more();
        it->sent += chunk.size();
        socket->write(chunk);
    }
}

} // namespace streamscope::testing
