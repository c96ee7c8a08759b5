#include "NativeWebSocketTransport.h"

#include "SocketErrorText.h"
#include "WebSocketClientWire.h"
#include "model/PeerText.h"
#include "platform/SecretStore.h"
#include "platform/TlsConfiguration.h"

#include <QtCore/QPointer>
#include <QtCore/QRandomGenerator>
#include <QtCore/QScopeGuard>
#include <QtCore/QTimer>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>

namespace streamscope {

namespace {
// A close reason is at most 123 bytes on the wire; Qt's socket texts may be longer.
constexpr qsizetype kMaxReasonChars = 300;

// A fresh masking key per frame (§5.3: unpredictable), from the system's generator: only our
// few outgoing frames (subscriptions, pings, pongs) need one.
quint32 maskKey()
{
    return QRandomGenerator::system()->generate();
}
} // namespace

NativeWebSocketTransport::NativeWebSocketTransport(const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink,
                                                   QObject *parent)
    : Transport(config, buffer, sink, parent)
    , m_reader(buffer, config.maxMessageBytes)
{
}

NativeWebSocketTransport::~NativeWebSocketTransport()
{
    release();
}

void NativeWebSocketTransport::release()
{
    if (m_handshakeTimer)
        m_handshakeTimer->stop();
    discard(m_socket);
    ++m_connection;
    m_phase = Phase::Idle;
    m_reader.reset();
    m_pongPayload.clear();
    m_pongDue = false;
    m_pongSeen = false;
}

void NativeWebSocketTransport::open()
{
    release();
    m_errorText.clear();
    const bool tls = m_config.url.scheme() == QLatin1String("wss");
    if (tls) {
        auto *ssl = new QSslSocket(this);
        QString error;
        ssl->setSslConfiguration(tlsConfiguration(m_config, &error));
        if (!error.isEmpty())
            m_errorText = error;
        connect(ssl, &QSslSocket::encrypted, this, &NativeWebSocketTransport::onSocketReady);
        connect(ssl, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
            QStringList texts;
            for (const QSslError &e : errors)
                texts << e.errorString();
            m_errorText = QStringLiteral("TLS: ") + texts.join(QStringLiteral("; "));
        });
        m_socket = ssl;
    } else {
        m_socket = new QTcpSocket(this);
        connect(m_socket, &QTcpSocket::connected, this, &NativeWebSocketTransport::onSocketReady);
    }
    m_socket->setReadBufferSize(kReadBatchBytes); // a TLS socket's buffer; an unbuffered one has none
    connect(m_socket, &QTcpSocket::readyRead, this, &NativeWebSocketTransport::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &NativeWebSocketTransport::onDisconnected);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &NativeWebSocketTransport::onSocketError);

    // The session's watchdog ends a set-up (TCP, TLS, the upgrade) that takes longer than the
    // stream's connect timeout; this bound, a little later, keeps the transport bounded on its
    // own (a transport used without a session).
    if (!m_handshakeTimer) {
        m_handshakeTimer = new QTimer(this);
        m_handshakeTimer->setSingleShot(true);
        connect(m_handshakeTimer, &QTimer::timeout, this, [this] {
            if (m_phase == Phase::Connecting || m_phase == Phase::Handshake)
                end(ws::kCloseAbnormal,
                    QStringLiteral("websocket handshake: no answer within %1 ms").arg(m_handshakeTimer->interval()));
        });
    }
    m_handshakeTimer->start(std::max(0, m_config.connectTimeoutMs) + kSetUpGraceMs);
    m_phase = Phase::Connecting;
    const QString host = m_config.url.host();
    const auto port = quint16(m_config.url.port(tls ? 443 : 80));
    if (tls)
        static_cast<QSslSocket *>(m_socket)->connectToHostEncrypted(host, port);
    else // unbuffered: no read or write buffer of Qt's between the kernel and ours
        m_socket->connectToHost(host, port, QIODevice::ReadWrite | QIODevice::Unbuffered);
}

void NativeWebSocketTransport::abort()
{
    release();
}

void NativeWebSocketTransport::onSocketReady()
{
    if (!m_socket || m_phase != Phase::Connecting)
        return;
    QList<QPair<QByteArray, QByteArray>> headers;
    for (const auto &[name, value] : m_config.headers)
        headers.append({name.toUtf8(), SecretStore::resolve(value).toUtf8()}); // resolved here, never stored
    QString error;
    // References in the URL's query are resolved here too, never stored.
    const QByteArray request = m_handshake.request(SecretStore::resolveQuery(m_config.url), headers, &error);
    if (request.isEmpty()) {
        end(ws::kCloseAbnormal, QStringLiteral("websocket handshake: ") + error);
        return;
    }
    m_phase = Phase::Handshake;
    m_socket->write(request);
}

void NativeWebSocketTransport::onReadyRead()
{
    if (m_phase == Phase::Handshake && !readHandshake())
        return;
    if (m_phase == Phase::Open)
        readFrames(nullptr, 0);
}

bool NativeWebSocketTransport::readHandshake()
{
    while (m_socket && m_phase == Phase::Handshake) {
        char chunk[4096];
        const qint64 n =
            m_socket->read(chunk, std::min<qint64>(qint64(sizeof chunk), std::max<qsizetype>(1, m_handshake.room())));
        if (n < 0)
            readEnded();
        if (n <= 0)
            return false;
        switch (m_handshake.read(chunk, n)) {
        case WebSocketHandshake::Result::NeedMore: continue;
        case WebSocketHandshake::Result::Failed: end(ws::kCloseAbnormal, m_handshake.errorText()); return false;
        default: break;
        }
        m_handshakeTimer->stop();
        m_phase = Phase::Open;
        const QPointer<NativeWebSocketTransport> self(this);
        QTcpSocket *socket = m_socket;
        emit connected();
        // The sink may have dropped the connection from its slot.
        if (!self || m_socket != socket)
            return false;
        // Frames that came with the answer's head are read first.
        const QByteArray rest = m_handshake.takeRest();
        readFrames(rest.constData(), rest.size());
        return false; // readFrames() read the socket as well
    }
    return false;
}

void NativeWebSocketTransport::readFrames(const char *first, qsizetype firstBytes)
{
    // The text messages of a read are collected here and handed on when it is parsed.
    MessageView pending[kBatchMessages];
    m_pending = pending;
    m_pendingCount = 0;
    const auto done = qScopeGuard([this] {
        m_pending = nullptr;
        m_pendingCount = 0;
    });
    if (firstBytes > 0) {
        char *at = m_reader.prepare(firstBytes);
        std::memcpy(at, first, std::size_t(firstBytes));
        const WebSocketFrameReader::Status status = m_reader.parse(firstBytes, *this);
        if (!deliverPending() || !afterRead(status))
            return;
    }
    // One read a notification: the socket's notifier fires again while the kernel holds more,
    // after the worker's other sockets and timers had their turn. The socket may have been
    // released by the sink above (a stop ran in between): nothing more is read.
    if (!m_socket || m_phase != Phase::Open)
        return;
    char *at = m_reader.prepare(qsizetype(kReadBatchBytes));
    const qint64 n = m_socket->read(at, kReadBatchBytes);
    if (n < 0)
        readEnded();
    if (n <= 0)
        return;
    const WebSocketFrameReader::Status status = m_reader.parse(qsizetype(n), *this);
    if (deliverPending())
        afterRead(status);
}

void NativeWebSocketTransport::readEnded()
{
    // An unbuffered socket learns of the end from its read, and says so with no signal: what a
    // buffered one would say in errorOccurred() and disconnected().
    if (!m_socket)
        return;
    const QAbstractSocket::SocketError error = m_socket->error();
    if (error != QAbstractSocket::UnknownSocketError && !m_errorText.startsWith(QLatin1String("TLS:")))
        m_errorText = socketErrorText(error, m_socket->errorString());
    onDisconnected();
}

bool NativeWebSocketTransport::afterRead(WebSocketFrameReader::Status status)
{
    using Status = WebSocketFrameReader::Status;
    if (!m_socket || m_phase != Phase::Open)
        return false;
    switch (status) {
    case Status::Ok: break;
    case Status::Closed: {
        const quint16 code = m_reader.closeCode();
        QString reason = peerText(m_reader.closeReason(), kMaxReasonChars);
        if (reason.isEmpty())
            reason = code == ws::kCloseNoStatus ? QStringLiteral("the server closed without a code")
                                                : QStringLiteral("the server closed the connection");
        // The close is answered with the server's code (1000 for a frame without one).
        end(code, reason, code == ws::kCloseNoStatus ? ws::kCloseNormal : code, {});
        return false;
    }
    case Status::Failed:
        end(m_reader.errorCode(), m_reader.errorText(), m_reader.errorCode(), m_reader.errorText());
        return false;
    default: return false;
    }
    if (m_pongDue) {
        m_pongDue = false;
        // RFC 6455 §5.5.3: answering only the last ping is enough. Not while the server does not
        // take what we send: a ping flood must not grow our send buffer.
        if (m_socket->bytesToWrite() <= kMaxUnsentBytes)
            sendFrame(ws::kOpPong, m_pongPayload);
    }
    if (m_pongSeen) {
        m_pongSeen = false;
        const QPointer<NativeWebSocketTransport> self(this);
        emit pongReceived(); // one for all the pongs of a read
        if (!self)
            return false;
    }
    return m_socket && m_phase == Phase::Open;
}

bool NativeWebSocketTransport::onMessage(const MessageView &message, bool binary)
{
    // A batch holds text messages of this read in the order they lie: a message joined behind
    // the read (below the last one's end) or a binary one goes after the batch before it.
    if (m_pendingCount > 0) {
        const MessageView &last = m_pending[m_pendingCount - 1];
        if ((binary || m_pendingCount == kBatchMessages || message.data < last.data + last.size) && !deliverPending())
            return false;
    }
    if (!binary && m_pending) {
        m_pending[m_pendingCount++] = message;
        return true;
    }
    const quint64 connection = m_connection;
    ReceivedMessage received(message, binary, m_buffer);
    m_sink.onMessage(received);
    // Dropped, or dropped and opened again, by the sink: the rest of the read is not ours.
    return m_socket && m_connection == connection;
}

bool NativeWebSocketTransport::deliverPending()
{
    const quint64 connection = m_connection;
    if (m_pendingCount == 1) {
        ReceivedMessage received(m_pending[0], false, m_buffer);
        m_sink.onMessage(received);
    } else if (m_pendingCount > 1) {
        m_sink.onMessages(MessageBatch{m_pending, m_pendingCount, &m_buffer, &m_connection, connection});
    }
    m_pendingCount = 0;
    return m_socket && m_connection == connection;
}

void NativeWebSocketTransport::onPing(const char *payload, qsizetype len)
{
    m_pongPayload = QByteArray(payload, len);
    m_pongDue = true;
}

void NativeWebSocketTransport::onPong()
{
    m_pongSeen = true;
}

bool NativeWebSocketTransport::sendFrame(quint8 opcode, QByteArrayView payload)
{
    if (!m_socket || m_phase != Phase::Open)
        return false;
    const QByteArray frame = ws::clientFrame(opcode, payload, maskKey());
    return m_socket->write(frame) == frame.size();
}

bool NativeWebSocketTransport::sendText(const QString &text)
{
    return sendFrame(ws::kOpText, text.toUtf8());
}

bool NativeWebSocketTransport::ping()
{
    return sendFrame(ws::kOpPing, {});
}

void NativeWebSocketTransport::onSocketError(QAbstractSocket::SocketError error)
{
    if (!m_socket)
        return;
    if (!m_errorText.startsWith(QLatin1String("TLS:")))
        m_errorText = socketErrorText(error, m_socket->errorString());
    // A refused or failed connection never reaches "disconnected".
    if (m_socket->state() != QAbstractSocket::ConnectedState && error != QAbstractSocket::RemoteHostClosedError)
        end(ws::kCloseAbnormal, m_errorText);
}

void NativeWebSocketTransport::onDisconnected()
{
    if (!m_socket)
        return;
    // No close frame came (it would have ended the connection first): an abnormal closure.
    QString reason = m_errorText;
    if (reason.isEmpty())
        reason = m_phase == Phase::Open ? QStringLiteral("the server closed the connection without a close frame")
                                        : QStringLiteral("the server closed the connection during the handshake");
    end(ws::kCloseAbnormal, reason);
}

void NativeWebSocketTransport::end(int reportedCode, QString reason, quint16 closeCode, QString closeReason)
{
    if (!m_socket)
        return;
    QTcpSocket *socket = m_socket;
    m_socket = nullptr;
    ++m_connection;
    socket->disconnect(this);
    if (m_phase == Phase::Open && closeCode != 0 && socket->state() == QAbstractSocket::ConnectedState) {
        // The closing handshake (§7.1.2): our close frame, then the server closes the TCP
        // connection; what it still sends is dropped unread. It gets kCloseWaitMs.
        socket->write(ws::clientCloseFrame(closeCode, closeReason.toUtf8(), maskKey()));
        connect(socket, &QTcpSocket::readyRead, socket, [socket] {
            char dropped[4096];
            qint64 n = 0;
            for (int i = 0; i < 16 && (n = socket->read(dropped, sizeof dropped)) > 0; ++i) {
            }
            if (n < 0) // the server closed it (an unbuffered socket learns it here)
                socket->deleteLater();
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        QTimer::singleShot(kCloseWaitMs, socket, [socket] {
            socket->abort();
            socket->deleteLater();
        });
    } else {
        socket->abort();
        socket->deleteLater();
    }
    release();
    emit disconnected(reportedCode, peerText(reason, kMaxReasonChars));
}

} // namespace streamscope
