#pragma once

// The OKX v5 public websocket: {"op":"subscribe","args":[{"channel":..,"instId":..}]} on every
// connection with its share of the stream's "channel:instrument" subscriptions
// (model/ChannelSubscription.h), split over connections past max_streams_per_connection
// (default kDefaultMaxSubscriptionsPerConnection); at most 480 subscribe/unsubscribe requests
// per connection an hour, as OKX allows (a request beyond is not sent, and said so); the text
// "ping" after ping_interval_ms without a frame, answered "pong" (VenueHandler::keepAlivePing);
// order-book continuity per channel and instrument (OkxSequence: snapshots, keep-alive
// updates, legal resets, gaps); errors and notices kept and shown in the venue's own words,
// escaped. What the decoder reads of OKX's messages is OkxSpec.cpp; the registry entry,
// OkxEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "OkxSequence.h"
#include "venues/VenueHandler.h"

#include <QtCore/QHash>

namespace streamscope::okx {

class OkxVenue final : public VenueHandler {
public:
    // OKX documents no count of channels per connection, only that one request's arguments
    // stay under 64 KB; 256 of the longest public arguments (~70 bytes) take 18 KB.
    static constexpr int kDefaultMaxSubscriptionsPerConnection = 256;
    // Subscribe, unsubscribe and login requests per connection and hour.
    static constexpr int kRequestsPerHour = 480;
    static constexpr qint64 kHourMs = 3600 * 1000;
    // Arguments in one subscribe request (a connection's share may take several).
    static constexpr int kMaxArgsPerRequest = 256;

    using VenueHandler::VenueHandler;

    int maxStreamsPerConnection() const override
    {
        return m_config.maxStreamsPerConnection > 0 ? m_config.maxStreamsPerConnection
                                                    : kDefaultMaxSubscriptionsPerConnection;
    }
    QString keepAlivePing() const override { return QStringLiteral("ping"); }
    bool onConnected(int link, int shard, bool rollover, const QStringList &streams) override;
    void onDisconnected() override;
    void onSwitchedOver() override;
    void onData(const DecodedFields &fields, bool checkSequence) override;
    void onConnectionMessage(int link, const char *data, qsizetype len) override;
    void onResponse(int link, bool isError, const ResponseRecord &record) override;
    // SUBSCRIBE / UNSUBSCRIBE with "channel:instrument" params, as OKX's op subscribe /
    // unsubscribe; OKX has no request that lists subscriptions.
    void sendControl(int link, const QString &method, const QStringList &params, qint64 requestId) override;

private:
    // Sends op `op` with `subscriptions` on `link`, kMaxArgsPerRequest at a time, within the
    // hourly budget; false when nothing was sent.
    bool request(int link, const QString &op, const QStringList &subscriptions);
    void reportGap(const DecodedFields &fields, const OkxSequence::Result &result);

    struct Budget {
        qint64 windowStartMs = 0;
        int used = 0;
    };
    QHash<int, Budget> m_budgets; // by link; touched by requests only, never per message
    OkxSequence m_books;
};

} // namespace streamscope::okx
