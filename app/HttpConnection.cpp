#include "HttpConnection.h"

#include <QtCore/QList>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>

#ifdef Q_OS_WIN
#include <winsock2.h>
#else
#include <sys/socket.h>
#endif

namespace streamscope::app {

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return QByteArrayLiteral("OK");
    case 400: return QByteArrayLiteral("Bad Request");
    case 404: return QByteArrayLiteral("Not Found");
    case 401: return QByteArrayLiteral("Unauthorized");
    case 405: return QByteArrayLiteral("Method Not Allowed");
    case 408: return QByteArrayLiteral("Request Timeout");
    case 414: return QByteArrayLiteral("URI Too Long");
    case 431: return QByteArrayLiteral("Request Header Fields Too Large");
    case 505: return QByteArrayLiteral("HTTP Version Not Supported");
    default: return QByteArrayLiteral("Unknown");
    }
}

// HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 closes unless asked to keep it.
bool wantsKeepAlive(const HttpRequestHead &request)
{
    bool close = false;
    bool keepAlive = false;
    for (const QByteArray &token : request.connection.split(',')) {
        const QByteArray t = token.trimmed();
        close = close || t == "close";
        keepAlive = keepAlive || t == "keep-alive";
    }
    if (close)
        return false;
    return request.versionMinor >= 1 || keepAlive;
}

// Shuts our sending side, so that the client reads the answer and then the end of the stream,
// while we may still read (and discard) what it sends. QTcpSocket has no half-close of its own.
void shutdownSending(QTcpSocket *socket)
{
    const qintptr fd = socket->socketDescriptor();
    if (fd < 0)
        return;
#ifdef Q_OS_WIN
    ::shutdown(SOCKET(fd), SD_SEND);
#else
    ::shutdown(int(fd), SHUT_WR);
#endif
}

} // namespace

HttpConnection::HttpConnection(QTcpSocket *socket, const HttpServerLimits &limits, Handler handler, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_timer(new QTimer(this))
    , m_limits(limits)
    , m_handler(std::move(handler))
{
    m_socket->setParent(this);
    // Qt reads no more from the kernel than one head can hold (+1 to see it is over); the
    // rest waits there, and TCP slows the client down.
    m_socket->setReadBufferSize(m_limits.maxRequestLineBytes + m_limits.maxHeaderBytes + 5);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &HttpConnection::onTimeout);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::onBytesWritten);
    connect(m_socket, &QTcpSocket::stateChanged, this, [this](QAbstractSocket::SocketState state) {
        if (state == QAbstractSocket::UnconnectedState)
            finish();
    });
    m_phase = Phase::ReadingHead;
    m_timer->start(m_limits.requestTimeoutMs);
    // Bytes (or the close) may have arrived before the signals were connected; look once the
    // owner has connected finished().
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (m_socket->state() != QAbstractSocket::ConnectedState)
                finish();
            else
                onReadyRead();
        },
        Qt::QueuedConnection);
}

HttpConnection::~HttpConnection() = default;

void HttpConnection::onReadyRead()
{
    switch (m_phase) {
    case Phase::Idle:
        setPhase(Phase::ReadingHead);
        m_timer->start(m_limits.requestTimeoutMs);
        readAndParse();
        break;
    case Phase::ReadingHead: readAndParse(); break;
    case Phase::Lingering: m_socket->readAll(); break;
    case Phase::Writing: // the next request waits until this response is sent
    case Phase::Unknown:
    case Phase::Done: break;
    }
}

void HttpConnection::readAndParse()
{
    const qsizetype maxHeadBytes = m_limits.maxRequestLineBytes + m_limits.maxHeaderBytes + 4;
    if (m_buffer.size() <= maxHeadBytes && m_socket->bytesAvailable() > 0)
        m_buffer += m_socket->read(maxHeadBytes + 1 - m_buffer.size());
    const HeadParseResult parsed = parseRequestHead(m_buffer, m_limits);
    switch (parsed.status) {
    case HeadParseStatus::NeedMore: return;
    case HeadParseStatus::Complete: {
        m_buffer.remove(0, parsed.consumed);
        const HttpResponse response = m_handler(parsed.head);
        // A body is never read: the connection closes after the answer, and lingering
        // discards the body.
        const bool keepAlive = wantsKeepAlive(parsed.head) && !parsed.head.hasBody;
        respond(response, parsed.head.method == "HEAD", keepAlive, parsed.head.versionMinor);
        return;
    }
    case HeadParseStatus::Unknown:
    case HeadParseStatus::BadRequest:
    case HeadParseStatus::UriTooLong:
    case HeadParseStatus::HeadersTooLarge:
    case HeadParseStatus::VersionNotSupported: respondError(statusCode(parsed.status)); return;
    }
}

void HttpConnection::respond(const HttpResponse &response, bool head, bool keepAlive, int versionMinor)
{
    QByteArray out;
    out.reserve(256 + (head ? 0 : response.body.size()));
    out += "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status) + "\r\n";
    if (!response.contentType.isEmpty())
        out += "Content-Type: " + response.contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
    out += response.extraHeaders;
    if (!keepAlive || response.closeAtOnce)
        out += "Connection: close\r\n";
    else if (versionMinor == 0)
        out += "Connection: keep-alive\r\n";
    out += "\r\n";
    if (!head)
        out += response.body;
    m_keepAlive = keepAlive && !response.closeAtOnce;
    m_closeAtOnce = response.closeAtOnce;
    setPhase(Phase::Writing);
    // The client must take its answer within the request timeout too.
    m_timer->start(m_limits.requestTimeoutMs);
    m_socket->write(out);
    if (m_closeAtOnce) {
        // Handed to the kernel now (a short answer fits its buffer), then closed: no linger.
        m_socket->flush();
        if (m_socket->bytesToWrite() == 0)
            finish();
    }
}

HttpResponse plainTextResponse(int status, QByteArray extraHeaders)
{
    return {status, QByteArrayLiteral("text/plain; charset=utf-8"), reasonPhrase(status) + '\n',
            std::move(extraHeaders)};
}

void HttpConnection::respondError(int status)
{
    respond(plainTextResponse(status), false, false, 1);
}

void HttpConnection::onBytesWritten()
{
    if (m_phase != Phase::Writing || m_socket->bytesToWrite() > 0)
        return;
    if (m_closeAtOnce) {
        finish();
        return;
    }
    if (!m_keepAlive) {
        startLingering();
        return;
    }
    if (m_buffer.isEmpty() && m_socket->bytesAvailable() == 0) {
        setPhase(Phase::Idle);
        m_timer->start(m_limits.idleTimeoutMs);
        return;
    }
    // A pipelined request is already here: its time counts from now.
    setPhase(Phase::ReadingHead);
    m_timer->start(m_limits.requestTimeoutMs);
    readAndParse();
}

void HttpConnection::startLingering()
{
    setPhase(Phase::Lingering);
    m_buffer.clear();
    m_buffer.squeeze();
    shutdownSending(m_socket);
    m_timer->start(m_limits.lingerMs);
    m_socket->readAll();
}

void HttpConnection::onTimeout()
{
    switch (m_phase) {
    case Phase::ReadingHead:
        // A client that started a request and did not finish it is told so; one that sent
        // nothing is just closed.
        if (!m_buffer.isEmpty() || m_socket->bytesAvailable() > 0)
            respondError(408);
        else
            finish();
        break;
    case Phase::Idle:
    case Phase::Writing: // the client does not take its answer
    case Phase::Lingering:
    case Phase::Unknown: finish(); break;
    case Phase::Done: break;
    }
}

bool HttpConnection::pollRequest()
{
    if (m_phase != Phase::Idle && m_phase != Phase::ReadingHead)
        return m_phase == Phase::Writing || m_phase == Phase::Done;
    // Bytes Qt already holds are parsed as they are; otherwise the kernel is asked once, and
    // readyRead (emitted from within) reads and answers.
    if (m_socket->bytesAvailable() > 0)
        onReadyRead();
    else
        m_socket->waitForReadyRead(0);
    return m_phase == Phase::Writing || m_phase == Phase::Done;
}

void HttpConnection::close()
{
    finish();
}

void HttpConnection::setPhase(Phase phase)
{
    const bool wasBusy = isBusy(m_phase);
    m_phase = phase;
    if (isBusy(phase) != wasBusy)
        emit busyChanged(!wasBusy);
}

void HttpConnection::finish()
{
    if (m_phase == Phase::Done)
        return;
    setPhase(Phase::Done);
    m_timer->stop();
    m_socket->abort();
    emit finished();
    deleteLater();
}

} // namespace streamscope::app
