#pragma once

// The Betfair Exchange Stream API on the TLS line transport: authentication (app key and
// session resolved from the keychain or the environment when sent, never kept or shown),
// market and order subscriptions, the heartbeat op on a timer, status responses routed by
// id. Tracks clk/initialClk per subscription and resubscribes with them after a reconnect
// (expecting one RESUB_DELTA); counts SUB_IMAGE (also mid-stream), con=true (flagged when
// conflateMs is 0), segmented changes as one update, heartbeats apart from data; shows
// status 503 as StreamState::Degraded without disconnecting; raises a stale alarm when
// nothing at all arrives within 3 x heartbeatMs. A status FAILURE is sorted by its errorCode
// (errorAction): a fatal one leaves the stream Failed with the venue's code and message,
// never a reconnect loop; a retryable one reconnects with backoff. Segmented changes, the
// initial image's time and an image's duplicate markets are BetfairImages' (it is handed an
// image's messages whole); the session keep-alive, when configured, BetfairKeepAlive's. What
// the decoder reads of Betfair's messages (and where: BetfairFields.h) is BetfairSpec.cpp;
// the registry entry, BetfairEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "BetfairImages.h"
#include "venues/VenueHandler.h"

#include <QtCore/QJsonObject>

#include <memory>
#include <string>

namespace streamscope {

class BetfairKeepAlive;

class BetfairVenue final : public VenueHandler {
public:
    BetfairVenue(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec);
    ~BetfairVenue() override;

    // What a status FAILURE's errorCode calls for (docs/venues.md, "Betfair").
    enum class ErrorAction : quint8 {
        Unknown = 0,
        Fatal,      // Failed: the venue would refuse the same again until the configuration or account changes
        Retry,      // reconnect with backoff
        RetryFresh, // reconnect with backoff and subscribe without clk (INVALID_CLOCK: a new image)
        Record,     // kept and shown only (a code not known here, on a connection left open)
    };
    // `sessionKeptAlive`: a session keep-alive is configured and has not answered FAIL.
    static ErrorAction errorAction(const QString &errorCode, bool authentication, bool connectionClosed,
                                   bool sessionKeptAlive);

    bool ownsFreshness() const override { return true; }
    bool onConnected(int link, int shard, bool rollover, const QStringList &streams) override;
    void onDisconnected() override;
    void onData(int link, const DecodedFields &fields, bool checkSequence) override;
    void onWholeMessage(int link, const char *data, qsizetype len) override;
    void onHeartbeat(int link, const DecodedFields *fields) override;
    void onConnectionMessage(int link, const char *data, qsizetype len) override;
    void onResponse(int link, bool isError, const ResponseRecord &record) override;
    void onTick(qint64 nowMs) override;
    // Price ladders as books (BetfairBookRules; BetfairVenueBooks.cpp).
    const book::BookRules *bookRules() const override;
    bool resubscribeBook(const QString &instrument) override;

    // 3 x heartbeatMs (as echoed by the venue, else as requested).
    qint64 staleAfterMs() const;

private:
    struct Resume {
        std::string clk;
        std::string initialClk;
    };
    void track(const DecodedFields &fields);
    void subscribe(int link, const QString &op, QJsonObject body, const Resume &resume);

    int m_link = -1;
    qint64 m_lastChangeMs =
        0; // tick that saw the last change message (data or HEARTBEAT); status responses do not count
    bool m_changeSeen = false; // a change message since the last tick
    qint64 m_lastHeartbeatSentMs = 0;
    Resume m_market;
    Resume m_order;
    std::string m_publishedClk;
    quint64 m_imagesThisConnection = 0;
    bool m_resubscribed = false; // the last subscription carried clk/initialClk
    bool m_staleRaised = false;
    bool m_conflationFlagged = false;
    std::int64_t m_heartbeatMs = 0; // echoed
    std::int64_t m_conflateMs = -1; // echoed
    BetfairImages m_images{m_host};
    std::unique_ptr<BetfairKeepAlive> m_keepAlive; // null: none configured

    // The last fresh market subscription a price ladder asked for (BetfairVenueBooks.cpp).
    qint64 m_bookResubscribedMs = -1;
};

} // namespace streamscope
