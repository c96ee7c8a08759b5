#include "WebSocketTransport.h"

#include "SocketErrorText.h"
#include "model/PeerText.h"
#include "platform/SecretStore.h"
#include "platform/TlsConfiguration.h"

#include <QtNetwork/QNetworkRequest>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>

namespace streamscope {

namespace {
// The socket's read buffer bounds what one wake-up takes from the kernel, and so how long the
// worker stays away from its event loop: QWebSocket processes every complete frame its socket
// holds before it returns. With this bound a worker slower than its stream still returns to
// its event loop (ticks, other streams, commands) every MiB (about 1.5 ms of small messages),
// and the rest waits in the kernel, where the backpressure view sees it (SocketBacklog). The
// kernel's receive buffer is left at its full size: capping it at 128 KB bounded the batch
// too, at ~10 % of a small-message stream's throughput. 256 KiB here cost about 9 % of
// small_aggtrade's raw throughput; 1 MiB measured the same as no bound. A stop does not wait
// for the batch either: the session finds the command at its next message and drops the
// connection (docs/architecture.md, "A stream's life").
constexpr qint64 kReadBatchBytes = 1024 * 1024;
constexpr qint64 kMaxFrameHeaderBytes = 14; // RFC 6455 §5.2: 2 + 8 (length) + 4 (mask)
// A close reason is at most 123 bytes on the wire; Qt's own texts are longer.
constexpr qsizetype kMaxReasonChars = 300;
} // namespace

WebSocketTransport::~WebSocketTransport()
{
    release();
}

void WebSocketTransport::release()
{
    m_tcp = nullptr;
    discard(m_socket);
}

void WebSocketTransport::open()
{
    release();
    m_errorText.clear();
    m_closing = false;
    m_opened = false;
    m_reportDeferred = false;
    m_socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    m_socket->setMaxAllowedIncomingMessageSize(quint64(m_config.maxMessageBytes));
    m_socket->setMaxAllowedIncomingFrameSize(quint64(m_config.maxMessageBytes));
    m_socket->setReadBufferSize(kReadBatchBytes);

    QNetworkRequest request(SecretStore::resolveQuery(m_config.url)); // references resolved here, never stored
    for (const auto &[name, value] : m_config.headers)
        request.setRawHeader(name.toUtf8(), SecretStore::resolve(value).toUtf8());
    if (m_config.url.scheme() == QLatin1String("wss")) {
        QString error;
        m_socket->setSslConfiguration(tlsConfiguration(m_config, &error));
        if (!error.isEmpty())
            m_errorText = error;
    }

    connect(m_socket, &QWebSocket::connected, this, [this] {
        m_opened = true;
        emit connected();
    });
    connect(m_socket, &QWebSocket::disconnected, this, &WebSocketTransport::onDisconnected);
    // Emitted when a closing handshake starts (the peer's close frame, or Qt closing on bad
    // input). Without it the connection was simply lost.
    connect(m_socket, &QWebSocket::aboutToClose, this, [this] { m_closing = true; });
    connect(m_socket, &QWebSocket::textMessageReceived, this, &WebSocketTransport::onTextMessage);
    connect(m_socket, &QWebSocket::binaryMessageReceived, this, &WebSocketTransport::onBinaryMessage);
    connect(m_socket, &QWebSocket::pong, this, &Transport::pongReceived);
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    connect(m_socket, &QWebSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
#else
    connect(m_socket, qOverload<QAbstractSocket::SocketError>(&QWebSocket::error), this,
            [this](QAbstractSocket::SocketError error) {
#endif
        if (m_socket && !m_errorText.startsWith(QLatin1String("TLS:")))
            m_errorText = socketErrorText(error, m_socket->errorString());
    });
    connect(m_socket, &QWebSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
        QStringList texts;
        for (const QSslError &e : errors)
            texts << e.errorString();
        m_errorText = QStringLiteral("TLS: ") + texts.join(QStringLiteral("; "));
    });
    m_socket->open(request);
    // QWebSocket reads a frame only once all of it is in its socket's buffer: a frame larger
    // than the read batch would wait forever in a full buffer. After QWebSocket has taken what
    // it could, a buffer still full holds such a frame: the buffer grows to the largest message
    // allowed, and the socket reads on at once. Queued, so that this runs after QWebSocket's
    // own readyRead slot whether Qt connects that one directly (6.4) or queued (other versions).
    if (auto *tcp = m_socket->findChild<QTcpSocket *>()) {
        m_tcp = tcp;
        connect(
            tcp, &QIODevice::readyRead, this,
            [this] {
                if (m_socket && m_tcp && m_tcp->readBufferSize() > 0
                    && m_tcp->bytesAvailable() >= m_tcp->readBufferSize())
                    m_socket->setReadBufferSize(
                        m_config.maxMessageBytes > 0 ? m_config.maxMessageBytes + kMaxFrameHeaderBytes : 0);
            },
            Qt::QueuedConnection);
    } else {
        m_socket->setReadBufferSize(0); // no socket to watch: no bound rather than a stall
    }
}

void WebSocketTransport::abort()
{
    release();
}

bool WebSocketTransport::sendText(const QString &text)
{
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return false;
    return m_socket->sendTextMessage(text) >= 0;
}

bool WebSocketTransport::ping()
{
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return false;
    m_socket->ping();
    return true;
}

void WebSocketTransport::onTextMessage(const QString &message)
{
    // Converted into the receive buffer as far as the sink asks (ReceivedMessage).
    ReceivedMessage received(message, m_buffer, m_encoder);
    m_sink.onMessage(received);
}

void WebSocketTransport::onBinaryMessage(const QByteArray &message)
{
    ReceivedMessage received(message.constData(), message.size(), true, m_buffer);
    m_sink.onMessage(received);
}

void WebSocketTransport::onDisconnected()
{
    if (!m_socket)
        return;
    // A connection that never opened: Qt reports its end before the error that explains it
    // (over TLS, QSslSocket has not even set its error text yet: "Unknown error"), and emits
    // that error within the same call. The report waits for the next turn of the event loop.
    if (!m_opened && m_errorText.isEmpty() && !m_reportDeferred) {
        m_reportDeferred = true;
        QMetaObject::invokeMethod(
            this,
            [this, socket = QPointer<QWebSocket>(m_socket)] {
                if (socket && socket == m_socket)
                    onDisconnected();
            },
            Qt::QueuedConnection);
        return;
    }
    // Qt reports 1000 (normal) even when no close frame ever came: that is 1006 (RFC 6455 7.1.5).
    const int code = m_closing ? int(m_socket->closeCode()) : int(QWebSocketProtocol::CloseCodeAbnormalDisconnection);
    QString reason = peerText(m_socket->closeReason(), kMaxReasonChars);
    // Qt (up to 6.8 at least) replaces a peer's invalid close code with 1002 before it writes
    // "Invalid close code 1002 detected.", so the code the peer sent is lost: say what we know.
    if (reason.startsWith(QLatin1String("Invalid close code"))
        && code == int(QWebSocketProtocol::CloseCodeProtocolError))
        reason = QStringLiteral("the peer sent an invalid close code (Qt does not say which; it closed with 1002)");
    if (reason.isEmpty())
        reason = m_errorText;
    if (reason.isEmpty())
        reason = m_socket->errorString();
    release();
    emit disconnected(code, reason);
}

} // namespace streamscope
