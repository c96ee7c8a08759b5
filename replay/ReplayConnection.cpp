#include "ReplayConnection.h"

#include "DepthSnapshot.h"
#include "RestAnswer.h"

#include "ReplayServer.h"
#include "ScenarioPool.h"
#include "WebSocketWire.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

namespace streamscope::replay {

namespace {

// The socket is kept between these two marks ahead of the kernel: enough that the firehose
// never waits for us, little enough that a stop or a misbehaviour acts at once.
constexpr qint64 kLowWaterBytes = 1024 * 1024;
constexpr qint64 kHighWaterBytes = 4 * 1024 * 1024;
constexpr qsizetype kBatchBytes = 256 * 1024;
constexpr qsizetype kMaxHandshakeBytes = 16 * 1024;
// Plain HTTP GETs answered with the server time, as Binance's REST endpoints do.
constexpr QByteArrayView kServerTimePaths[] = {"/api/v3/time", "/fapi/v1/time"};
constexpr qsizetype kMaxLineBytes = 1024 * 1024;
constexpr quint64 kMaxPaceBurst = 100000; // messages per tick after a long backlog

quint64 nowNs()
{
    using namespace std::chrono;
    return quint64(duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count());
}

quint64 nowMs()
{
    using namespace std::chrono;
    return quint64(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
}

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

ReplayConnection::~ReplayConnection() = default;

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
    if (parts.size() >= 3 && parts[0] == "GET" && key.isEmpty()
        && (isServerTimeTarget(parts[1]) || isDepthTarget(parts[1]))) {
        if (isDepthTarget(parts[1]))
            answerDepth(head, QUrl(QString::fromLatin1(parts[1])));
        else
            answerServerTime(head, QUrl(QString::fromLatin1(parts[1])));
        // The next request on a kept-alive connection may already be buffered.
        return m_socket && m_socket->state() == QAbstractSocket::ConnectedState && !m_closing && handleHttpRequest();
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

quint64 ReplayConnection::venueNowMs() const
{
    return quint64(qint64(nowMs()) + m_options.clockOffsetMs);
}

bool ReplayConnection::isServerTimeTarget(const QByteArray &target)
{
    const qsizetype query = target.indexOf('?');
    const QByteArrayView path = QByteArrayView(target).first(query < 0 ? target.size() : query);
    return std::find(std::begin(kServerTimePaths), std::end(kServerTimePaths), path) != std::end(kServerTimePaths);
}

void ReplayConnection::answerServerTime(const QByteArray &head, const QUrl &target)
{
    // The clock of the request's own options: ?clock_offset_ms=N pairs with a stream's.
    const ReplayOptions options = ReplayOptions::fromUrl(m_serverOptions, target);
    const QByteArray body =
        R"({"serverTime":)" + QByteArray::number(quint64(qint64(nowMs()) + options.clockOffsetMs)) + '}';
    answerHttp(head, "200 OK", body);
}

bool ReplayConnection::isDepthTarget(const QByteArray &target)
{
    return !depthPathOf(target).isEmpty();
}

// Binance's REST depth snapshot, after an optional /<scenario> prefix (a book scenario's).
void ReplayConnection::answerDepth(const QByteArray &head, const QUrl &target)
{
    QString scenario = target.path().chopped(depthPathOf(target.path().toLatin1()).size());
    while (scenario.startsWith(QLatin1Char('/')))
        scenario.remove(0, 1);
    if (scenario.isEmpty())
        scenario = m_serverOptions.scenario;
    const std::shared_ptr<const ScenarioPool> pool = ScenarioPool::get(scenario);
    const QUrlQuery query(target);
    const QString symbol = query.queryItemValue(QStringLiteral("symbol"));
    bool limitOk = false;
    const int limit = query.queryItemValue(QStringLiteral("limit")).toInt(&limitOk);
    const qint64 instrument = pool ? pool->instrumentOf(symbol) : -1;
    if (!pool || pool->bookSymbol().isEmpty() || (symbol != pool->bookSymbol() && instrument < 0)) {
        // Binance's answer to a symbol it does not list.
        answerHttp(head, "400 Bad Request", R"({"code":-1121,"msg":"Invalid symbol."})");
        return;
    }
    ReplayServer::DepthPosition at;
    if (m_server) {
        at = instrument >= 0 ? m_server->depthPosition(pool->name(), quint64(instrument), pool->messages().size())
                             : m_server->depthPosition(pool->name());
    }
    const quint64 lastUpdateId = at.poolIndex < 0 ? ScenarioPool::kFirstSeq - 1 : at.lastUpdateId;
    answerHttp(
        head, "200 OK",
        depthSnapshotJson(*pool, at.poolIndex, lastUpdateId, limitOk && limit > 0 ? std::min(limit, 5000) : 100));
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
    if (m_paceTimer)
        m_paceTimer->stop();
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
            if (m_paceTimer)
                m_paceTimer->stop();
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
    if (m_paceTimer)
        m_paceTimer->stop();
    if (m_pingTimer)
        m_pingTimer->stop();
    if (m_open && !m_closedEmitted) {
        m_closedEmitted = true;
        emit closed();
    }
    deleteLater();
}

// ---- data ----------------------------------------------------------------------------------

bool ReplayConnection::setupStream(const ReplayOptions &options, QString *error)
{
    m_options = options;
    m_pool = ScenarioPool::get(options.scenario);
    m_frames = FrameSet::get(m_pool, options.protocol, options.stamp);
    if (!m_pool || !m_frames || m_frames->frames().empty()) {
        *error = QStringLiteral("unknown scenario \"%1\"").arg(options.scenario);
        return false;
    }
    m_target = options.effectiveCount();
    m_numbered = m_pool->messages().front().instrumentOffsets[0] >= 0;
    m_badJson = options.misbehaviour() == ReplayOptions::Misbehaviour::BadJson && options.after;
    switch (options.misbehaviour()) {
    case ReplayOptions::Misbehaviour::Silent: m_event = Event::Silent; break;
    case ReplayOptions::Misbehaviour::Drop: m_event = Event::Drop; break;
    case ReplayOptions::Misbehaviour::BadFrame: m_event = Event::BadFrame; break;
    case ReplayOptions::Misbehaviour::InvalidUtf8: m_event = Event::InvalidUtf8; break;
    case ReplayOptions::Misbehaviour::Oversized: m_event = Event::Oversized; break;
    case ReplayOptions::Misbehaviour::Gap: m_event = Event::Gap; break;
    case ReplayOptions::Misbehaviour::Shutdown: m_event = Event::Shutdown; break;
    default: m_event = Event::None; break;
    }
    m_eventArmed = m_event != Event::None;
    if ((m_event == Event::Drop || m_event == Event::Shutdown) && !options.dropEvery && m_server) {
        const QString key = m_webSocket ? m_requestTarget : QStringLiteral("line");
        m_eventArmed = m_server->claimDrop(m_event == Event::Shutdown ? QStringLiteral("shutdown:") + key : key);
    }
    return true;
}

void ReplayConnection::beginData()
{
    if (m_dataStarted || m_options.idle || m_closing)
        return;
    m_dataStarted = true;
    m_dataClock.start();
    if (m_options.market && m_server) {
        // Join the market where it is now: the events before were someone else's.
        const quint64 start = std::min(m_server->marketPosition(m_options.scenario), m_target);
        m_sent = start;
        m_poolIndex = start;
        m_depthSeq = start;
    }
    if (m_options.rate > 0) {
        m_paceTimer = new QTimer(this);
        m_paceTimer->setTimerType(Qt::PreciseTimer);
        connect(m_paceTimer, &QTimer::timeout, this, &ReplayConnection::onPaceTick);
        // A tenth of the spacing, at least 1 ms: the bucket sends what is due at each tick, so
        // a message leaves at most a tenth of its spacing late, and 10,000 slow connections
        // (the benchmark's scale run) do not ask the event loop for 10 million ticks a second.
        m_paceTimer->start(int(std::clamp(100.0 / m_options.rate, 1.0, 1000.0)));
        resetPacing();
    }
    pump();
}

void ReplayConnection::resetPacing()
{
    m_paceClock.start();
    m_paceBase = m_sent;
}

bool ReplayConnection::canSend() const
{
    return m_socket && m_dataStarted && !m_halted && !m_serverSilent && !m_eventSilent && !m_dropPending && !m_closing;
}

quint64 ReplayConnection::pacedAllowance() const
{
    // Token bucket from the elapsed time since the pacing began: the long-run rate is exact
    // whatever the timer's jitter. The first message goes at once.
    const double due = m_options.rate * double(m_paceClock.nsecsElapsed()) / 1e9;
    return m_paceBase + 1 + quint64(due);
}

void ReplayConnection::onPaceTick()
{
    pump();
}

void ReplayConnection::onBytesWritten()
{
    if (m_dropPending) {
        maybeFinishDrop();
        return;
    }
    if (m_socket && m_socket->bytesToWrite() < kLowWaterBytes)
        pump();
}

void ReplayConnection::pump()
{
    while (canSend()) {
        if (m_eventArmed && m_sent >= m_options.after) {
            fireEvent();
            continue;
        }
        quint64 limit = m_target;
        if (m_eventArmed)
            limit = std::min(limit, m_options.after);
        if (m_options.rate > 0) {
            // After a long stall (a client that does not read) restart the bucket rather
            // than release an unbounded burst.
            if (pacedAllowance() > m_sent + kMaxPaceBurst)
                resetPacing();
            limit = std::min(limit, pacedAllowance());
        }
        if (m_sent >= limit || m_socket->bytesToWrite() >= kHighWaterBytes)
            break;
        writeBatch(limit);
    }
    if (m_paceTimer && m_sent >= m_target)
        m_paceTimer->stop();
}

const FrameSet::Frame &ReplayConnection::pickFrame(quint64 index)
{
    const std::vector<FrameSet::Frame> &frames = m_frames->frames();
    if (m_badJson && (index + 1) % m_options.after == 0)
        return m_frames->badJson();
    if (m_pool->isChangeStream()) {
        if (index == 0)
            return m_resubscribed ? m_frames->resubDelta() : m_frames->subImage();
        if ((index + 1) % ScenarioPool::kHeartbeatEvery == 0)
            return m_frames->heartbeat();
        if (m_options.imageAfter && index == m_options.imageAfter)
            return m_frames->subImage();
        if (m_options.status503Count && index >= m_options.status503After
            && index < m_options.status503After + m_options.status503Count)
            return m_frames->status503();
        if (m_options.segmentEvery) {
            const quint64 k = index % m_options.segmentEvery;
            if (k + 3 >= m_options.segmentEvery)
                return m_frames->segment(int(k + 3 - m_options.segmentEvery));
        }
        if (m_options.conflatedEvery && (index + 1) % m_options.conflatedEvery == 0)
            return m_frames->conflated();
    }
    if (m_numbered) // each instrument walks the pool in order: all of one round share a message
        return frames[size_t(m_depthSeq / m_options.instruments % frames.size())];
    return frames[size_t(m_poolIndex++ % frames.size())];
}

void ReplayConnection::writeBatch(quint64 limit)
{
    // One output buffer per batch, handed to the socket by reference; frames are copied in
    // and patched there. Nothing is allocated per message.
    QByteArray batch(kBatchBytes + m_frames->maxFrameSize(), Qt::Uninitialized);
    char *out = batch.data();
    qsizetype used = 0;
    // A venue falling behind stamps ever older event times (lag_ms_per_s).
    const quint64 lagMs = m_options.lagMsPerS * quint64(m_dataClock.isValid() ? m_dataClock.elapsed() : 0) / 1000;
    FrameSet::writeNumber(m_nowMsText, venueNowMs() - lagMs, ScenarioPool::kTimeMsWidth, '0');
    scenario::writeTimeText(m_nowTimeText, venueNowMs() - lagMs);
    const quint64 first = m_sent;
    qint64 depthIndex = -1; // the batch's last depth diff: its pool index and its u
    quint64 depthLast = 0;
    while (m_sent < limit && used < kBatchBytes) {
        const FrameSet::Frame &frame = pickFrame(m_sent);
        char *dst = out + used;
        std::memcpy(dst, m_frames->frameData(frame), size_t(frame.size));
        if (frame.timeMsOffset >= 0)
            std::memcpy(dst + frame.timeMsOffset, m_nowMsText, ScenarioPool::kTimeMsWidth);
        if (frame.timeTextOffset >= 0)
            std::memcpy(dst + frame.timeTextOffset, m_nowTimeText, ScenarioPool::kTimeTextWidth);
        if (frame.stampOffset >= 0)
            FrameSet::writeNumber(dst + frame.stampOffset, nowNs(), FrameSet::kStampWidth, '0');
        if (frame.instrumentOffsets[0] >= 0) {
            const quint64 instrument = m_options.firstInstrument + m_depthSeq % m_options.instruments;
            FrameSet::writeNumber(dst + frame.instrumentOffsets[0], instrument, ScenarioPool::kInstrumentDigits, '0');
            FrameSet::writeNumber(dst + frame.instrumentOffsets[1], instrument, ScenarioPool::kInstrumentDigits, '0');
        }
        if (frame.firstSeqOffset >= 0) {
            // Each instrument its own sequence: a round of every instrument moves them all on by one.
            const quint64 round = m_numbered ? m_depthSeq / m_options.instruments : m_depthSeq;
            const quint64 firstSeq = ScenarioPool::kFirstSeq + round * (ScenarioPool::kSeqSpan + 1);
            FrameSet::writeNumber(dst + frame.firstSeqOffset, firstSeq, ScenarioPool::kSeqWidth, ' ');
            FrameSet::writeNumber(dst + frame.lastSeqOffset, firstSeq + ScenarioPool::kSeqSpan, ScenarioPool::kSeqWidth,
                                  ' ');
            ++m_depthSeq;
            depthIndex = qint64((m_poolIndex - 1) % m_frames->frames().size());
            depthLast = firstSeq + ScenarioPool::kSeqSpan;
        }
        if (frame.clkOffset >= 0)
            FrameSet::writeNumber(dst + frame.clkOffset, ++m_clk, ScenarioPool::kClkWidth, '0');
        if (frame.tradeIdOffset >= 0)
            FrameSet::writeNumber(dst + frame.tradeIdOffset, ScenarioPool::kFirstTradeId + m_sent,
                                  ScenarioPool::kSeqWidth, ' ');
        if (frame.heartbeatMsOffset >= 0)
            FrameSet::writeNumber(dst + frame.heartbeatMsOffset, m_heartbeatMs, ScenarioPool::kHeartbeatWidth, ' ');
        used += frame.size;
        ++m_sent;
    }
    batch.truncate(used);
    m_socket->write(batch);
    if (m_server) {
        m_server->addSent(m_sent - first);
        if (m_numbered)
            m_server->noteDepthRange(m_pool->name(), m_options.firstInstrument, m_options.instruments, m_depthSeq);
        else if (depthIndex >= 0 && !m_pool->bookSymbol().isEmpty())
            m_server->noteDepth(m_pool->name(), depthIndex, depthLast);
        if (m_options.market)
            m_server->advanceMarket(m_options.scenario, m_sent);
    }
}

void ReplayConnection::fireEvent()
{
    m_eventArmed = false;
    switch (m_event) {
    case Event::Silent:
        m_eventSilent = true;
        if (m_options.silentMs > 0) {
            QTimer::singleShot(std::chrono::milliseconds(m_options.silentMs), this,
                               &ReplayConnection::resumeFromSilence);
        }
        break;
    case Event::Drop:
        m_dropPending = true;
        maybeFinishDrop();
        break;
    case Event::BadFrame:
        if (m_webSocket) {
            // RSV1 with no extension negotiated: a protocol error (1002).
            m_socket->write(FrameSet::webSocketFrame(QByteArrayLiteral("{\"rsv1\":true}"), kFin | kRsv1 | kOpText));
            m_halted = true;
        }
        break;
    case Event::InvalidUtf8:
        if (m_webSocket) {
            // 0xC3 0x28 is not a UTF-8 sequence, 0xFF never occurs in UTF-8 (1007).
            m_socket->write(FrameSet::webSocketFrame(QByteArrayLiteral("{\"s\":\"\xC3\x28\xFF\"}")));
            m_halted = true;
        }
        break;
    case Event::Oversized: {
        const qsizetype size = qsizetype(std::min<quint64>(m_options.oversizedBytes, 1ull << 30));
        // Valid JSON of exactly `size` bytes when size allows it; only its size is wrong.
        const QByteArray head = "{\"stream\":\"oversized\",\"data\":\"";
        QByteArray payload;
        if (size >= head.size() + 2)
            payload = head + QByteArray(size - head.size() - 2, 'x') + "\"}";
        else
            payload = QByteArray(size, 'x');
        m_socket->write(FrameSet::wireMessage(payload, m_options.protocol));
        ++m_sent;
        if (m_server)
            m_server->addSent(1);
        break;
    }
    case Event::Gap: m_depthSeq += m_options.gapCount; break;
    case Event::Shutdown: {
        // Binance announces a maintenance close, keeps serving for a while, then closes.
        const QByteArray notice = R"({"stream":"!serverShutdown","data":{"e":"serverShutdown","E":)"
            + QByteArray::number(venueNowMs()) + "}}";
        m_socket->write(FrameSet::wireMessage(notice, m_options.protocol));
        QTimer::singleShot(std::chrono::milliseconds(m_options.shutdownGraceMs), this, [this] {
            if (m_webSocket)
                sendCloseAndFinish(kCloseGoingAway);
            else if (m_socket)
                m_socket->disconnectFromHost();
        });
        break;
    }
    case Event::None: break;
    }
}

void ReplayConnection::startAgeLimit()
{
    if (m_options.maxAgeMs == 0)
        return;
    // Binance closes every connection at 24 h; scaled down for tests.
    QTimer::singleShot(std::chrono::milliseconds(m_options.maxAgeMs), this, [this] {
        if (m_webSocket)
            sendCloseAndFinish(kCloseNormal);
        else if (m_socket)
            m_socket->disconnectFromHost();
    });
}

void ReplayConnection::sendPerStream(const QStringList &streams)
{
    // One event per stream, so that a client can tell every subscription delivered.
    for (const QString &name : streams) {
        const QByteArray symbol = name.section(QLatin1Char('@'), 0, 0).toUpper().toUtf8();
        const QByteArray json = R"({"stream":")" + name.toUtf8() + R"(","data":{"e":"aggTrade","E":)"
            + QByteArray::number(venueNowMs()) + R"(,"s":")" + symbol + R"(","a":)"
            + QByteArray::number(++m_perStreamSerial) + "}}";
        sendControl(json);
    }
    if (m_server)
        m_server->addSent(quint64(streams.size()));
}

void ReplayConnection::resumeFromSilence()
{
    m_eventSilent = false;
    resetPacing();
    if (m_paceTimer && !m_paceTimer->isActive() && m_sent < m_target)
        m_paceTimer->start(1);
    pump();
}

void ReplayConnection::maybeFinishDrop()
{
    // Let the messages before the drop reach the client, then cut the connection without a
    // close frame, as a network failure would.
    // Queued: aborting a QSslSocket from inside its own bytesWritten signal crashes it.
    if (m_socket && m_socket->bytesToWrite() == 0) {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_socket)
                    m_socket->abort();
            },
            Qt::QueuedConnection);
    }
}

} // namespace streamscope::replay
