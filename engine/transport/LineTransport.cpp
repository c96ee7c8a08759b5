#include "LineTransport.h"

#include "SocketErrorText.h"
#include "model/PeerText.h"
#include "platform/TlsConfiguration.h"

#include <QtNetwork/QSslSocket>

namespace streamscope {

namespace {
constexpr qsizetype kReadChunk = 256 * 1024;
}

LineTransport::LineTransport(const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink, QObject *parent)
    : Transport(config, buffer, sink, parent)
    , m_framer(config.maxMessageBytes)
    , m_readBuffer(kReadChunk, Qt::Uninitialized)
{
}

LineTransport::~LineTransport()
{
    release();
}

void LineTransport::release()
{
    discard(m_socket);
    m_framer.reset();
}

void LineTransport::open()
{
    release();
    m_errorText.clear();
    m_socket = new QSslSocket(this);
    connect(m_socket, &QSslSocket::readyRead, this, &LineTransport::onReadyRead);
    connect(m_socket, &QSslSocket::disconnected, this, &LineTransport::onDisconnected);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        if (!m_socket)
            return;
        if (!m_errorText.startsWith(QLatin1String("TLS:")))
            m_errorText = socketErrorText(error, m_socket->errorString());
        // A refused or failed connection never reaches "disconnected".
        if (m_socket->state() != QAbstractSocket::ConnectedState && error != QAbstractSocket::RemoteHostClosedError)
            fail(m_errorText);
    });
    const QString host = m_config.url.host();
    const quint16 port = quint16(m_config.url.port(m_config.url.scheme() == QLatin1String("tls") ? 443 : 80));
    if (m_config.url.scheme() == QLatin1String("tls")) {
        QString error;
        m_socket->setSslConfiguration(tlsConfiguration(m_config, &error));
        connect(m_socket, &QSslSocket::encrypted, this, &Transport::connected);
        connect(m_socket, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
            QStringList texts;
            for (const QSslError &e : errors)
                texts << e.errorString();
            m_errorText = QStringLiteral("TLS: ") + texts.join(QStringLiteral("; "));
        });
        m_socket->connectToHostEncrypted(host, port);
    } else {
        connect(m_socket, &QSslSocket::connected, this, &Transport::connected);
        m_socket->connectToHost(host, port);
    }
}

void LineTransport::abort()
{
    release();
}

bool LineTransport::sendText(const QString &text)
{
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return false;
    QByteArray line = text.toUtf8();
    line.append("\r\n", 2);
    return m_socket->write(line) == line.size();
}

void LineTransport::onReadyRead()
{
    // The socket may be released by the sink (a stop command ran in between): then nothing more
    // is delivered, not even the rest of this read.
    while (m_socket) {
        const qint64 n = m_socket->read(m_readBuffer.data(), m_readBuffer.size());
        if (n <= 0)
            return;
        const auto status = m_framer.feed(m_readBuffer.constData(), n, [this](const char *data, qsizetype len) {
            if (!m_socket)
                return;
            // A view of the line where it lies (the read buffer, or the framer's for a line
            // split across reads); the decoder copies it into the receive buffer if it parses.
            ReceivedMessage received(data, len, false, m_buffer);
            m_sink.onMessage(received);
        });
        if (status == LineFramer::Status::Oversized) {
            fail(QStringLiteral("message larger than %1 bytes").arg(m_config.maxMessageBytes));
            return;
        }
    }
}

void LineTransport::onDisconnected()
{
    fail(m_errorText.isEmpty() ? QStringLiteral("server closed the connection") : m_errorText);
}

void LineTransport::fail(const QString &reason)
{
    if (!m_socket)
        return;
    release();
    emit disconnected(0, peerText(reason)); // Qt's texts may quote the peer (a TLS error's names)
}

} // namespace streamscope
