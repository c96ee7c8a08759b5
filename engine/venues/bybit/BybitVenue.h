#pragma once

// The Bybit v5 public websocket (spot, linear): {"op":"subscribe","args":["orderbook.50.BTCUSDT",..]}
// on every connection with its share of the stream's "channel:instrument" subscriptions
// ("orderbook.50:BTCUSDT" is the topic "orderbook.50.BTCUSDT"), at most kMaxArgsPerRequest
// topics a request (spot's limit), split over connections past max_streams_per_connection
// (default kDefaultMaxSubscriptionsPerConnection); the keep-alive {"op":"ping"} every
// ping_interval_ms (Bybit recommends 20 s) however busy the connection, and a ping not answered
// within ping_interval_ms declares the connection dead (VenueHandler::keepAlivePeriodic);
// order-book continuity per topic (BybitSequence: snapshots, restarts, gaps) and a local order
// book per instrument (BybitBookRules), resubscribed when it loses sync; failed requests
// kept and shown in the venue's words, escaped; the server time from GET /v5/market/time;
// connection attempts kept to Bybit's 500 in 5 minutes across the engine's Bybit streams. What
// the decoder reads of Bybit's messages is BybitSpec.cpp; the registry entry, BybitEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "BybitSequence.h"
#include "venues/ChannelVenueHandler.h"

namespace streamscope::bybit {

class BybitVenue final : public ChannelVenueHandler {
public:
    // One public connection's "args" may not exceed 21,000 characters in all (Bybit); 500
    // topics of up to 40 characters with their quotes and commas stay under 20,500.
    static constexpr int kDefaultMaxSubscriptionsPerConnection = 500;
    // Spot takes up to 10 args a subscription request (linear has no such limit): 10 for all.
    static constexpr int kMaxArgsPerRequest = 10;
    // Bybit asks for no more than 500 connections in 5 minutes.
    static constexpr int kConnectsPerWindow = 500;
    static constexpr qint64 kConnectWindowMs = 5 * 60 * 1000;

    BybitVenue(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec)
        : ChannelVenueHandler(config, host, spec,
                              {.venue = "Bybit",
                               .maxPerConnection = kDefaultMaxSubscriptionsPerConnection,
                               .keepAlivePing = R"({"op":"ping"})",
                               .keepAlivePeriodic = true,
                               .messagesPerSecond = 0,
                               .connectLimit = {.attempts = kConnectsPerWindow, .windowMs = kConnectWindowMs}})
    {
    }

    const book::BookRules *bookRules() const override;
    // GET /v5/market/time under the stream's rest_url, else api.bybit.com (api-testnet for the
    // testnet), else the stream's own host and port: {"retCode":0,"result":{"timeNano":"<ns>"}}.
    QUrl serverTimeUrl() const override;
    ServerTimeReader serverTimeReader() const override;
    void onData(int link, const DecodedFields &fields, bool checkSequence) override;
    void onResponse(int link, bool isError, const ResponseRecord &record) override;

private:
    bool request(int link, Op op, const std::vector<ChannelSubscription> &pairs) override;
    void resetContinuity() override { m_books.reset(); }
    bool isBookChannel(const QString &channel) const override
    {
        return channel.startsWith(QLatin1String("orderbook."));
    }
    void reportGap(const DecodedFields &fields, const BybitSequence::Result &result);

    BybitSequence m_books;
};

} // namespace streamscope::bybit
