#pragma once

// The part the venues whose subscriptions are "channel:instrument" pairs share
// (VenueEntry::channelSubscriptions: OKX, Bybit, Hyperliquid): every connection subscribes its
// share of the pairs in the venue's own request when it comes up (then the stream's
// send_on_connect texts, on the first connection); Engine::subscribe / unsubscribe become the
// venue's subscribe / unsubscribe requests; the pairs are split over connections past
// max_streams_per_connection, else the venue's default; the venue's text keep-alive and pacing
// come from its Traits; a chain table's continuity starts again after a disconnect or a
// switch-over (resetContinuity()). A venue's folder derives its handler from it and writes only
// its request (request()), its continuity and its errors.
//
// Thread contract: see VenueHandler.

#include "VenueHandler.h"

#include <QtCore/QHash>

#include <utility>
#include <vector>

namespace streamscope {

class ChannelVenueHandler : public VenueHandler {
public:
    // What differs between these venues besides their requests.
    struct Traits {
        const char *venue = "";         // its name in events ("OKX")
        int maxPerConnection = 0;       // pairs one connection carries unless the stream says otherwise
        const char *keepAlivePing = ""; // the text keep-alive (VenueHandler::keepAlivePing)
        bool keepAlivePeriodic = false; // sent every interval, busy or not (VenueHandler::keepAlivePeriodic)
        int messagesPerSecond = 0;      // outgoing messages a connection (0 unpaced)
        ConnectLimit connectLimit = {}; // connection attempts per IP address (VenueHandler::connectLimit)
    };

    ChannelVenueHandler(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec, const Traits &traits)
        : VenueHandler(config, host, spec)
        , m_venue(traits.venue)
        , m_traits(traits)
    {
    }

    int maxStreamsPerConnection() const override
    {
        return m_config.maxStreamsPerConnection > 0 ? m_config.maxStreamsPerConnection : m_traits.maxPerConnection;
    }
    int controlMessagesPerSecond() const override { return m_traits.messagesPerSecond; }
    QString keepAlivePing() const override { return QString::fromLatin1(m_traits.keepAlivePing); }
    bool keepAlivePeriodic() const override { return m_traits.keepAlivePeriodic; }
    ConnectLimit connectLimit() const override { return m_traits.connectLimit; }
    bool onConnected(int link, int shard, bool rollover, const QStringList &streams) override;
    void onDisconnected() override
    {
        VenueHandler::onDisconnected();
        m_linkPairs.clear();
        resetContinuity();
    }
    void onSwitchedOver() override
    {
        VenueHandler::onSwitchedOver();
        resetContinuity();
    }
    // SUBSCRIBE / UNSUBSCRIBE with "channel:instrument" params, as the venue's own requests;
    // these venues have no request that lists subscriptions.
    void sendControl(int link, const QString &method, const QStringList &params, qint64 requestId) override;
    // Unsubscribes and subscribes again the book channels (isBookChannel()) of `instrument` on
    // the connections that carry them: the venue then sends the book's snapshot.
    bool resubscribeBook(const QString &instrument) override;

protected:
    enum class Op : quint8 { Subscribe, Unsubscribe };
    static QString opName(Op op)
    {
        return op == Op::Subscribe ? QStringLiteral("subscribe") : QStringLiteral("unsubscribe");
    }
    // The instruments of `pairs` by channel, the channels in the order they first come (for a
    // venue that takes one request a channel).
    static std::vector<std::pair<QString, QStringList>> byChannel(const std::vector<ChannelSubscription> &pairs);
    // Sends `pairs` on `link` in the venue's request(s); false when nothing was sent.
    virtual bool request(int link, Op op, const std::vector<ChannelSubscription> &pairs) = 0;
    // A connection came up, before its subscriptions are sent (OKX: its request budget).
    virtual void connectionUp(int link) { Q_UNUSED(link); }
    // Continuity starts again (the connection set was dropped, or a rollover switched).
    virtual void resetContinuity() { }
    // A subscription channel whose messages keep a book ("orderbook.50", "books", "book").
    virtual bool isBookChannel(const QString &channel) const
    {
        Q_UNUSED(channel);
        return false;
    }

    // The pairs connection `link` subscribed, as its requests left them.
    std::vector<ChannelSubscription> subscribedOn(int link) const { return m_linkPairs.value(link); }

    const char *const m_venue;

private:
    // What each connection subscribed (touched by requests only, never per message).
    void track(int link, Op op, const std::vector<ChannelSubscription> &pairs);

    const Traits m_traits;
    QHash<int, std::vector<ChannelSubscription>> m_linkPairs;
};

} // namespace streamscope
