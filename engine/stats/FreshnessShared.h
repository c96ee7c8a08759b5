#pragma once

// One stream's freshness figures as its worker publishes them on the tick (see
// model/Freshness.h): the learned usual gap, silence alarms, the latency trend, falling
// behind and its cause, the worker's busy share.
//
// Thread contract: one writer, the stream's worker, on its housekeeping tick; read lock-free
// by anyone.

#include "RelaxedCounter.h"
#include "model/Freshness.h"

namespace streamscope {

class alignas(64) FreshnessShared {
public:
    FreshnessShared()
    {
        usualGapMs.store(-1);
        busyShare.store(-1);
    }

    RelaxedValue<std::int64_t> usualGapMs;
    RelaxedCounter silenceAlarms;
    RelaxedValue<double> trendMsPerS;
    RelaxedValue<bool> fallingBehind;
    RelaxedValue<int> cause; // BehindCause
    RelaxedCounter fallingBehindAlarms;
    RelaxedValue<double> busyShare;

    void fill(FreshnessEstimate &out) const
    {
        out.usualGapMs = usualGapMs.load();
        out.silenceAlarms = silenceAlarms.load();
        out.latencyTrendMsPerS = trendMsPerS.load();
        out.fallingBehind = fallingBehind.load();
        out.cause = BehindCause(cause.load());
        out.fallingBehindAlarms = fallingBehindAlarms.load();
        out.workerBusyShare = busyShare.load();
    }
};

} // namespace streamscope
