#pragma once

// Whether a stream's data is fresh, beyond "messages arrive" (docs/freshness.md): the gap
// between data messages it usually has, learned, and how often it was silent well beyond it;
// the trend of its latency, and whether it is falling behind and why. A plain value carried
// by StreamSnapshot::freshness. Any thread.

#include "LatencySnapshot.h"

#include <QtCore/QString>
#include <QtCore/QVector>
#include <QtCore/QtGlobal>

namespace streamscope {

enum class BehindCause {
    Unknown = 0,
    None,      // not falling behind
    VenueLate, // latency grows while the worker keeps up: the exchange or the network is late
    WeAreSlow, // latency grows while the worker is busy nearly all the time
};

// One event type of a stream (the decoder's `e`, Betfair's `op`): its latency, and for a
// periodic type the measured spacing of its event times (docs/freshness.md, "Periodic streams").
struct EventTypeFigures {
    QString name;               // the peer's text, not yet escaped; "other" past the table's room
    bool periodic = false;      // its event time ends an interval: latency mixes the interval in
    double periodMs = -1;       // median spacing of its event times; -1 unknown
    double periodJitterMs = -1; // median distance of a spacing from that; -1 unknown
    LatencySnapshot latency;    // raw latency
};

struct FreshnessEstimate {
    qint64 usualGapMs = -1;        // a high quantile of the gaps between data messages; -1 while learning
    quint64 silenceAlarms = 0;     // silences well beyond the usual gap
    double latencyTrendMsPerS = 0; // slope of the per-second mean latency over the last ten seconds
    bool fallingBehind = false;
    BehindCause cause = BehindCause::Unknown;
    quint64 fallingBehindAlarms = 0;
    double workerBusyShare = -1; // the stream's worker's busy share of the last second, 0..1; -1 unknown

    // Periodic streams: every event type seen is periodic (a ticker, a kline, a depth diff
    // every 100 ms, a conflated Betfair stream); its latency is kept out of latency alarms.
    bool periodic = false;
    double periodMs = -1;       // the stream's period (its busiest event type's); -1 unknown or not periodic
    double periodJitterMs = -1; // -1 unknown
    // Per event type, once a stream carried two or more (a combined stream); filled with the
    // latency (StreamSnapshot::latency), else empty.
    QVector<EventTypeFigures> byEvent;

    // Backpressure: bytes received but not read yet (the socket's buffer plus the kernel's
    // receive queue, sampled on the tick; -1 unknown), the most of the last 10 s, and the
    // time to handle one message (sampled 1 in 64, mean of the last second; -1 unknown).
    qint64 unreadBytes = -1;
    qint64 unreadBytesPeak = -1;
    double processingUs = -1;
};

} // namespace streamscope
