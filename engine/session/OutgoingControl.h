#pragma once

// What one stream sends: Binance-style control requests (SUBSCRIBE, UNSUBSCRIBE and the others)
// spread over the stream's connections by their share of the subscriptions (a SUBSCRIBE that
// no connection has room for opens one more connection of the group), the user's raw
// messages, and the venue's own requests (VenueHost::sendOn). Each request with an id is
// remembered so that its response is matched to it (RequestTracker), recorded when the stream
// records (only requests known to carry no secret are quoted), and queued on its connection's
// paced outbox (OutgoingPacer), which ConnectionLifecycle flushes.
//
// Thread contract: the session's worker only.

#include <QtCore/QStringList>

namespace streamscope {

class Clock;
class ConnectionLifecycle;
class SessionStatus;
class VenueHandler;
struct StreamConfig;

class OutgoingControl {
public:
    OutgoingControl(const StreamConfig &config, const Clock &clock, VenueHandler &venue, SessionStatus &status,
                    ConnectionLifecycle &lifecycle);

    void sendControl(const QString &method, const QStringList &params, qint64 requestId);
    void sendRaw(const QString &text);
    // On connection `linkId`; a non-empty requestId is remembered for `method`'s response.
    void sendOn(int linkId, const QString &text, const QString &method, const QString &requestId);

private:
    void subscribe(const QStringList &params, qint64 requestId);

    const StreamConfig &m_config;
    const Clock &m_clock;
    VenueHandler &m_venue;
    SessionStatus &m_status;
    ConnectionLifecycle &m_lifecycle;
};

} // namespace streamscope
