#pragma once

// One stream's life on its worker thread: connect, subscribe, receive, route, decode,
// count; detect stalls and dead connections; reconnect with backoff; stop and restart at
// once on command. Generic: everything venue-specific is behind a VenueHandler
// (engine/venues/) called at the session's hooks.
//
// A stream may hold several connections ("links"): one per shard of its subscriptions
// when it has more than one connection may carry (Binance: 1,024), plus, during a
// make-before-break rollover, the replacement of one shard, which takes over once it
// delivers and the overlap is deduplicated (OverlapDeduper). All links count into the
// one stream; the snapshot lists them as the stream's connection group.
//
// State machine: Idle → Connecting → Subscribing → Live ⇄ Stalled → Reconnecting → … ;
// Live ⇄ Degraded (venue says stale); any → Stopped (user); any → Failed (configuration or
// authentication errors).
//
// Thread contract: created, driven and destroyed on one worker thread (EngineWorker).
// Publishes statistics through StreamShared (lock-free) and events through the worker.

#include "Backoff.h"
#include "model/StreamConfig.h"
#include "model/StreamRecords.h"
#include "protocol/HeadScanner.h"
#include "transport/Transport.h"
#include "venues/OverlapDeduper.h"
#include "venues/VenueHost.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QTimer>

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace streamscope {

class EngineWorker;
class MessageDecoder;
class StreamShared;
class VenueHandler;
struct DecodedFields;

class StreamSession final : public QObject, public MessageSink, private VenueHost {
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

    // A message of the first connection (kept for callers that feed a session directly).
    void onMessage(const char *data, qsizetype len, bool inScratch) override;

private:
    struct Pending {
        QString method;
        qint64 sentMs = 0;
    };
    struct Link;

    // VenueHost
    void sendOn(int link, const QString &text, const QString &method, const QString &requestId) override;
    void event(EventKind kind, const QString &text) override;
    void venueFailed(const QString &reason) override;
    void venueReconnect(const QString &reason) override;
    void venueStalled(const QString &reason) override;
    void rollOver(int link, const QString &reason) override;
    StreamShared &shared() override { return *m_shared; }

    void onLinkMessage(Link &link, const char *data, qsizetype len, bool inScratch);
    bool headOnly() const;
    bool onLinkHead(Link &link, const char *head, qsizetype headLen, qsizetype len);
    void handleMessage(Link &link, const char *data, qsizetype len, qsizetype available, bool inScratch,
                       const HeadInfo &head);
    void onHeartbeatMessage(const DecodedFields *fields, qint64 now);
    bool acceptData(Link &link, const DecodedFields *fields);
    void connectNow();
    Link *openLink(int shard, const QStringList &streams, bool rollover);
    void onLinkConnected(Link &link);
    void onLinkDisconnected(Link &link, int closeCode, const QString &reason);
    void retireLink(Link *link);
    void finishRollover(const QString &why);
    void abandonRollover(const QString &why);
    Link *linkById(int id) const;
    Link *shardLink(int shard) const;
    QUrl shardUrl(int shard) const;
    QList<QStringList> shardStreams() const;
    void publishConnections();
    void scheduleReconnect(const QString &reason);
    void dropConnection();
    void setState(StreamState state, const QString &reason, qint64 nextRetryAtMs = 0);
    void fail(const QString &reason);
    void flushOutbox(Link &link, qint64 nowMs);
    void routeResponse(Link &link, const HeadInfo &head, const char *data, qsizetype len, qint64 nowMs);
    void onDataDecodeFailed(const char *data, qsizetype len, qint64 nowMs);
    void emitEvent(EventKind kind, const QString &text, int closeCode = 0);
    bool allowEvent(EventKind kind, qint64 nowMs);
    bool anyActive() const;

    std::shared_ptr<StreamShared> m_shared;
    StreamConfig m_config;
    MessageDecoder &m_decoder;
    EngineWorker &m_worker;
    std::unique_ptr<VenueHandler> m_venue;
    QTimer m_reconnectTimer;
    Backoff m_backoff;

    std::vector<std::unique_ptr<Link>> m_links;
    std::vector<std::unique_ptr<Link>> m_retired; // freed on the next tick: a transport may be on the stack
    int m_nextLinkId = 1;

    // Make-before-break rollover of one shard.
    struct Rollover {
        int fromId = 0;
        int toId = 0;
        qint64 startedMs = 0;
        qint64 firstDataMs = 0; // first data message on the new connection
        qint64 switchedMs = 0;
        QString reason;
    } m_rollover;
    OverlapDeduper m_dedupe;

    StreamState m_state = StreamState::Idle;
    std::string m_latencyPointer;
    double m_usPerUnit = 1000.0;
    bool m_parsed = true;
    HeadScanner::Heartbeats m_heartbeats = HeadScanner::Heartbeats::Find;
    int m_paceLimit = 0;

    qint64 m_connectStartedMs = 0;
    qint64 m_connectedMs = 0;
    qint64 m_liveSinceMs = 0;
    QString m_lastDisconnectReason;

    QStringList m_subscriptions; // Binance streams subscribed now; re-sent after a reconnect
    QHash<QString, Pending> m_pending;
    std::array<qint64, 16> m_lastEventMs{};
};

} // namespace streamscope
