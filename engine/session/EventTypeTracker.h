#pragma once

// Per event type on the worker (docs/freshness.md, "Periodic streams" and "Per event
// type"): which slot of the stream's event table a message's type takes, each type's raw
// latency totals and the spacing of its event times, and which types are periodic — their
// event time ends an interval (a ticker, a kline, a depth diff every 100 ms, a conflated
// Betfair stream), so their "latency" mixes the interval in and stays out of latency alarms.
//
// Periodic is decided from names, not learned: a Binance event type known to be periodic
// (periodicEventType()), or a stream whose every subscription name is (periodicStreamName()),
// or a conflated Betfair stream (setStreamPeriodic()). The period and its jitter are
// measured from the spacing of event times.
//
// Thread contract: the stream's worker only. slot() and record() are the hot path: no lock,
// and no allocation but once a type in the stream's life: a new type's name is copied into a
// fixed array, and a periodic one gets the ring of its spacings (a stream of trades holds
// none). tick() publishes.

#include "stats/EventTypesShared.h"

#include <QtCore/QStringList>
#include <QtCore/QUrl>
#include <QtCore/QtGlobal>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

namespace streamscope {

class FreshnessShared;

class EventTypeTracker {
public:
    static constexpr int kNamed = EventTypesShared::kNamed;
    static constexpr int kOther = EventTypesShared::kOther;
    static constexpr int kSlots = EventTypesShared::kSlots;
    static constexpr int kSpacings = 32; // the last spacings per type (a power of two)
    static constexpr int kMinSpacings = 8;
    static constexpr qint64 kPublishMs = 1000;
    static constexpr std::int64_t kNone = INT64_MIN;

    explicit EventTypeTracker(FreshnessShared &out);

    // Binance event types whose event time ends an interval.
    static bool periodicEventType(std::string_view type);
    // A Binance stream name that is periodic: @ticker, @miniTicker, @kline_*, @depth*,
    // !ticker@arr, @markPrice, @avgPrice... (not @trade, @aggTrade, @bookTicker).
    static bool periodicStreamName(const QString &name);
    // Every name periodic (and at least one).
    static bool allPeriodic(const QStringList &names);
    // The stream names a configuration asks for: its subscriptions, the URL's path after
    // /ws/ and its ?streams=a/b.
    static QStringList streamNames(const QUrl &url, const QStringList &subscribe);

    // Every type of this stream is periodic whatever its name (set from the configuration's
    // names, and on the tick from a conflated Betfair stream).
    void setStreamPeriodic(bool periodic);
    // `usPerUnit`: µs per unit of the stream's event times.
    void setUnit(double usPerUnit) { m_usPerUnit = usPerUnit; }

    // Hot path: the slot of this event type (an empty type is "(none)"); a new type takes the
    // next free slot, past kNamed they share kOther.
    int slot(std::string_view type) noexcept
    {
        if (type.empty())
            type = std::string_view("(none)");
        if (m_last < m_used && equals(m_last, type))
            return m_last;
        for (int i = 0; i < m_used; ++i)
            if (equals(i, type))
                return m_last = i;
        if (m_used < kNamed && type != std::string_view("other"))
            return m_last = claim(type);
        return kOther;
    }

    // Hot path: a message of slot `s` with a plausible event time and its raw latency.
    void record(int s, std::int64_t eventTime, std::int64_t latencyUs) noexcept
    {
        Local &l = m_local[std::size_t(s)];
        l.seen = true;
        if (l.measure) { // periodic: the spacing of its event times
            if (l.lastEventTime != kNone && eventTime > l.lastEventTime) {
                Spacings &sp = *l.spacings;
                sp.values[std::size_t(sp.next)] = eventTime - l.lastEventTime;
                sp.next = (sp.next + 1) & (kSpacings - 1);
                if (sp.size < kSpacings)
                    ++sp.size;
            }
            l.lastEventTime = std::max(l.lastEventTime, eventTime);
        }
        if (m_table)
            m_table->entries[std::size_t(s)].latency.record(latencyUs);
    }

    // On the tick: publishes the periods, creates the shared table once a second type came.
    void tick(qint64 nowMs);
    // The connection went: spacings across the outage are no period.
    void reconnected();

    // Every type seen is periodic (and one was seen): the stream stays out of latency alarms.
    bool streamPeriodic() const;
    // Some types periodic, some not: the latency trend follows the others (nonPeriodicTotals).
    bool mixed() const;
    // Count and sum of the raw latencies (≥ 0) of the non-periodic types, as recorded so far
    // in the shared table (which a mixed stream has from its second type's tick on).
    void nonPeriodicTotals(std::uint64_t &count, std::uint64_t &sumUs) const;
    int typesSeen() const { return m_used + (m_local[std::size_t(kOther)].seen ? 1 : 0); }

private:
    // The last spacings of a periodic type's event times.
    struct Spacings {
        std::array<std::int64_t, kSpacings> values{};
        int next = 0;
        int size = 0;
    };
    struct Local {
        std::array<char, EventTypesShared::kNameBytes> name{};
        std::size_t nameLen = 0;
        bool periodicByType = false;
        bool measure = false; // periodic (by type or the stream's): its spacings are kept
        bool seen = false;
        std::int64_t lastEventTime = kNone;
        std::unique_ptr<Spacings> spacings; // set with `measure`, kept after
    };
    // Whether slot `l`'s spacings are kept; the ring is made the first time they are.
    static void setMeasure(Local &l, bool measure)
    {
        l.measure = measure;
        if (measure && !l.spacings)
            l.spacings = std::make_unique<Spacings>();
    }

    bool equals(int i, std::string_view type) const noexcept
    {
        const Local &l = m_local[std::size_t(i)];
        const std::size_t n = std::min(type.size(), EventTypesShared::kNameBytes);
        return l.nameLen == n && sameBytes(l.name.data(), type.data(), n);
    }
    // Inline: memcmp with a size known only at run time is a library call.
    static bool sameBytes(const char *a, const char *b, std::size_t n) noexcept
    {
        std::size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            std::uint64_t x, y;
            std::memcpy(&x, a + i, 8);
            std::memcpy(&y, b + i, 8);
            if (x != y)
                return false;
        }
        for (; i < n; ++i)
            if (a[i] != b[i])
                return false;
        return true;
    }
    int claim(std::string_view type) noexcept;
    bool periodic(int s) const { return m_streamPeriodic || m_local[std::size_t(s)].periodicByType; }

    // The hot path's fields first, the per-type records (with their spacings) last.
    EventTypesShared *m_table = nullptr; // owned by m_out once created
    int m_used = 0;
    int m_last = 0;
    bool m_streamPeriodic = false;
    double m_usPerUnit = 1000.0;
    qint64 m_lastPublishMs = -1;
    FreshnessShared &m_out;
    std::array<Local, kSlots> m_local{};
};

} // namespace streamscope
