#pragma once

// A copy of one stream's statistics and state at one instant, taken by Engine::snapshot()
// on the caller's thread without disturbing the stream's worker. Rates come from two
// snapshots: (b.messages - a.messages) / (b.takenAtNs - a.takenAtNs).

#include "BookStatus.h"
#include "ClockEstimate.h"
#include "FlightConfig.h"
#include "Freshness.h"
#include "InstrumentStatus.h"
#include "LastTrade.h"
#include "LatencySnapshot.h"
#include "RecordConfig.h"
#include "RedactedUrl.h"
#include "StreamRecords.h"
#include "StreamTypes.h"

#include <QtCore/QVector>

namespace streamscope {

struct StreamSnapshot {
    StreamId id = kInvalidStreamId;
    QString name;
    RedactedUrl url; // never a password or a literal token: the report, /api and the UI show it
    Venue venue = Venue::Unknown;
    DecodeMode mode = DecodeMode::Unknown;

    StreamState state = StreamState::Unknown;
    QString stateReason;      // why it is in this state ("reconnecting: server closed (1006)")
    qint64 stateSinceMs = 0;  // epoch ms of the last state change
    qint64 nextRetryAtMs = 0; // epoch ms of the next reconnect attempt, 0 if none scheduled
    int lastCloseCode = 0;
    QString lastParseError;
    QByteArray lastBadMessage;

    qint64 takenAtNs = 0; // steady clock, for rates
    quint64 messages = 0;
    quint64 dataMessages = 0;
    quint64 bytes = 0;
    quint64 results = 0;
    quint64 errors = 0;
    quint64 controlMessages = 0;
    quint64 heartbeats = 0;
    quint64 parseErrors = 0;
    quint64 gaps = 0;
    quint64 reconnects = 0;
    quint64 inspectorDrops = 0;
    qint64 lastMessageMs = 0;
    qint64 lastDataMs = 0;

    LatencySnapshot latency; // filled only when asked for (it is 8 KiB)
    // The same with the clock offset applied (docs/clock.md); empty until an offset is known.
    // Filled with `latency`.
    LatencySnapshot latencyCorrected;
    ClockEstimate clock;         // the offset to the venue's clock, the latency floor
    FreshnessEstimate freshness; // learned silence, falling behind (docs/freshness.md)

    RecordStatus record; // recording to disk (docs/capture.md)
    FlightStatus flight; // the flight recorder (docs/capture.md, "Flight recorder")

    // ---- venues (see docs/venues.md) ----
    quint64 updates = 0;               // logical updates: a segmented Betfair change (SEG_START..SEG_END) counts once
    quint64 segments = 0;              // data messages that were part of a segmented change
    quint64 conflated = 0;             // Betfair change messages with con=true
    bool conflatedUnrequested = false; // con=true seen although conflateMs is 0
    quint64 images = 0;                // Betfair SUB_IMAGE messages (the first one and any mid-stream)
    quint64 resubDeltas = 0;           // Betfair RESUB_DELTA messages (after a resubscription with clk)
    quint64 incompleteImages = 0;      // Betfair segmented changes (images) interrupted before their SEG_END
    quint64 duplicateMarkets = 0;      // Betfair markets seen again in the same image (the higher version kept)
    qint64 initialImageMs = -1;        // Betfair: subscription sent → its image complete, ms; -1 none yet
    int imageMarkets = 0;              // Betfair: markets in the last complete image
    quint64 status503 = 0;             // Betfair change messages with status 503 (see StreamState::Degraded)
    quint64 staleAlarms = 0;           // nothing, not even a heartbeat, within 3 x heartbeatMs
    quint64 duplicates = 0;            // rollover overlap: messages dropped because already counted
    quint64 rollovers = 0;             // make-before-break switch-overs completed
    bool rolloverInProgress = false;
    quint64 serverShutdowns = 0;   // Binance serverShutdown notices
    quint64 sequenceResets = 0;    // legal restarts of a venue's sequence (OKX: seqId below prevSeqId), not gaps
    quint64 venueErrors = 0;       // venue error messages (OKX "event":"error"); the last in venueErrorCode/Message
    quint64 venueNotices = 0;      // venue notices (OKX "event":"notice"); the last in venueNotice
    quint64 outgoingMessages = 0;  // text messages sent (control, auth, subscriptions, heartbeats)
    quint64 outgoingPings = 0;     // websocket pings sent (they count toward the venue limit)
    int outgoingQueued = 0;        // waiting for the pacing limit
    int outgoingLimitPerS = 0;     // the venue's limit per connection (Binance 5 spot, 10 futures; 0 unpaced)
    int outgoingPeakPerS = 0;      // most messages + pings sent within one second on one connection
    QString connectionId;          // Betfair "connection" message
    int connectionsAvailable = -1; // Betfair authentication status; -1 unknown
    qint64 heartbeatMs = 0;        // as echoed by the venue (Betfair)
    qint64 conflateMs = -1;        // as echoed by the venue (Betfair), -1 unknown
    QString clk;                   // Betfair resume tokens, as last received (market stream)
    QString initialClk;
    QString venueErrorCode; // Betfair FAILURE errorCode / Binance error code of the last failure
    QString venueErrorMessage;
    QString venueNotice;                 // the last venue notice, in the venue's words (escaped)
    KeepAliveStatus keepAlive;           // Betfair's session keep-alive (when configured)
    int subscriptionCount = 0;           // Binance streams subscribed (all connections)
    QVector<ConnectionInfo> connections; // the stream group: one entry per connection
    QVector<GapRecord> recentGaps;       // the last gaps, oldest first (at most 100)
    QVector<RateLimitInfo> rateLimits;   // from the last websocket-API response that carried them
    QVector<BookStatus> books;           // one local order book per instrument of a depth stream (docs/books.md)
    // Each instrument of a stream whose messages name theirs, in the order first seen (at most
    // 1,024; docs/freshness.md, "Instruments that go quiet"), and the data messages that named
    // one beyond them or by a name not taken.
    QVector<InstrumentStatus> instruments;
    quint64 instrumentsUntracked = 0;
    // The last trade price of each instrument compared across venues (docs/venues.md, "One
    // instrument across venues"); empty unless the stream takes part with its trades.
    QVector<LastTrade> lastTrades;
};

} // namespace streamscope
