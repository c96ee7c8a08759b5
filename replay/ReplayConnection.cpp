// ReplayConnection: the session (the websocket handshake and frames, or lines) and the
// client's control messages. The data stream and its pacing: ReplayConnectionData.cpp; the REST
// answers: ScenarioRest.h.

#include "ReplayConnection.h"

#include "ReplayServer.h"
#include "RestAnswer.h"
#include "ScenarioPool.h"
#include "ScenarioRest.h"
#include "WebSocketWire.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <optional>

namespace streamscope::replay {

namespace {

constexpr qsizetype kMaxLineBytes = 1024 * 1024;

// A JSON value as compact text (ids are echoed exactly as the client sent them).
QByteArray jsonText(const QJsonValue &value)
{
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

} // namespace

ReplayConnection::ReplayConnection(QTcpSocket *socket, const ReplayOptions &serverOptions, quint64 serial,
                                   ReplayServer *server)
    : QObject(server)
    , m_socket(socket)
    , m_server(server)
    , m_serverOptions(serverOptions)
    , m_options(serverOptions)
    , m_serial(serial)
    , m_webSocket(serverOptions.protocol == ReplayOptions::Protocol::WebSocket)
{
    socket->setParent(this);
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(socket, &QTcpSocket::readyRead, this, &ReplayConnection::onReadyRead);
    connect(socket, &QTcpSocket::bytesWritten, this, &ReplayConnection::onBytesWritten);
    connect(socket, &QTcpSocket::disconnected, this, &ReplayConnection::onDisconnected);
}

ReplayConnection::~ReplayConnection()
{
    stopPaceTicks();
}

void ReplayConnection::start()
{
    m_serverSilent = m_server && m_server->isSilent();
    if (!m_webSocket) {
        QString error;
        if (!setupStream(m_serverOptions, &error)) {
            m_socket->abort();
            return;
        }
        m_open = true;
        emit opened();
        startAgeLimit();
        sendControl(QByteArrayLiteral("{\"op\":\"connection\",\"connectionId\":\"002-")
                    + QByteArray::number(m_serial).rightJustified(12, '0') + "\"}");
        // A change stream's (Betfair's) data follows a subscription; other scenarios over lines start at once.
        if (!m_pool->isChangeStream())
            beginData();
    }
    if (m_socket->bytesAvailable() > 0)
        onReadyRead();
    if (m_socket->state() != QAbstractSocket::ConnectedState)
        onDisconnected();
}

void ReplayConnection::abortNow()
{
    if (m_socket)
        m_socket->abort();
}

void ReplayConnection::setSilent(bool silent)
{
    m_serverSilent = silent;
    if (!silent) {
        resetPacing();
        pump();
    }
}

// ---- input ---------------------------------------------------------------------------------

void ReplayConnection::onReadyRead()
{
    if (!m_socket)
        return;
    const QByteArray bytes = m_socket->readAll();
    if (!m_webSocket) {
        m_input.append(bytes);
        qsizetype start = 0;
        for (qsizetype nl = m_input.indexOf('\n'); nl >= 0; nl = m_input.indexOf('\n', start)) {
            QByteArray line = m_input.mid(start, nl - start);
            start = nl + 1;
            if (line.endsWith('\r'))
                line.chop(1);
            if (!line.isEmpty())
                handleLine(line);
            if (!m_socket)
                return;
        }
        m_input.remove(0, start);
        if (m_input.size() > kMaxLineBytes)
            m_socket->abort();
        return;
    }
    if (!m_handshakeDone) {
        m_input.append(bytes);
        if (!handleHttpRequest())
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
            sendCloseAndFinish(m_parser.errorCode());
            break;
        }
        handleClientMessage(message);
        if (!m_socket)
            break;
    }
}

bool ReplayConnection::handleHttpRequest()
{
    const qsizetype end = m_input.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_input.size() > kMaxHandshakeBytes)
            rejectHttp("431 Request Header Fields Too Large", "request header too large\n");
        return false;
    }
    const QByteArray head = m_input.left(end);
    m_input.remove(0, end + 4);
    const QByteArray requestLine = head.left(head.indexOf("\r\n"));
    const QList<QByteArray> parts = requestLine.split(' ');
    const QByteArray key = headerValue(head, "Sec-WebSocket-Key");
    if (parts.size() >= 3 && parts[0] == "GET" && key.isEmpty()) {
        if (const std::optional<RestReply> reply = scenarioRestAnswer(parts[1], m_serverOptions, m_server)) {
            answerHttp(head, reply->status, reply->body);
            // The next request on a kept-alive connection may already be buffered.
            return m_socket && m_socket->state() == QAbstractSocket::ConnectedState && !m_closing
                && handleHttpRequest();
        }
    }
    if (parts.size() < 3 || parts[0] != "GET" || key.isEmpty()) {
        rejectHttp("400 Bad Request", "websocket upgrade expected\n");
        return false;
    }
    m_requestTarget = QString::fromLatin1(parts[1]);
    const QUrl url(m_requestTarget);
    const ReplayOptions options = ReplayOptions::fromUrl(m_serverOptions, url);
    QString error = options.validate();
    if (error.isEmpty() && !setupStream(options, &error))
        error = QStringLiteral("cannot build the stream");
    if (!error.isEmpty()) {
        rejectHttp("400 Bad Request", error.toUtf8() + '\n');
        return false;
    }
    m_subscriptions = ReplayOptions::streamsFromUrl(url);

    const QByteArray accept =
        QCryptographicHash::hash(key + QByteArray(kHandshakeGuid), QCryptographicHash::Sha1).toBase64();
    m_socket->write(QByteArrayLiteral("HTTP/1.1 101 Switching Protocols\r\n"
                                      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                      "Sec-WebSocket-Accept: ")
                    + accept + QByteArrayLiteral("\r\n\r\n"));
    m_handshakeDone = true;
    m_open = true;
    if (m_options.pingMs > 0) {
        m_pingTimer = new QTimer(this);
        connect(m_pingTimer, &QTimer::timeout, this, &ReplayConnection::onPingTick);
        m_pingTimer->start(int(std::min<quint64>(m_options.pingMs, 1u << 30)));
    }
    emit opened();
    startAgeLimit();
    if (!m_options.waitSubscribe)
        beginData();
    return true;
}

void ReplayConnection::answerHttp(const QByteArray &head, const QByteArray &status, const QByteArray &body)
{
    bool close = false;
    m_socket->write(jsonAnswer(head, status, body, &close));
    if (close) {
        m_closing = true;
        m_socket->disconnectFromHost();
    }
}

void ReplayConnection::rejectHttp(const QByteArray &status, const QByteArray &body)
{
    m_closing = true;
    m_socket->write("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: "
                    + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    m_socket->disconnectFromHost();
}

void ReplayConnection::handleClientMessage(const WebSocketFrameParser::Message &message)
{
    using Kind = WebSocketFrameParser::Kind;
    switch (message.kind) {
    case Kind::Text:
    case Kind::Binary:
        emit controlReceived(QString::fromUtf8(message.payload));
        if (m_closing)
            break;
        if (m_pool && m_pool->control())
            handleVenueControl(message.payload);
        else
            handleBinanceControl(message.payload);
        break;
    case Kind::Ping:
        if (!m_closing)
            m_socket->write(FrameSet::webSocketFrame(message.payload, kFin | kOpPong));
        break;
    case Kind::Pong: break;
    case Kind::Close:
        // Echo the code (1000 when the client gave none), then let the client close TCP.
        sendCloseAndFinish(message.closeCode == kCloseNoStatus ? kCloseNormal : message.closeCode);
        break;
    case Kind::None: break;
    }
}

void ReplayConnection::sendCloseAndFinish(quint16 code)
{
    if (!m_socket)
        return;
    if (!m_closing) {
        m_closing = true;
        QByteArray payload;
        payload.append(char(code >> 8));
        payload.append(char(code & 0xff));
        m_socket->write(FrameSet::webSocketFrame(payload, kFin | kOpClose));
    }
    stopPaceTicks();
    m_socket->disconnectFromHost();
}

void ReplayConnection::handleBinanceControl(const QByteArray &text)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        const QString reason = parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                            : QStringLiteral("expected a JSON object");
        QJsonObject error{{QStringLiteral("code"), 3},
                          {QStringLiteral("msg"), QStringLiteral("Invalid JSON: ") + reason}};
        sendControl(QJsonDocument(error).toJson(QJsonDocument::Compact));
        return;
    }
    const QJsonObject request = doc.object();
    const QString method = request.value(QStringLiteral("method")).toString();
    const QByteArray id = jsonText(request.value(QStringLiteral("id")));
    const QJsonArray params = request.value(QStringLiteral("params")).toArray();
    QByteArray result = "null";
    QStringList added;
    if (method == QLatin1String("SUBSCRIBE")) {
        for (const QJsonValue &param : params) {
            if (!m_subscriptions.contains(param.toString()) && !added.contains(param.toString()))
                added.append(param.toString());
        }
        if (m_subscriptions.size() + added.size() > m_options.maxStreams) {
            sendControl(R"({"error":{"code":2,"msg":"Invalid request: at most )"
                        + QByteArray::number(m_options.maxStreams) + R"( streams per connection"},"id":)" + id + '}');
            return;
        }
        m_subscriptions.append(added);
    } else if (method == QLatin1String("UNSUBSCRIBE")) {
        for (const QJsonValue &param : params)
            m_subscriptions.removeAll(param.toString());
    } else if (method == QLatin1String("LIST_SUBSCRIPTIONS")) {
        result = QJsonDocument(QJsonArray::fromStringList(m_subscriptions)).toJson(QJsonDocument::Compact);
    } else if (request.value(QStringLiteral("id")).isString()) {
        // The websocket API: string ids, a status, and the rate-limit counters after each
        // request (weight 1 per request here). "order.test" is refused, as Binance would
        // refuse an order the account cannot pay for.
        ++m_apiRequests;
        const QByteArray limits =
            R"(,"rateLimits":[{"rateLimitType":"REQUEST_WEIGHT","interval":"MINUTE","intervalNum":1,"limit":6000,"count":)"
            + QByteArray::number(m_apiRequests) + "}]}";
        if (method == QLatin1String("order.test"))
            sendControl(
                R"({"id":)" + id
                + R"(,"status":400,"error":{"code":-2010,"msg":"Account has insufficient balance for requested action."})"
                + limits);
        else
            sendControl(R"({"id":)" + id + R"(,"status":200,"result":{"serverTime":)" + QByteArray::number(venueNowMs())
                        + '}' + limits);
        return;
    } else {
        sendControl(R"({"error":{"code":2,"msg":"Invalid request: unknown method"},"id":)" + id + '}');
        return;
    }
    // Binance's own key order: result first, then id.
    sendControl("{\"result\":" + result + ",\"id\":" + id + '}');
    if (m_options.perStream && !added.isEmpty())
        sendPerStream(added);
    if (method == QLatin1String("SUBSCRIBE") && !m_dataStarted)
        beginData();
}

void ReplayConnection::handleVenueControl(const QByteArray &text)
{
    // The scenario's venue answers its own requests (OKX: op subscribe, "ping" → "pong").
    const scenario::ControlAnswer answer = m_pool->control()(text);
    for (const QByteArray &reply : answer.replies)
        sendControl(reply);
    if (answer.startsData && !m_dataStarted)
        beginData();
}

void ReplayConnection::handleLine(const QByteArray &line)
{
    emit controlReceived(QString::fromUtf8(line));
    if (m_closing)
        return;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    const QJsonObject request = doc.object();
    const QString op = request.value(QStringLiteral("op")).toString();
    const QByteArray id = jsonText(request.value(QStringLiteral("id")));
    auto status = [&](bool ok, const char *errorCode, const QString &errorMessage, bool close) {
        QByteArray reply = "{\"op\":\"status\",\"id\":" + id;
        if (ok) {
            reply += R"(,"statusCode":"SUCCESS","connectionClosed":false)";
            if (op == QLatin1String("authentication"))
                reply += R"(,"connectionsAvailable":9)";
        } else {
            reply += R"(,"statusCode":"FAILURE","errorCode":")" + QByteArray(errorCode) + R"(","errorMessage":)"
                + jsonText(errorMessage) + R"(,"connectionClosed":)" + (close ? "true" : "false");
        }
        sendControl(reply + '}');
        if (close) {
            m_closing = true;
            stopPaceTicks();
            m_socket->disconnectFromHost();
        }
    };

    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        status(false, "INVALID_INPUT", QStringLiteral("Invalid JSON: ") + parseError.errorString(), false);
    } else if (op == QLatin1String("authentication")) {
        const QString session = request.value(QStringLiteral("session")).toString();
        if (!m_options.authSession.isEmpty() && session != m_options.authSession) {
            status(false, "NO_SESSION", QStringLiteral("Session token is invalid or expired"), true);
            return;
        }
        m_authenticated = true;
        status(true, "", {}, false);
    } else if (op == QLatin1String("marketSubscription") || op == QLatin1String("orderSubscription")) {
        if (!m_options.authSession.isEmpty() && !m_authenticated) {
            status(false, "NOT_AUTHORIZED", QStringLiteral("Authenticate first"), true);
            return;
        }
        m_resubscribed = request.contains(QStringLiteral("clk")) || request.contains(QStringLiteral("initialClk"));
        if (request.contains(QStringLiteral("heartbeatMs")))
            m_heartbeatMs = quint64(std::clamp(request.value(QStringLiteral("heartbeatMs")).toInt(), 500, 30000));
        status(true, "", {}, false);
        if (!m_dataStarted)
            beginData();
    } else if (op == QLatin1String("heartbeat")) {
        status(true, "", {}, false);
    } else {
        status(false, "INVALID_REQUEST", QStringLiteral("Unknown op \"%1\"").arg(op), false);
    }
}

void ReplayConnection::sendControl(const QByteArray &json)
{
    if (!m_socket)
        return;
    m_socket->write(FrameSet::wireMessage(json, m_options.protocol));
}

void ReplayConnection::onPingTick()
{
    if (m_socket && !m_closing)
        m_socket->write(FrameSet::webSocketFrame(QByteArrayLiteral("replay"), kFin | kOpPing));
}

void ReplayConnection::onDisconnected()
{
    stopPaceTicks();
    if (m_pingTimer)
        m_pingTimer->stop();
    if (m_open && !m_closedEmitted) {
        m_closedEmitted = true;
        emit closed();
    }
    deleteLater();
}

} // namespace streamscope::replay
