#pragma once

// Binance market streams (spot and USD-M futures): SUBSCRIBE on every connection with its
// share of the streams, outgoing messages paced under the venue's per-connection limit
// (5/s spot, 10/s futures, pings counted), at most 1,024 streams per connection,
// depth-diff continuity (U/u spot, pu/u futures), the serverShutdown notice and the 24-hour
// connection limit answered by a make-before-break rollover, the local order book's rules
// (BinanceBookRules), and the websocket-API
// envelope's rateLimits kept for display. What the decoder reads of Binance's messages is
// BinanceSpec.cpp; the registry entry, BinanceEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "venues/VenueHandler.h"

namespace streamscope {

class BinanceVenue final : public VenueHandler {
public:
    static constexpr qint64 kDefaultMaxConnectionAgeMs = (23 * 60 + 50) * 60 * 1000LL; // 23 h 50 min
    static constexpr int kSpotMessagesPerSecond = 5;
    static constexpr int kFuturesMessagesPerSecond = 10;
    static constexpr int kMaxStreamsPerConnection = 1024; // the venue's limit

    using VenueHandler::VenueHandler;

    static bool isFutures(const StreamConfig &config);

    int controlMessagesPerSecond() const override;
    qint64 maxConnectionAgeMs() const override;
    int maxStreamsPerConnection() const override
    {
        return m_config.maxStreamsPerConnection > 0 ? m_config.maxStreamsPerConnection : kMaxStreamsPerConnection;
    }
    int streamsNamedInUrl(const QUrl &url) const override;
    // Under the stream's "rest_url", else the known stream hosts' REST hosts; any other host (a
    // testnet, a replay server) is asked itself, over http for ws and https for wss, on the
    // stream's port (BinanceBookRules.h).
    QUrl serverTimeUrl() const override;
    // Spot or USD-M futures depth diffs (BinanceBookRules.h); none for a futures stream that
    // names a partial depth stream (its events are "depthUpdate" too).
    const book::BookRules *bookRules() const override;
    QUrl shardUrl(const QUrl &url, int shard) const override;
    void onResponse(int link, bool isError, const ResponseRecord &record) override;

protected:
    // serverShutdown: a make-before-break rollover of the connection.
    bool onVenueNotice(int link, const DecodedFields &fields) override;
};

} // namespace streamscope
