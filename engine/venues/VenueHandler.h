#pragma once

// The venue-specific part of a stream: what to send when a connection comes up, what a
// decoded data message means beyond being data (sequence gaps, server notices, Betfair
// clk/status/segments), what a routed response or a status message changes, and what to
// check on the housekeeping tick. StreamSession holds no venue's rules and calls these
// hooks. The per-message hooks are given no time (the hot path reads no monotonic clock):
// a handler notes what it saw and timestamps it on the tick, whose time is the session's
// monotonic clock in ms, or asks its host for the time off the hot path.
//
// This base class is the generic venue (any JSON feed): JSON-RPC-style SUBSCRIBE control
// messages, depth-diff continuity when the decoder finds sequence fields, no limits. Each
// venue's folder (engine/venues/<venue>/) derives its handler from it and registers it with
// its DecodeSpec (VenueRegistry); the heartbeat and notice shapes come from that spec as data.
//
// Thread contract: created, called and destroyed on the stream's worker thread, by its
// session only. onData is on the hot path: no allocation, no lock, no log per message.

#include "ServerTimeAnswer.h"
#include "model/ChannelSubscription.h"
#include "model/StreamConfig.h"
#include "model/StreamRecords.h"
#include "protocol/DecodeSpec.h"
#include "protocol/DecodedFields.h"
#include "protocol/HeadScanner.h"
#include "protocol/SequenceTracker.h"

#include <QtCore/QStringList>
#include <QtCore/QUrl>

#include <memory>
#include <string_view>
#include <vector>

namespace streamscope {

namespace book {
class BookRules;
}
class VenueHost;

class VenueHandler {
public:
    // `spec`: what the decoder finds in this venue's messages (a venue's static spec).
    VenueHandler(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec)
        : m_config(config)
        , m_host(host)
        , m_spec(spec)
    {
    }
    virtual ~VenueHandler() = default;

    // The handler for a stream's venue, as registered (VenueRegistry); the generic one for a
    // venue the registry does not know.
    static std::unique_ptr<VenueHandler> create(const StreamConfig &config, VenueHost &host);

    const DecodeSpec &decodeSpec() const { return m_spec; }
    // Outgoing messages (pings included) allowed per second on one connection; 0 unpaced.
    virtual int controlMessagesPerSecond() const { return 0; }
    // Connection age after which a make-before-break rollover starts; 0 never.
    virtual qint64 maxConnectionAgeMs() const
    {
        return m_config.maxConnectionAgeMs > 0 ? m_config.maxConnectionAgeMs : 0;
    }
    // The venue's REST server-time endpoint for this stream (docs/clock.md); empty if none.
    virtual QUrl serverTimeUrl() const { return {}; }
    // How that endpoint's answers (or those of the stream's server_time_url) are read: here
    // {"serverTime": <ms>}, the generic shape (Binance's).
    virtual ServerTimeReader serverTimeReader() const { return &servertime::readServerTimeMs; }
    // The venue's limit on connection attempts from one IP address (OKX: 3 a second), which
    // the engine keeps for all the venue's streams together (session/ConnectionPacer.h);
    // attempts 0: none.
    struct ConnectLimit {
        int attempts = 0;
        qint64 windowMs = 0;
    };
    virtual ConnectLimit connectLimit() const { return {}; }
    // The venue's rules for a local order book per instrument on its depth streams
    // (docs/books.md); null: the venue keeps no books.
    virtual const book::BookRules *bookRules() const { return nullptr; }
    // A venue whose book snapshot comes in the stream: asks for a new one for `instrument` (its
    // book lost sync) by resubscribing its book channel; false when it cannot (no such
    // subscription on a connection now).
    virtual bool resubscribeBook(const QString &instrument)
    {
        Q_UNUSED(instrument);
        return false;
    }
    // Streams one connection may carry; 0 unlimited.
    virtual int maxStreamsPerConnection() const { return 0; }
    // The venue's own keep-alive: a text message that it answers with its spec's
    // HeadSpec::pongText (OKX: "ping", answered "pong"), sent instead of the transport's ping
    // once no frame came for ping_interval_ms; no frame within ping_interval_ms after it means
    // a dead connection (ConnectionWatchdog). Empty: the transport's ping (websockets), every
    // ping_interval_ms.
    virtual QString keepAlivePing() const { return {}; }
    // The text keep-alive goes every ping_interval_ms however busy the connection, and a ping
    // whose answer (a Pong message) does not come within ping_interval_ms means a dead
    // connection (Bybit); false: it goes only after silence, as above.
    virtual bool keepAlivePeriodic() const { return false; }
    // Streams the stream's URL itself names (they count toward the first connection's share).
    virtual int streamsNamedInUrl(const QUrl &url) const;
    // The URL of connection `shard` (> 0) of a stream split over several: it carries only
    // its own subscribed share.
    virtual QUrl shardUrl(const QUrl &url, int shard) const;
    // Whether the head scan should look for heartbeats itself, or leave them to the decoder,
    // which reads the spec's heartbeat marker anyway in parsed mode.
    HeadScanner::Heartbeats headScanHeartbeats(bool parsed) const
    {
        return parsed && !m_spec.heartbeat.value.empty() ? HeadScanner::Heartbeats::LeaveToDecoder
                                                         : HeadScanner::Heartbeats::Find;
    }

    // A connection is up: queue its opening requests (authentication, subscriptions).
    // Returns true if it sent requests (the stream is Subscribing until data arrives).
    // `link` identifies the connection for sendOn; `shard` is its share of the subscriptions.
    virtual bool onConnected(int link, int shard, bool rollover, const QStringList &streams);
    // The connection set was dropped (a reconnect follows, or a stop).
    virtual void onDisconnected() { m_sequences.reset(); }
    // A rollover switched connections: continuity starts again from the new one.
    virtual void onSwitchedOver() { m_sequences.reset(); }

    // A data message that is a venue notice rather than data (the spec's NoticeShape: Binance
    // serverShutdown), handed to onVenueNotice(); true if it was one. Called for every decoded
    // data message before dedupe and counting: one compare when the event type differs.
    bool onNotice(int link, const DecodedFields &fields)
    {
        return !m_spec.notice.eventType.empty() && fields.eventType == m_spec.notice.eventType
            && onVenueNotice(link, fields);
    }
    // Raw mode decodes nothing: a notice is recognised by the first bytes of the message,
    // and onNotice() is called with `eventType` as the decoded event type. Empty: none.
    struct RawNotice {
        std::string_view prefix;
        std::string_view eventType;
        // A byte of the prefix that data messages rarely share, compared first (the hot
        // path then rejects almost every message with one comparison).
        std::size_t probe = 0;
    };
    RawNotice rawNotice() const { return {m_spec.notice.rawPrefix, m_spec.notice.eventType, m_spec.notice.rawProbe}; }
    // A decoded data message that is the venue's heartbeat: a heartbeat candidate by the head
    // scan whose decoded marker says so (the spec's heartbeat; Betfair ct=HEARTBEAT).
    bool isHeartbeat(const HeadInfo &head, const DecodedFields &fields) const
    {
        return head.heartbeatCandidate && m_spec.heartbeat.matches(fields);
    }
    // A decoded data message that counts, on connection `link`. checkSequence is false while a
    // rollover overlap makes two connections' sequences interleave.
    virtual void onData(int link, const DecodedFields &fields, bool checkSequence);
    // Set by onData for the rare message the venue must read beyond its decoded fields
    // (Betfair: an image's markets); the router then hands it over whole, right after onData.
    // One load per message for everyone else.
    bool wantsWholeMessage() const { return m_wantsWholeMessage; }
    // The message onData() was just given, whole (`data`, `len`), when it asked for it.
    virtual void onWholeMessage(int link, const char *data, qsizetype len)
    {
        Q_UNUSED(link);
        Q_UNUSED(data);
        Q_UNUSED(len);
        m_wantsWholeMessage = false;
    }
    // A venue heartbeat on `link` (Betfair ct=HEARTBEAT); `fields` is decoded when the stream
    // parses.
    virtual void onHeartbeat(int link, const DecodedFields *fields);
    // A Betfair connection message or similar.
    virtual void onConnectionMessage(int link, const char *data, qsizetype len)
    {
        Q_UNUSED(link);
        Q_UNUSED(data);
        Q_UNUSED(len);
    }
    // A routed response (result or error) with the method of the request it answers.
    virtual void onResponse(int link, bool isError, const ResponseRecord &record);
    // Housekeeping, a few times a second, while connected.
    virtual void onTick(qint64 nowMs);
    // Whether the handler judges freshness itself (the session then skips its data-stall check).
    virtual bool ownsFreshness() const { return false; }

    // The state a live connection should show (Live, or Degraded while the venue says so),
    // and why.
    StreamState liveState() const { return m_liveState; }
    // A control message (SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS) on `link`, in the venue's
    // form; here JSON-RPC style ({"method":..,"params":..,"id":..}, as Binance's).
    virtual void sendControl(int link, const QString &method, const QStringList &params, qint64 requestId);
    const QString &liveReason() const { return m_liveReason; }

protected:
    // A notice of the spec's shape arrived (onNotice()): act on it; true if it is one.
    virtual bool onVenueNotice(int link, const DecodedFields &fields)
    {
        Q_UNUSED(link);
        Q_UNUSED(fields);
        return false;
    }

    // A venue's error text is shown (escaped, model/PeerText.h) up to this length.
    static constexpr qsizetype kMaxErrorChars = 300;

    // The stream's send_on_connect texts, on its first connection (`shard` 0); true if any.
    bool sendConfiguredOnConnect(int link, int shard);

    // Shared by the venues whose subscriptions are "channel:instrument" pairs
    // (VenueEntry::channelSubscriptions) and whose errors and notices are their own:
    // The entries that are pairs; the others are named in an event ("<venue> <op>: not
    // "channel:instrument", not sent: ..") and left out.
    std::vector<ChannelSubscription> channelPairs(const QStringList &entries, const char *venue, const QString &op);
    // A venue error (the answer to a request): counted in venue_errors, its code and message
    // kept escaped (venue_error_code, venue_error_message).
    void noteVenueError(const QString &code, const QString &message);
    // A venue notice: counted in venue_notices, kept escaped (venue_notice) and logged.
    void noteVenueNotice(const char *venue, const QString &notice);
    // A gap: counted, kept as a GapRecord (symbol escaped by the caller) and logged as `text`.
    void noteGap(const QString &symbol, qint64 expectedFrom, qint64 resumedAt, const QString &text);
    // A chain's name as shown: the peer's event type and symbol, "channel:instrument", escaped.
    static QString chainName(const DecodedFields &fields);

    const StreamConfig &m_config;
    VenueHost &m_host;
    const DecodeSpec &m_spec;
    SequenceTracker m_sequences;
    StreamState m_liveState = StreamState::Live;
    QString m_liveReason = QStringLiteral("receiving data");
    bool m_wantsWholeMessage = false; // wantsWholeMessage()
};

} // namespace streamscope
