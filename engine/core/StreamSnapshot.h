#pragma once

// A copy of one stream's statistics and state at one instant, taken by Engine::snapshot()
// on the caller's thread without disturbing the stream's worker. Rates come from two
// snapshots: (b.messages - a.messages) / (b.takenAtNs - a.takenAtNs).

#include "StreamTypes.h"
#include "stats/LatencyHistogram.h"

#include <QtCore/QUrl>

namespace streamscope {

struct StreamSnapshot {
    StreamId id = kInvalidStreamId;
    QString name;
    QUrl url;
    Venue venue = Venue::Unknown;
    DecodeMode mode = DecodeMode::Unknown;

    StreamState state = StreamState::Unknown;
    QString stateReason;     // why it is in this state ("reconnecting: server closed (1006)")
    qint64 stateSinceMs = 0; // epoch ms of the last state change
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
};

} // namespace streamscope
