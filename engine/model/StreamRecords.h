#pragma once

// Low-rate records that leave a stream's worker: routed responses, inspected messages and
// events for the event log. Plain values, copied across threads.

#include "RedactedUrl.h"
#include "StreamTypes.h"

#include <QtCore/QByteArray>
#include <QtCore/QMetaType>
#include <QtCore/QString>

namespace streamscope {

// A subscription result or an endpoint error, matched (when possible) to the request that
// caused it.
struct ResponseRecord {
    qint64 receivedMs = 0;
    QString requestId;       // as sent ("7" or a UUID); empty when the response carried none
    QString method;          // method/op of the matching request; empty when unmatched
    qint64 roundTripMs = -1; // -1 when unmatched
    QByteArray body;         // the response text (truncated to 4 KiB)
};

struct InspectedMessage {
    qint64 receivedMs = 0;
    double latencyMs = qQNaN(); // NaN when the message carries no event time
    QByteArray text;
};

// One depth-diff continuity break: when it was seen and which update ids are missing.
struct GapRecord {
    qint64 timeMs = 0;                                 // epoch ms when the break was seen
    QString symbol;                                    // "BTCUSDT" (or the stream name)
    qint64 expectedFrom = 0;                           // first missing update id (previous u + 1)
    qint64 resumedAt = 0;                              // first update id received after the break
    qint64 missingTo() const { return resumedAt - 1; } // last missing update id
};

// One websocket/line connection of a stream. A stream with more subscriptions than one
// connection may carry (Binance: 1,024) has several; during a make-before-break rollover
// the replacement shows up with rollover = true until it takes over.
struct ConnectionInfo {
    int shard = 0;         // 0, 1, ...: which share of the subscriptions it carries
    bool rollover = false; // a replacement connection, not yet switched over to
    bool connected = false;
    qint64 connectedSinceMs = 0;
    int subscriptions = 0; // Binance streams subscribed on it
    RedactedUrl url;
};

// One entry of a Binance websocket-API response's "rateLimits" array, as last seen.
struct RateLimitInfo {
    QString type;     // REQUEST_WEIGHT, ORDERS, CONNECTIONS, ...
    QString interval; // SECOND, MINUTE, DAY
    int intervalNum = 0;
    qint64 limit = 0;
    qint64 count = 0;
};

// Betfair's session keep-alive (docs/venues.md): its calls' results so far. The venue's texts
// are escaped (model/PeerText.h); the session token it answers with is never kept.
struct KeepAliveStatus {
    bool configured = false;
    quint64 succeeded = 0; // status SUCCESS
    quint64 failed = 0;    // status FAIL: the session is no longer extended
    quint64 errors = 0;    // no answer, or not one of the endpoint's (HTTP status, size, JSON)
    QString lastStatus;    // "SUCCESS", "FAIL" or "error"; empty before the first answer
    QString lastError;     // the venue's error code of the last FAIL, or what went wrong
};

enum class EventKind : quint8 {
    Unknown = 0,
    StateChanged,
    Connected,
    Disconnected,
    ReconnectScheduled,
    Stalled,
    Gap,
    ParseError,
    Response,
    Info, // also venue notices: rollover started/switched, RESUB_DELTA, conflation, 503
};

struct StreamEvent {
    StreamId stream = kInvalidStreamId;
    qint64 timeMs = 0;
    EventKind kind = EventKind::Unknown;
    StreamState state = StreamState::Unknown; // for StateChanged
    int closeCode = 0;                        // for Disconnected (websocket close code)
    QString text;
};

} // namespace streamscope

Q_DECLARE_METATYPE(streamscope::StreamEvent)
