#pragma once

// Hyperliquid's public websocket: one {"method":"subscribe","subscription":{"type":..,"coin":..}}
// per "channel:instrument" subscription ("l2Book:BTC" is {"type":"l2Book","coin":"BTC"}) on
// every connection with its share, split over connections past max_streams_per_connection
// (default kDefaultMaxSubscriptionsPerConnection); outgoing messages paced to
// kMessagesPerSecond a connection; the keep-alive {"method":"ping"} every ping_interval_ms
// however busy the connection, answered {"channel":"pong"}, and a ping not answered within
// ping_interval_ms declares the connection dead (VenueHandler::keepAlivePeriodic: Hyperliquid
// closes a connection after 60 s without a message, and its documentation leaves open whether
// it counts the client's messages or its own, so the client sends one either way); refused requests
// kept and shown in the venue's words, escaped. No continuity rule: no message carries a
// sequence number (every l2Book message is the whole book; a trade's tid is no sequence).
// No server time: Hyperliquid documents no endpoint that tells its time, so the clock offset
// comes from the latency floor (docs/clock.md).
// What the decoder reads is HyperliquidSpec.cpp; the registry entry, HyperliquidEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "venues/ChannelVenueHandler.h"

namespace streamscope::hyperliquid {

class HyperliquidVenue final : public ChannelVenueHandler {
public:
    // Hyperliquid allows 1,000 websocket subscriptions per IP address in all: one connection
    // may carry them all.
    static constexpr int kDefaultMaxSubscriptionsPerConnection = 1000;
    // 2,000 messages a minute per IP address across all connections (33 a second); 30 a
    // second on one connection stays under it.
    static constexpr int kMessagesPerSecond = 30;

    HyperliquidVenue(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec)
        : ChannelVenueHandler(config, host, spec,
                              {.venue = "Hyperliquid",
                               .maxPerConnection = kDefaultMaxSubscriptionsPerConnection,
                               .keepAlivePing = R"({"method":"ping"})",
                               .keepAlivePeriodic = true,
                               .messagesPerSecond = kMessagesPerSecond})
    {
    }

    void onResponse(int link, bool isError, const ResponseRecord &record) override;

private:
    bool request(int link, Op op, const std::vector<ChannelSubscription> &pairs) override;
};

} // namespace streamscope::hyperliquid
