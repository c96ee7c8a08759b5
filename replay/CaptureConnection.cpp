#include "CaptureConnection.h"

#include "BookEvents.h"
#include "CaptureServer.h"
#include "FrameSet.h"
#include "RestAnswer.h"
#include "WebSocketWire.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <cmath>

namespace streamscope::replay {

namespace {

constexpr qsizetype kMaxClientBytes = 1024 * 1024;    // what a line client may send before we drop it unread
constexpr qint64 kSocketAheadBytes = 4 * 1024 * 1024; // as fast as possible: kept this far ahead of the kernel
constexpr int kMaxCloseReasonBytes = 123;             // a control frame's 125 bytes less the code

bool isUtf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(bytes);
    Q_UNUSED(text);
    return !decoder.hasError();
}

} // namespace

CaptureConnection::CaptureConnection(QTcpSocket *socket, CaptureServer *server, bool webSocket)
    : QObject(server)
    , m_socket(socket)
    , m_server(server)
    , m_webSocket(webSocket)
{
    socket->setParent(this);
    connect(socket, &QTcpSocket::readyRead, this, &CaptureConnection::onReadyRead);
    connect(socket, &QTcpSocket::bytesWritten, this, &CaptureConnection::pump);
    connect(socket, &QTcpSocket::disconnected, this, &CaptureConnection::finish);
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &CaptureConnection::pump);
    m_readMore = new QTimer(this);
    m_readMore->setSingleShot(true);
    m_readMore->setInterval(0);
    connect(m_readMore, &QTimer::timeout, this, &CaptureConnection::pump);
}

qint64 CaptureConnection::next() const
{
    return m_open || !m_server ? m_next : m_server->position();
}

CaptureConnection::~CaptureConnection() = default;

void CaptureConnection::start()
{
    if (!m_webSocket) {
        m_open = true;
        emit opened();
        m_next = m_server->position();
        pump();
    }
    if (m_socket && m_socket->bytesAvailable() > 0)
        onReadyRead();
    if (m_socket && m_socket->state() != QAbstractSocket::ConnectedState)
        finish();
}

void CaptureConnection::finish()
{
    if (m_open && !m_closedEmitted) {
        m_closedEmitted = true;
        emit closed();
    }
    m_open = false;
    m_timer->stop();
    m_readMore->stop();
    if (m_socket)
        m_socket->disconnect(this);
    deleteLater();
}

void CaptureConnection::onReadyRead()
{
    if (!m_socket)
        return;
    const QByteArray bytes = m_socket->readAll();
    if (!m_webSocket) {
        // A line client's requests (authentication, subscriptions) were answered in the recording.
        m_input += bytes;
        if (m_input.size() > kMaxClientBytes)
            m_input.clear();
        return;
    }
    if (!m_open) {
        m_input += bytes;
        if (m_depthWaiting) { // the next request is read once this one is answered
            if (m_input.size() > kMaxHandshakeBytes)
                m_socket->abort();
            return;
        }
        if (!handleHandshake())
            return;
        m_parser.append(m_input);
        m_input.clear();
    } else {
        m_parser.append(bytes);
    }
    WebSocketFrameParser::Message message;
    for (;;) {
        const auto status = m_parser.next(message);
        if (status == WebSocketFrameParser::Status::NeedMore)
            break;
        if (status == WebSocketFrameParser::Status::Error) {
            m_socket->abort();
            return;
        }
        using Kind = WebSocketFrameParser::Kind;
        if (message.kind == Kind::Ping) {
            m_socket->write(FrameSet::webSocketFrame(message.payload, kFin | kOpPong));
        } else if (message.kind == Kind::Close) {
            if (!m_closing) {
                QByteArray payload(2, Qt::Uninitialized);
                const quint16 code = message.closeCode == kCloseNoStatus ? kCloseNormal : message.closeCode;
                payload[0] = char(code >> 8);
                payload[1] = char(code & 0xff);
                m_socket->write(FrameSet::webSocketFrame(payload, kFin | kOpClose));
                m_closing = true;
            }
            m_socket->disconnectFromHost();
            return;
        }
    }
}

bool CaptureConnection::handleHandshake()
{
    const qsizetype end = m_input.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_input.size() > kMaxHandshakeBytes)
            m_socket->abort();
        return false;
    }
    const QByteArray head = m_input.left(end);
    m_input.remove(0, end + 4);
    const QByteArray key = headerValue(head, "Sec-WebSocket-Key");
    const QList<QByteArray> requestLine = head.left(head.indexOf("\r\n")).split(' ');
    if (m_webSocket && key.isEmpty() && requestLine.size() >= 3 && requestLine[0] == "GET"
        && !depthPathOf(requestLine[1]).isEmpty()) {
        handleDepthRequest(head, requestLine[1]);
        return false;
    }
    if (!head.startsWith("GET ") || key.isEmpty()) {
        m_socket->write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        m_socket->disconnectFromHost();
        return false;
    }
    const QByteArray accept =
        QCryptographicHash::hash(key + QByteArray(kHandshakeGuid), QCryptographicHash::Sha1).toBase64();
    m_socket->write(QByteArrayLiteral("HTTP/1.1 101 Switching Protocols\r\n"
                                      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                      "Sec-WebSocket-Accept: ")
                    + accept + QByteArrayLiteral("\r\n\r\n"));
    m_open = true;
    emit opened();
    m_next = m_server->position();
    QTimer::singleShot(0, this, &CaptureConnection::pump);
    return true;
}

void CaptureConnection::handleDepthRequest(const QByteArray &head, const QByteArray &target)
{
    m_depthWaiting = true;
    m_depthHead = head;
    const QString symbol = QUrlQuery(QUrl(QString::fromLatin1(target))).queryItemValue(QStringLiteral("symbol"));
    m_server->requestDepth(this, symbol);
}

void CaptureConnection::answerDepth(const QByteArray &status, const QByteArray &body)
{
    if (!m_socket || !m_depthWaiting)
        return;
    m_depthWaiting = false;
    bool close = false;
    m_socket->write(jsonAnswer(m_depthHead, status, body, &close));
    m_depthHead.clear();
    if (close) {
        m_socket->disconnectFromHost();
        return;
    }
    // A request that came meanwhile, on the next turn of the loop (the server is answering).
    if (m_input.contains("\r\n\r\n"))
        QTimer::singleShot(0, this, [this] {
            if (!m_open && !m_depthWaiting && m_socket)
                handleHandshake();
        });
}

void CaptureConnection::send(const QByteArray &payload, bool base64)
{
    if (!m_webSocket) {
        m_socket->write(payload + "\r\n");
        return;
    }
    // A base64 line is a binary frame unless its bytes are text (a text message holding CR or LF).
    const bool text = !base64 || isUtf8(payload);
    m_socket->write(FrameSet::webSocketFrame(payload, quint8(kFin | (text ? kOpText : kOpBinary))));
}

void CaptureConnection::closeAsRecorded(const QByteArray &eventJson)
{
    const QJsonObject o = QJsonDocument::fromJson(eventJson).object();
    const int code = o.value(QStringLiteral("code")).toInt();
    m_closing = true;
    m_timer->stop();
    m_readMore->stop();
    if (!m_webSocket || code < 1000 || code == 1005 || code == 1006 || code == 1015 || code > 4999) {
        // No close frame was (or can be) sent for these: the connection just ends.
        m_socket->flush();
        m_socket->disconnectFromHost();
        return;
    }
    QByteArray payload(2, Qt::Uninitialized);
    payload[0] = char(code >> 8);
    payload[1] = char(code & 0xff);
    payload += o.value(QStringLiteral("reason")).toString().toUtf8().left(kMaxCloseReasonBytes);
    m_socket->write(FrameSet::webSocketFrame(payload, kFin | kOpClose));
    m_socket->disconnectFromHost();
}

void CaptureConnection::pump()
{
    if (!m_socket || !m_open || m_closing || !m_server)
        return;
    CaptureWindow &window = m_server->window();
    const double speed = m_server->options().speed;
    quint64 sent = 0;
    const auto moveOn = [&] {
        m_server->setPosition(m_next);
        m_server->addSent(sent);
        m_server->tidy();
    };
    while (m_socket->bytesToWrite() < kSocketAheadBytes) {
        const CaptureWindow::Item *item = nullptr;
        const CaptureWindow::Status status = window.at(&m_next, &item);
        if (status == CaptureWindow::Status::More) {
            m_readMore->start();
            break;
        }
        if (status != CaptureWindow::Status::Ready) {
            m_server->captureEnded(); // the end: the connection stays open and quiet
            break;
        }
        if (item->passStart)
            m_baseUs = -1; // --loop: the pace starts over with the capture
        const CaptureFile::Entry &e = item->entry;
        if (e.kind == CaptureFile::Kind::Event) {
            if (e.event == QLatin1String(capture::kBookSnapshotEvent))
                m_server->bookSnapshotPassed(m_next, e.payload);
            ++m_next;
            if (e.event == QLatin1String("closed")) {
                const QByteArray eventJson = e.payload; // the window may drop it in moveOn()
                moveOn();
                closeAsRecorded(eventJson);
                return;
            }
            continue;
        }
        if (speed > 0) {
            if (m_baseUs < 0) {
                m_baseUs = e.timeUs;
                m_clock.start();
            }
            const double dueMs = double(e.timeUs - m_baseUs) / 1000.0 / speed;
            const double waitMs = dueMs - double(m_clock.nsecsElapsed()) / 1e6;
            if (waitMs > 0.5) {
                m_timer->start(int(std::min(std::ceil(waitMs), 3600.0 * 1000)));
                break;
            }
        }
        send(e.payload, e.kind == CaptureFile::Kind::Binary);
        ++m_next;
        ++sent;
    }
    moveOn();
}

} // namespace streamscope::replay
