#pragma once

// Whether a stream's data is fresh, beyond "messages arrive" (docs/freshness.md): the gap
// between data messages it usually has, learned, and how often it was silent well beyond it;
// the trend of its latency, and whether it is falling behind and why. A plain value carried
// by StreamSnapshot::freshness. Any thread.

#include <QtCore/QtGlobal>

namespace streamscope {

enum class BehindCause {
    Unknown = 0,
    None,      // not falling behind
    VenueLate, // latency grows while the worker keeps up: the exchange or the network is late
    WeAreSlow, // latency grows while the worker is busy nearly all the time
};

struct FreshnessEstimate {
    qint64 usualGapMs = -1;        // a high quantile of the gaps between data messages; -1 while learning
    quint64 silenceAlarms = 0;     // silences well beyond the usual gap
    double latencyTrendMsPerS = 0; // slope of the per-second mean latency over the last ten seconds
    bool fallingBehind = false;
    BehindCause cause = BehindCause::Unknown;
    quint64 fallingBehindAlarms = 0;
    double workerBusyShare = -1; // the stream's worker's busy share of the last second, 0..1; -1 unknown
};

} // namespace streamscope
