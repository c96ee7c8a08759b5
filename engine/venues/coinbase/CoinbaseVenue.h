#pragma once

// Coinbase Advanced Trade's market data websocket: on every connection the heartbeats channel
// ({"type":"subscribe","channel":"heartbeats"}: channels close after 60 to 90 s without an
// update otherwise), then {"type":"subscribe","product_ids":[..],"channel":"level2"} for its
// share of the stream's "channel:instrument" subscriptions, one request a channel, split over
// connections past max_streams_per_connection (default kDefaultMaxSubscriptionsPerConnection);
// outgoing messages paced to kMessagesPerSecond; liveness from the transport's ping and the
// heartbeats (about one a second). Continuity: "sequence_num" counts every message of a
// connection (data and heartbeats alike, CoinbaseSequence): a jump is a gap, and the
// connection's subscriptions are sent again (unsubscribe, subscribe), Coinbase's recovery, and
// the local order books of its level2 products resync from the snapshots that brings
// (CoinbaseBookRules, VenueHost::booksLost).
// Refusals kept and shown in the venue's words, escaped. The server time from GET
// /api/v3/brokerage/time; connection attempts kept to Coinbase's 750 a second per IP address
// across the engine's Coinbase streams. What the decoder reads is CoinbaseSpec.cpp; the
// registry entry, CoinbaseEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "venues/ChainTable.h"
#include "venues/ChannelVenueHandler.h"

namespace streamscope::coinbase {

class CoinbaseVenue final : public ChannelVenueHandler {
public:
    // Coinbase documents no count of subscriptions per connection: 100 is our choice.
    static constexpr int kDefaultMaxSubscriptionsPerConnection = 100;
    // Unauthenticated messages: 8 a second per IP address (Coinbase's limit).
    static constexpr int kMessagesPerSecond = 8;
    // Connections: 750 a second per IP address.
    static constexpr int kConnectsPerSecond = 750;

    CoinbaseVenue(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec)
        : ChannelVenueHandler(config, host, spec,
                              {.venue = "Coinbase",
                               .maxPerConnection = kDefaultMaxSubscriptionsPerConnection,
                               .keepAlivePing = "",
                               .keepAlivePeriodic = false,
                               .messagesPerSecond = kMessagesPerSecond,
                               .connectLimit = {.attempts = kConnectsPerSecond, .windowMs = 1000}})
    {
    }

    const book::BookRules *bookRules() const override;
    // GET /api/v3/brokerage/time under the stream's rest_url, else api.coinbase.com, else the
    // stream's own host and port: {"iso":..,"epochSeconds":..,"epochMillis":"<ms>"}.
    QUrl serverTimeUrl() const override;
    ServerTimeReader serverTimeReader() const override;
    void onData(int link, const DecodedFields &fields, bool checkSequence) override;
    void onHeartbeat(int link, const DecodedFields *fields) override;
    void onResponse(int link, bool isError, const ResponseRecord &record) override;

private:
    bool request(int link, Op op, const std::vector<ChannelSubscription> &pairs) override;
    void connectionUp(int link) override;
    void resetContinuity() override { m_sequences.reset(); }
    bool isBookChannel(const QString &channel) const override { return channel == QLatin1String("level2"); }
    // One message's sequence_num on `link`: in order, or a gap (counted, recovered).
    void sequence(int link, std::int64_t sequenceNum);
    void send(int link, Op op, const QString &channel, const QStringList &products);

    ChainTable m_sequences; // the last sequence_num by connection
};

} // namespace streamscope::coinbase
