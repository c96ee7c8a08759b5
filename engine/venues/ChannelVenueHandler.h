#pragma once

// The part the venues whose subscriptions are "channel:instrument" pairs share
// (VenueEntry::channelSubscriptions: OKX, Bybit, Hyperliquid): every connection subscribes its
// share of the pairs in the venue's own request when it comes up (then the stream's
// send_on_connect texts, on the first connection); Engine::subscribe / unsubscribe become the
// venue's subscribe / unsubscribe requests; the pairs are split over connections past
// max_streams_per_connection, else the venue's default. A venue's folder derives its handler
// from it and writes only its request (request()), its continuity and its errors.
//
// Thread contract: see VenueHandler.

#include "VenueHandler.h"

#include <vector>

namespace streamscope {

class ChannelVenueHandler : public VenueHandler {
public:
    // `venue`: its name in events ("OKX"); `defaultMaxPerConnection`: pairs one connection
    // carries unless the stream says otherwise.
    ChannelVenueHandler(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec, const char *venue,
                        int defaultMaxPerConnection)
        : VenueHandler(config, host, spec)
        , m_venue(venue)
        , m_defaultMaxPerConnection(defaultMaxPerConnection)
    {
    }

    int maxStreamsPerConnection() const override
    {
        return m_config.maxStreamsPerConnection > 0 ? m_config.maxStreamsPerConnection : m_defaultMaxPerConnection;
    }
    bool onConnected(int link, int shard, bool rollover, const QStringList &streams) override;
    // SUBSCRIBE / UNSUBSCRIBE with "channel:instrument" params, as the venue's own requests;
    // these venues have no request that lists subscriptions.
    void sendControl(int link, const QString &method, const QStringList &params, qint64 requestId) override;

protected:
    enum class Op : quint8 { Subscribe, Unsubscribe };
    static QString opName(Op op)
    {
        return op == Op::Subscribe ? QStringLiteral("subscribe") : QStringLiteral("unsubscribe");
    }
    // Sends `pairs` on `link` in the venue's request(s); false when nothing was sent.
    virtual bool request(int link, Op op, const std::vector<ChannelSubscription> &pairs) = 0;
    // A connection came up, before its subscriptions are sent (OKX: its request budget).
    virtual void connectionUp(int link) { Q_UNUSED(link); }

    const char *const m_venue;

private:
    const int m_defaultMaxPerConnection;
};

} // namespace streamscope
