#pragma once

// One stream's freshness figures as its worker publishes them on the tick (see
// model/Freshness.h): the learned usual gap, silence alarms, the latency trend, falling
// behind and its cause, the worker's busy share.
//
// Thread contract: one writer, the stream's worker, on its housekeeping tick; read lock-free
// by anyone.

#include "EventTypesShared.h"
#include "RelaxedCounter.h"
#include "model/Freshness.h"

#include <atomic>
#include <memory>

namespace streamscope {

class alignas(64) FreshnessShared {
public:
    FreshnessShared()
    {
        usualGapMs.store(-1);
        busyShare.store(-1);
        periodMs.store(-1);
        periodJitterMs.store(-1);
        unreadBytes.store(-1);
        unreadBytesPeak.store(-1);
        processingUs.store(-1);
    }
    ~FreshnessShared() { delete events.load(std::memory_order_acquire); }
    FreshnessShared(const FreshnessShared &) = delete;
    FreshnessShared &operator=(const FreshnessShared &) = delete;

    RelaxedValue<std::int64_t> usualGapMs;
    RelaxedCounter silenceAlarms;
    RelaxedValue<double> trendMsPerS;
    RelaxedValue<bool> fallingBehind;
    RelaxedValue<int> cause; // BehindCause
    RelaxedCounter fallingBehindAlarms;
    RelaxedValue<double> busyShare;
    // Periodic streams and backpressure (model/Freshness.h).
    RelaxedValue<bool> periodic;
    RelaxedValue<double> periodMs;
    RelaxedValue<double> periodJitterMs;
    RelaxedValue<std::int64_t> unreadBytes;
    RelaxedValue<std::int64_t> unreadBytesPeak;
    RelaxedValue<double> processingUs;
    // Per event type; null until the stream carried two types. Set once (release).
    std::atomic<EventTypesShared *> events{nullptr};

    // `withEvents`: also the per-event-type figures (their latency histograms).
    void fill(FreshnessEstimate &out, bool withEvents = false) const
    {
        out.usualGapMs = usualGapMs.load();
        out.silenceAlarms = silenceAlarms.load();
        out.latencyTrendMsPerS = trendMsPerS.load();
        out.fallingBehind = fallingBehind.load();
        out.cause = BehindCause(cause.load());
        out.fallingBehindAlarms = fallingBehindAlarms.load();
        out.workerBusyShare = busyShare.load();
        out.periodic = periodic.load();
        out.periodMs = periodMs.load();
        out.periodJitterMs = periodJitterMs.load();
        out.unreadBytes = unreadBytes.load();
        out.unreadBytesPeak = unreadBytesPeak.load();
        out.processingUs = processingUs.load();
        if (const EventTypesShared *e = events.load(std::memory_order_acquire); e && withEvents)
            e->fill(out.byEvent);
    }
};

} // namespace streamscope
