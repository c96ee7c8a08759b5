#pragma once

// One stream's life on its worker thread: connect, subscribe, receive, route, decode,
// count; detect stalls and dead connections; reconnect with backoff; stop and restart at
// once on command. Owns its transport and everything per connection.
//
// State machine: Idle → Connecting → Subscribing → Live ⇄ Stalled → Reconnecting → … ;
// any → Stopped (user); any → Failed (configuration or authentication errors).
//
// Thread contract: created, driven and destroyed on one worker thread (EngineWorker).
// Publishes statistics through StreamShared (lock-free) and events through the worker.

#include "Backoff.h"
#include "StreamConfig.h"
#include "StreamRecords.h"
#include "protocol/HeadScanner.h"
#include "protocol/SequenceTracker.h"
#include "transport/Transport.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QTimer>

#include <array>
#include <deque>
#include <memory>
#include <string>

namespace streamscope {

class EngineWorker;
class MessageDecoder;
class StreamShared;

class StreamSession final : public QObject, public MessageSink {
    Q_OBJECT
public:
    StreamSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config, MessageDecoder &decoder,
                  EngineWorker &worker, QObject *parent = nullptr);
    ~StreamSession() override;

    StreamId id() const;

    // Commands (worker thread).
    void start();
    void stop();
    void restart();
    void updateConfig(const StreamConfig &config);
    void sendControl(const QString &method, const QStringList &params, qint64 requestId);
    void sendRaw(const QString &text);

    // Called by the worker's housekeeping timer, a few times a second.
    void tick(qint64 nowMs);

    void onMessage(const char *data, qsizetype len, bool inScratch) override;

private:
    struct Pending {
        QString method;
        qint64 sentMs = 0;
    };

    void connectNow();
    void onConnected();
    void onDisconnected(int closeCode, const QString &reason);
    void scheduleReconnect(const QString &reason);
    void dropConnection();
    void setState(StreamState state, const QString &reason, qint64 nextRetryAtMs = 0);
    void fail(const QString &reason);
    void sendOnConnect();
    void enqueue(const QString &text);
    void flushOutbox(qint64 nowMs);
    void routeResponse(const HeadInfo &head, const char *data, qsizetype len, qint64 nowMs);
    void handleBetfairStatus(const QByteArray &json, const QString &method);
    void onDataDecodeFailed(const char *data, qsizetype len, qint64 nowMs);
    void emitEvent(EventKind kind, const QString &text, int closeCode = 0);
    bool allowEvent(EventKind kind, qint64 nowMs);
    QString binanceControl(const QString &method, const QStringList &params, qint64 requestId);
    int controlMessagesPerSecond() const;

    std::shared_ptr<StreamShared> m_shared;
    StreamConfig m_config;
    MessageDecoder &m_decoder;
    EngineWorker &m_worker;
    Transport *m_transport = nullptr; // deleted later: it may be on the stack below us
    QTimer m_reconnectTimer;
    QTimer m_outboxTimer;
    Backoff m_backoff;
    SequenceTracker m_sequences;

    StreamState m_state = StreamState::Idle;
    bool m_active = false; // a connection is up and its messages count
    std::string m_latencyPointer;
    double m_usPerUnit = 1000.0;
    bool m_parsed = true;

    qint64 m_connectStartedMs = 0;
    qint64 m_connectedMs = 0;
    qint64 m_liveSinceMs = 0;
    qint64 m_lastPingMs = 0;
    qint64 m_lastPongMs = 0;
    qint64 m_lastHeartbeatSentMs = 0;
    bool m_everConnected = false;
    QString m_lastDisconnectReason;

    QStringList m_subscriptions; // Binance streams subscribed now; re-sent after a reconnect
    QHash<QString, Pending> m_pending;
    std::deque<QString> m_outbox;
    std::deque<qint64> m_sentTimesMs; // control messages sent within the last second
    QString m_authRequestId;
    std::array<qint64, 16> m_lastEventMs{};
};

} // namespace streamscope
