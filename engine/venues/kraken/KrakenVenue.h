#pragma once

// Kraken's WebSocket v2 (public): {"method":"subscribe","params":{"channel":"book","symbol":
// ["BTC/USD",..]}} on every connection with its share of the stream's "channel:instrument"
// subscriptions, one request a channel, split over connections past max_streams_per_connection
// (default kDefaultMaxSubscriptionsPerConnection); the keep-alive {"method":"ping"} once no
// frame came for ping_interval_ms (Kraken sends a heartbeat about every second when nothing
// else is sent, so silence is already a sign), answered {"method":"pong",..}, and a ping no
// frame followed within ping_interval_ms declares the connection dead; refused requests and a
// system status other than "online" shown in the venue's words, escaped. No continuity rule
// here: books carry a CRC32 checksum, checked by the local order book (KrakenBookRules), which
// resubscribes a book that fails it; trades carry no sequence. The server time from GET
// /0/public/Time (whole seconds). What the decoder reads is KrakenSpec.cpp; the registry
// entry, KrakenEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "venues/ChannelVenueHandler.h"

namespace streamscope::kraken {

class KrakenVenue final : public ChannelVenueHandler {
public:
    // Kraken documents no count of subscriptions per connection: 200 is our choice.
    static constexpr int kDefaultMaxSubscriptionsPerConnection = 200;

    KrakenVenue(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec)
        : ChannelVenueHandler(config, host, spec,
                              {.venue = "Kraken",
                               .maxPerConnection = kDefaultMaxSubscriptionsPerConnection,
                               .keepAlivePing = R"({"method":"ping"})",
                               .keepAlivePeriodic = false,
                               .messagesPerSecond = 0})
    {
    }

    const book::BookRules *bookRules() const override;
    // GET /0/public/Time under the stream's rest_url, else api.kraken.com, else the stream's
    // own host and port: {"error":[],"result":{"unixtime":<s>,..}}.
    QUrl serverTimeUrl() const override;
    ServerTimeReader serverTimeReader() const override;
    void onConnectionMessage(int link, const char *data, qsizetype len) override;
    void onResponse(int link, bool isError, const ResponseRecord &record) override;

private:
    bool request(int link, Op op, const std::vector<ChannelSubscription> &pairs) override;
    // A "book" subscription's answer says the depth Kraken keeps it at: told to the book keeper.
    void noteBookDepth(const ResponseRecord &record);
    bool isBookChannel(const QString &channel) const override { return channel == QLatin1String("book"); }
};

} // namespace streamscope::kraken
