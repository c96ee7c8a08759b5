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
#include <bit>
#include <cmath>
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

    // The worker's busy share. It moves a little every second on an idle worker too, and every
    // stream on the worker shows it: a move counts as the stream's change (digest()) only from
    // kBusyShareStep on, or when it is first measured. The worker's only.
    void setBusyShare(double share)
    {
        busyShare.store(share);
        if ((share < 0) != (m_busyShareCounted < 0) || std::abs(share - m_busyShareCounted) >= kBusyShareStep)
            m_busyShareCounted = share;
    }
    static constexpr double kBusyShareStep = 0.05;

    // Changes when any figure does (StreamShared::publishTick); the worker's only.
    std::uint64_t digest() const
    {
        std::uint64_t h = 1469598103934665603ull;
        const auto add = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
        const auto bits = [](double v) { return std::bit_cast<std::uint64_t>(v); };
        add(std::uint64_t(usualGapMs.load()));
        add(silenceAlarms.load());
        add(bits(trendMsPerS.load()));
        add(fallingBehind.load());
        add(std::uint64_t(cause.load()));
        add(fallingBehindAlarms.load());
        add(bits(m_busyShareCounted));
        add(periodic.load());
        add(bits(periodMs.load()));
        add(bits(periodJitterMs.load()));
        add(std::uint64_t(unreadBytes.load()));
        add(std::uint64_t(unreadBytesPeak.load()));
        add(bits(processingUs.load()));
        if (const EventTypesShared *e = events.load(std::memory_order_acquire)) {
            add(std::uint64_t(e->named.load(std::memory_order_relaxed)));
            for (const EventTypesShared::Slot &s : e->entries) {
                add(s.periodic.load());
                add(bits(s.periodMs.load()));
                add(bits(s.jitterMs.load()));
                add(s.latency.recorded());
            }
        }
        return h;
    }

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

private:
    double m_busyShareCounted = -1; // setBusyShare()
};

} // namespace streamscope
