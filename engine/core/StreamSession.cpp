#include "StreamSession.h"

#include "EngineWorker.h"
#include "SecretStore.h"
#include "StreamShared.h"
#include "protocol/MessageDecoder.h"
#include "transport/LineTransport.h"
#include "transport/WebSocketTransport.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <chrono>
#include <cmath>

namespace streamscope {

namespace {

inline qint64 wallClockUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

inline qint64 nowMs()
{
    return wallClockUs() / 1000;
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', ms < 10000 ? 1 : 0) + QStringLiteral(" s");
}

} // namespace

StreamSession::StreamSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config, MessageDecoder &decoder,
                             EngineWorker &worker, QObject *parent)
    : QObject(parent)
    , m_shared(std::move(shared))
    , m_decoder(decoder)
    , m_worker(worker)
    , m_reconnectTimer(this)
    , m_outboxTimer(this)
    , m_backoff(config.reconnectBaseMs, config.reconnectMaxMs)
{
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, [this] {
        m_shared->counters.reconnects.add();
        connectNow();
    });
    m_outboxTimer.setSingleShot(true);
    connect(&m_outboxTimer, &QTimer::timeout, this, [this] { flushOutbox(nowMs()); });
    updateConfig(config);
}

StreamSession::~StreamSession()
{
    dropConnection();
}

StreamId StreamSession::id() const
{
    return m_shared->id;
}

void StreamSession::updateConfig(const StreamConfig &config)
{
    m_config = config;
    m_subscriptions = config.subscribe;
    m_parsed = config.mode != DecodeMode::Raw;
    m_latencyPointer = config.latencyField.toStdString();
    m_usPerUnit = config.latencyField.isEmpty() ? 1000.0 : microsecondsPerUnit(config.latencyUnit);
    m_backoff = Backoff(config.reconnectBaseMs, config.reconnectMaxMs);
}

// ---- commands ------------------------------------------------------------------------

void StreamSession::start()
{
    m_backoff.reset();
    connectNow();
}

void StreamSession::stop()
{
    dropConnection();
    m_reconnectTimer.stop();
    m_outbox.clear();
    setState(StreamState::Stopped, QStringLiteral("stopped by user"));
}

void StreamSession::restart()
{
    dropConnection();
    m_reconnectTimer.stop();
    m_backoff.reset();
    connectNow();
}

void StreamSession::sendControl(const QString &method, const QStringList &params, qint64 requestId)
{
    if (method == QLatin1String("SUBSCRIBE")) {
        for (const QString &p : params)
            if (!m_subscriptions.contains(p))
                m_subscriptions << p;
    } else if (method == QLatin1String("UNSUBSCRIBE")) {
        for (const QString &p : params)
            m_subscriptions.removeAll(p);
    }
    if (m_active)
        enqueue(binanceControl(method, params, requestId));
}

void StreamSession::sendRaw(const QString &text)
{
    if (!m_active)
        return;
    // A request with an id gets its response matched like our own control messages.
    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
    const QJsonValue requestId = o.value(QStringLiteral("id"));
    if (requestId.isString() || requestId.isDouble()) {
        const QString key = requestId.isString() ? requestId.toString() : QString::number(requestId.toInteger());
        QString method = o.value(QStringLiteral("method")).toString();
        if (method.isEmpty())
            method = o.value(QStringLiteral("op")).toString();
        m_pending.insert(key, Pending{method, nowMs()});
    }
    enqueue(text);
}

QString StreamSession::binanceControl(const QString &method, const QStringList &params, qint64 requestId)
{
    QJsonObject o{{QStringLiteral("method"), method}};
    if (method != QLatin1String("LIST_SUBSCRIPTIONS"))
        o.insert(QStringLiteral("params"), QJsonArray::fromStringList(params));
    o.insert(QStringLiteral("id"), requestId);
    m_pending.insert(QString::number(requestId), Pending{method, nowMs()});
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// ---- connection ------------------------------------------------------------------------

void StreamSession::connectNow()
{
    dropConnection();
    const QString scheme = m_config.url.scheme();
    if (!m_config.url.isValid() || m_config.url.host().isEmpty()) {
        fail(QStringLiteral("invalid URL '%1'").arg(m_config.url.toString()));
        return;
    }
    if (scheme == QLatin1String("ws") || scheme == QLatin1String("wss")) {
        m_transport = new WebSocketTransport(m_config, m_decoder, *this);
    } else if (scheme == QLatin1String("tcp") || scheme == QLatin1String("tls")) {
        m_transport = new LineTransport(m_config, m_decoder, *this);
    } else {
        fail(QStringLiteral("unsupported URL scheme '%1' (expected ws, wss, tcp or tls)").arg(scheme));
        return;
    }
    for (const auto &header : std::as_const(m_config.headers)) {
        bool ok = true;
        SecretStore::resolve(header.second, &ok);
        if (!ok) {
            fail(QStringLiteral("header %1: secret %2 is not set").arg(header.first, header.second));
            return;
        }
    }
    connect(m_transport, &Transport::connected, this, &StreamSession::onConnected);
    connect(m_transport, &Transport::disconnected, this, &StreamSession::onDisconnected);
    connect(m_transport, &Transport::pongReceived, this, [this] { m_lastPongMs = nowMs(); });
    m_connectStartedMs = nowMs();
    setState(StreamState::Connecting, QStringLiteral("connecting to %1").arg(m_config.url.toDisplayString()));
    m_transport->open();
}

void StreamSession::dropConnection()
{
    m_active = false;
    if (m_transport) {
        m_transport->disconnect(this);
        m_transport->abort();
        m_transport->deleteLater();
        m_transport = nullptr;
    }
    m_pending.clear();
    m_sentTimesMs.clear();
}

void StreamSession::onConnected()
{
    const qint64 now = nowMs();
    m_active = true;
    m_connectedMs = now;
    m_lastPongMs = now;
    m_lastPingMs = now;
    m_lastHeartbeatSentMs = now;
    m_liveSinceMs = 0;
    m_everConnected = true;
    m_sequences.reset();
    emitEvent(EventKind::Connected, QStringLiteral("connected to %1").arg(m_config.url.toDisplayString()));
    const bool hasRequests = !m_subscriptions.isEmpty() || !m_config.sendOnConnect.isEmpty()
                             || m_config.venue == Venue::Betfair;
    if (hasRequests) {
        setState(StreamState::Subscribing, QStringLiteral("subscribing"));
        sendOnConnect();
    } else {
        setState(StreamState::Live, QStringLiteral("connected"));
        m_liveSinceMs = now;
    }
}

void StreamSession::sendOnConnect()
{
    if (m_config.venue == Venue::Betfair) {
        bool keyOk = true;
        bool sessionOk = true;
        const QString appKey = SecretStore::resolve(m_config.appKey, &keyOk);
        const QString session = SecretStore::resolve(m_config.session, &sessionOk);
        if (!keyOk || !sessionOk) {
            fail(QStringLiteral("Betfair credentials not available (%1)")
                     .arg(!keyOk ? m_config.appKey : m_config.session));
            return;
        }
        const qint64 authId = EngineWorker::nextRequestId();
        m_authRequestId = QString::number(authId);
        m_pending.insert(m_authRequestId, Pending{QStringLiteral("authentication"), nowMs()});
        enqueue(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("op"), QStringLiteral("authentication")},
                                                            {QStringLiteral("id"), authId},
                                                            {QStringLiteral("appKey"), appKey},
                                                            {QStringLiteral("session"), session}})
                                      .toJson(QJsonDocument::Compact)));
        const auto subscribe = [this](const QString &op, QJsonObject body) {
            const qint64 id = EngineWorker::nextRequestId();
            body.insert(QStringLiteral("op"), op);
            body.insert(QStringLiteral("id"), id);
            if (op == QLatin1String("marketSubscription") && !body.contains(QStringLiteral("heartbeatMs")))
                body.insert(QStringLiteral("heartbeatMs"), m_config.heartbeatMs);
            m_pending.insert(QString::number(id), Pending{op, nowMs()});
            enqueue(QString::fromUtf8(QJsonDocument(body).toJson(QJsonDocument::Compact)));
        };
        if (!m_config.marketSubscription.isEmpty())
            subscribe(QStringLiteral("marketSubscription"), m_config.marketSubscription);
        if (!m_config.orderSubscription.isEmpty())
            subscribe(QStringLiteral("orderSubscription"), m_config.orderSubscription);
    }
    if (!m_subscriptions.isEmpty())
        enqueue(binanceControl(QStringLiteral("SUBSCRIBE"), m_subscriptions, EngineWorker::nextRequestId()));
    for (const QString &text : std::as_const(m_config.sendOnConnect))
        enqueue(text);
}

int StreamSession::controlMessagesPerSecond() const
{
    if (m_config.venue != Venue::Binance)
        return 0; // unpaced
    return m_config.url.host().startsWith(QLatin1String("fstream")) ? 10 : 5;
}

void StreamSession::enqueue(const QString &text)
{
    m_outbox.push_back(text);
    flushOutbox(nowMs());
}

void StreamSession::flushOutbox(qint64 now)
{
    const int limit = controlMessagesPerSecond();
    while (!m_outbox.empty() && m_transport && m_active) {
        if (limit > 0) {
            while (!m_sentTimesMs.empty() && now - m_sentTimesMs.front() >= 1000)
                m_sentTimesMs.pop_front();
            // Keep one slot free for pings and pongs within the venue's per-second limit.
            if (int(m_sentTimesMs.size()) >= limit - 1) {
                m_outboxTimer.start(int(std::max<qint64>(1, 1000 - (now - m_sentTimesMs.front()))));
                return;
            }
            m_sentTimesMs.push_back(now);
        }
        m_transport->sendText(m_outbox.front());
        m_outbox.pop_front();
    }
}

void StreamSession::onDisconnected(int closeCode, const QString &reason)
{
    m_active = false;
    m_shared->setLastCloseCode(closeCode);
    const QString text = closeCode ? QStringLiteral("%1 (close code %2)").arg(reason).arg(closeCode) : reason;
    emitEvent(EventKind::Disconnected, text, closeCode);
    scheduleReconnect(text);
}

void StreamSession::scheduleReconnect(const QString &reason)
{
    dropConnection();
    if (m_state == StreamState::Stopped || m_state == StreamState::Failed)
        return;
    m_lastDisconnectReason = reason;
    const int delay = m_backoff.nextDelayMs();
    const qint64 at = nowMs() + delay;
    setState(StreamState::Reconnecting,
             QStringLiteral("%1; reconnect attempt %2 in %3").arg(reason).arg(m_backoff.attempt()).arg(seconds(delay)),
             at);
    emitEvent(EventKind::ReconnectScheduled,
              QStringLiteral("reconnecting in %1 (attempt %2): %3").arg(seconds(delay)).arg(m_backoff.attempt()).arg(reason));
    m_reconnectTimer.start(delay);
}

void StreamSession::fail(const QString &reason)
{
    dropConnection();
    m_reconnectTimer.stop();
    setState(StreamState::Failed, reason);
}

void StreamSession::setState(StreamState state, const QString &reason, qint64 nextRetryAtMs)
{
    m_state = state;
    m_shared->setState(state, reason, nowMs(), nextRetryAtMs);
    StreamEvent e;
    e.stream = id();
    e.timeMs = nowMs();
    e.kind = EventKind::StateChanged;
    e.state = state;
    e.text = reason;
    m_worker.publish(e);
}

// ---- housekeeping ------------------------------------------------------------------------

void StreamSession::tick(qint64 now)
{
    switch (m_state) {
    case StreamState::Connecting:
        if (now - m_connectStartedMs > m_config.connectTimeoutMs)
            scheduleReconnect(QStringLiteral("no connection after %1").arg(seconds(m_config.connectTimeoutMs)));
        return;
    case StreamState::Subscribing:
    case StreamState::Live:
    case StreamState::Stalled:
        break;
    default:
        return;
    }
    if (!m_active)
        return;

    const qint64 lastFrame = std::max<qint64>({m_shared->counters.lastMessageMs.load(), m_lastPongMs, m_connectedMs});
    if (m_config.pongTimeoutMs > 0 && now - lastFrame > m_config.pongTimeoutMs) {
        scheduleReconnect(QStringLiteral("no frame or pong for %1").arg(seconds(now - lastFrame)));
        return;
    }
    if (m_config.pingIntervalMs > 0 && now - m_lastPingMs >= m_config.pingIntervalMs) {
        m_lastPingMs = now;
        if (m_transport->ping() && controlMessagesPerSecond() > 0)
            m_sentTimesMs.push_back(now);
    }
    if (m_config.venue == Venue::Betfair && m_config.heartbeatMs > 0 && now - m_lastHeartbeatSentMs >= m_config.heartbeatMs) {
        m_lastHeartbeatSentMs = now;
        const qint64 hbId = EngineWorker::nextRequestId();
        m_pending.insert(QString::number(hbId), Pending{QStringLiteral("heartbeat"), now});
        enqueue(QStringLiteral("{\"op\":\"heartbeat\",\"id\":%1}").arg(hbId));
    }

    const qint64 lastData = std::max<qint64>(m_shared->counters.lastDataMs.load(), m_connectedMs);
    if (m_state != StreamState::Stalled && now - lastData > m_config.stallTimeoutMs) {
        const bool never = m_shared->counters.lastDataMs.load() < m_connectedMs;
        const QString why = never ? QStringLiteral("no data since %1 %2 ago")
                                        .arg(m_state == StreamState::Subscribing ? QStringLiteral("subscribing")
                                                                                 : QStringLiteral("connecting"),
                                             seconds(now - m_connectedMs))
                                  : QStringLiteral("no data for %1").arg(seconds(now - lastData));
        emitEvent(EventKind::Stalled, why);
        if (m_config.reconnectOnStall) {
            scheduleReconnect(why);
            return;
        }
        setState(StreamState::Stalled, why);
    }
    if (m_state == StreamState::Live && m_liveSinceMs && m_backoff.attempt() > 0
        && now - m_liveSinceMs >= m_config.healthyResetMs)
        m_backoff.reset();
}

// ---- hot path ------------------------------------------------------------------------

void StreamSession::onMessage(const char *data, qsizetype len, bool inScratch)
{
    if (!m_active)
        return;
    const qint64 nowUs = wallClockUs();
    const qint64 now = nowUs / 1000;
    StreamCounters &c = m_shared->counters;
    c.messages.add();
    c.bytes.add(std::uint64_t(len));
    c.lastMessageMs.store(now);

    const HeadInfo head = HeadScanner::scan(data, len);
    double latencyMs = qQNaN();
    switch (head.kind) {
    case MessageKind::Data:
    case MessageKind::Unknown: {
        c.dataMessages.add();
        c.lastDataMs.store(now);
        if (m_state != StreamState::Live) {
            m_liveSinceMs = now;
            setState(StreamState::Live, QStringLiteral("receiving data"));
        }
        if (!m_parsed)
            break;
        DecodedFields fields;
        const bool ok = inScratch ? m_decoder.decode(std::size_t(len), m_latencyPointer, fields)
                                  : m_decoder.decodeCopy(data, std::size_t(len), m_latencyPointer, fields);
        if (!ok) {
            onDataDecodeFailed(data, len, now);
            break;
        }
        if (fields.eventTime != DecodedFields::kNone) {
            const auto latencyUs = qint64(double(nowUs) - double(fields.eventTime) * m_usPerUnit);
            m_shared->latency.record(latencyUs);
            latencyMs = double(latencyUs) / 1000.0;
        }
        if (fields.finalUpdateId != DecodedFields::kNone && fields.firstUpdateId != DecodedFields::kNone) {
            const auto gap = m_sequences.check(fields.symbol, fields.firstUpdateId, fields.finalUpdateId,
                                               fields.prevFinalUpdateId);
            if (gap.found) {
                c.gaps.add();
                if (allowEvent(EventKind::Gap, now))
                    emitEvent(EventKind::Gap, QStringLiteral("sequence gap in %1: expected update %2, got %3 (%4 missing)")
                                                  .arg(QString::fromUtf8(fields.symbol.data(), qsizetype(fields.symbol.size())))
                                                  .arg(gap.expectedFrom)
                                                  .arg(gap.resumedAt)
                                                  .arg(gap.resumedAt - gap.expectedFrom));
            }
        }
        break;
    }
    case MessageKind::Heartbeat:
        c.heartbeats.add();
        break;
    case MessageKind::Connection:
        c.controlMessages.add();
        break;
    case MessageKind::Result:
    case MessageKind::Error:
        routeResponse(head, data, len, now);
        break;
    }
    if (m_shared->inspecting.load(std::memory_order_relaxed))
        m_shared->inspect(now, latencyMs, data, len);
}

void StreamSession::onDataDecodeFailed(const char *data, qsizetype len, qint64 now)
{
    m_shared->counters.parseErrors.add();
    const QString error = m_decoder.lastError();
    m_shared->setParseError(error, data, len);
    if (allowEvent(EventKind::ParseError, now))
        emitEvent(EventKind::ParseError,
                  QStringLiteral("bad JSON (%1): %2").arg(error, QString::fromUtf8(data, std::min<qsizetype>(len, 200))));
}

void StreamSession::routeResponse(const HeadInfo &head, const char *data, qsizetype len, qint64 now)
{
    const bool isError = head.kind == MessageKind::Error;
    (isError ? m_shared->counters.errors : m_shared->counters.results).add();
    ResponseRecord record;
    record.receivedMs = now;
    record.requestId = QString::fromUtf8(head.id.data(), qsizetype(head.id.size()));
    record.body = QByteArray(data, len);
    if (const auto it = m_pending.constFind(record.requestId); !record.requestId.isEmpty() && it != m_pending.constEnd()) {
        record.method = it->method;
        record.roundTripMs = now - it->sentMs;
        m_pending.erase(it);
    }
    const QString method = record.method;
    if (isError)
        emitEvent(EventKind::Response,
                  QStringLiteral("error response%1: %2")
                      .arg(record.requestId.isEmpty() ? QString() : QStringLiteral(" to request ") + record.requestId,
                           QString::fromUtf8(data, std::min<qsizetype>(len, 300))));
    if (m_config.venue == Venue::Betfair && data[0] == '{')
        handleBetfairStatus(record.body, method);
    m_shared->pushResponse(isError, std::move(record));
}

void StreamSession::handleBetfairStatus(const QByteArray &json, const QString &method)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    if (o.value(QStringLiteral("statusCode")).toString() != QLatin1String("FAILURE"))
        return;
    const QString why = QStringLiteral("%1: %2 %3")
                            .arg(method.isEmpty() ? QStringLiteral("status") : method,
                                 o.value(QStringLiteral("errorCode")).toString(),
                                 o.value(QStringLiteral("errorMessage")).toString());
    if (method == QLatin1String("authentication")) {
        fail(QStringLiteral("authentication failed: ") + why); // retrying cannot help
        return;
    }
    if (o.value(QStringLiteral("connectionClosed")).toBool())
        scheduleReconnect(why);
}

// ---- events ------------------------------------------------------------------------

bool StreamSession::allowEvent(EventKind kind, qint64 now)
{
    // At most ten events of one kind a second per stream; the counters keep the exact numbers.
    qint64 &last = m_lastEventMs[std::size_t(kind) % m_lastEventMs.size()];
    if (now - last < 100)
        return false;
    last = now;
    return true;
}

void StreamSession::emitEvent(EventKind kind, const QString &text, int closeCode)
{
    StreamEvent e;
    e.stream = id();
    e.timeMs = nowMs();
    e.kind = kind;
    e.state = m_state;
    e.closeCode = closeCode;
    e.text = text;
    m_worker.publish(e);
}

} // namespace streamscope
