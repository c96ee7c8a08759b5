#pragma once

// The OKX v5 public websocket: {"op":"subscribe","args":[{"channel":..,"instId":..}]} on every
// connection with its share of the stream's "channel:instrument" subscriptions
// (model/ChannelSubscription.h), split over connections past max_streams_per_connection
// (default kDefaultMaxSubscriptionsPerConnection); at most 480 subscribe/unsubscribe requests
// per connection an hour, as OKX allows (a request beyond is not sent, and said so); the text
// "ping" after ping_interval_ms without a frame, answered "pong" (VenueHandler::keepAlivePing);
// order-book continuity per channel and instrument (OkxSequence: snapshots, keep-alive
// updates, legal resets, gaps) and a local order book per instrument (OkxBookRules),
// resubscribed when it loses sync; errors and notices kept and shown in the venue's own words,
// escaped; the notice 64008 (the connection will soon be closed for a service upgrade)
// answered by a make-before-break rollover of its connection; the server time from GET
// /api/v5/public/time; connection attempts kept to OKX's 3 a second per IP address across the
// engine's OKX streams. What the decoder reads of OKX's messages is OkxSpec.cpp; the registry
// entry, OkxEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "OkxSequence.h"
#include "venues/ChannelVenueHandler.h"

#include <QtCore/QHash>

namespace streamscope::okx {

class OkxVenue final : public ChannelVenueHandler {
public:
    // OKX documents no count of channels per connection, only that one request's arguments
    // stay under 64 KB; 256 of the longest public arguments (~70 bytes) take 18 KB.
    static constexpr int kDefaultMaxSubscriptionsPerConnection = 256;
    // Subscribe, unsubscribe and login requests per connection and hour.
    static constexpr int kRequestsPerHour = 480;
    static constexpr qint64 kHourMs = 3600 * 1000;
    // Arguments in one subscribe request (a connection's share may take several).
    static constexpr int kMaxArgsPerRequest = 256;
    // Connection requests: 3 a second per IP address.
    static constexpr int kConnectsPerSecond = 3;
    // The notice that announces a service upgrade: the connection closes soon.
    static constexpr const char *kUpgradeNoticeCode = "64008";

    OkxVenue(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec)
        : ChannelVenueHandler(config, host, spec,
                              {.venue = "OKX",
                               .maxPerConnection = kDefaultMaxSubscriptionsPerConnection,
                               .keepAlivePing = "ping",
                               .keepAlivePeriodic = false,
                               .messagesPerSecond = 0,
                               .connectLimit = {.attempts = kConnectsPerSecond, .windowMs = 1000}})
    {
    }

    const book::BookRules *bookRules() const override;
    // GET /api/v5/public/time under the stream's rest_url, else www.okx.com (aws.okx.com for
    // wsaws.okx.com), else the stream's own host and port: {"code":"0","data":[{"ts":"<ms>"}]}.
    QUrl serverTimeUrl() const override;
    ServerTimeReader serverTimeReader() const override;
    void onData(int link, const DecodedFields &fields, bool checkSequence) override;
    // "channel-conn-count" informs; a notice is kept and shown, and 64008 rolls the
    // connection over before OKX closes it.
    void onConnectionMessage(int link, const char *data, qsizetype len) override;
    void onResponse(int link, bool isError, const ResponseRecord &record) override;

private:
    // op subscribe / unsubscribe with `pairs` on `link`, kMaxArgsPerRequest at a time, within
    // the hourly budget.
    bool request(int link, Op op, const std::vector<ChannelSubscription> &pairs) override;
    void connectionUp(int link) override;
    void resetContinuity() override { m_books.reset(); }
    bool isBookChannel(const QString &channel) const override
    {
        return channel.startsWith(QLatin1String("books")) || channel == QLatin1String("bbo-tbt");
    }
    void reportGap(const DecodedFields &fields, const OkxSequence::Result &result);

    struct Budget {
        qint64 windowStartMs = 0;
        int used = 0;
    };
    QHash<int, Budget> m_budgets; // by link; touched by requests only, never per message
    OkxSequence m_books;
};

} // namespace streamscope::okx
