#pragma once

// The Betfair Exchange Stream API on the TLS line transport: authentication (app key and
// session resolved from the keychain or the environment when sent, never kept or shown),
// market and order subscriptions, the heartbeat op on a timer, status responses routed by
// id. Tracks clk/initialClk per subscription and resubscribes with them after a reconnect
// (expecting one RESUB_DELTA); counts SUB_IMAGE (also mid-stream), con=true (flagged when
// conflateMs is 0), segmented changes as one update, heartbeats apart from data; shows
// status 503 as StreamState::Degraded without disconnecting; raises a stale alarm when
// nothing at all arrives within 3 x heartbeatMs; an authentication FAILURE is Failed with
// the venue's code and message, never a reconnect loop. What the decoder reads of Betfair's
// messages (and where: BetfairFields.h) is BetfairSpec.cpp; the registry entry, BetfairEntry.cpp.
//
// Thread contract: see VenueHandler.

#include "venues/VenueHandler.h"

#include <QtCore/QJsonObject>

#include <string>

namespace streamscope {

class BetfairVenue final : public VenueHandler {
public:
    using VenueHandler::VenueHandler;

    bool ownsFreshness() const override { return true; }
    bool onConnected(int link, int shard, bool rollover, const QStringList &streams) override;
    void onDisconnected() override;
    void onData(int link, const DecodedFields &fields, bool checkSequence) override;
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

    // The last fresh market subscription a price ladder asked for (BetfairVenueBooks.cpp).
    qint64 m_bookResubscribedMs = -1;
};

} // namespace streamscope
