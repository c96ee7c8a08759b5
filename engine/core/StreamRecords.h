#pragma once

// Low-rate records that leave a stream's worker: routed responses, inspected messages and
// events for the event log. Plain values, copied across threads.

#include "StreamTypes.h"

#include <QtCore/QByteArray>
#include <QtCore/QMetaType>
#include <QtCore/QString>

namespace streamscope {

// A subscription result or an endpoint error, matched (when possible) to the request that
// caused it.
struct ResponseRecord {
    qint64 receivedMs = 0;
    QString requestId;      // as sent ("7" or a UUID); empty when the response carried none
    QString method;         // method/op of the matching request; empty when unmatched
    qint64 roundTripMs = -1; // -1 when unmatched
    QByteArray body;        // the response text (truncated to 4 KiB)
};

struct InspectedMessage {
    qint64 receivedMs = 0;
    double latencyMs = qQNaN(); // NaN when the message carries no event time
    QByteArray text;
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
    Info,
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
