#pragma once

// A stream's figures per event type (the decoder's `e`, Betfair's `op`), for a connection
// that carries several (a combined stream: trades and depth updates): up to kNamed types by
// name, the rest together in the last slot ("other"). Created by the worker on its tick once
// a second type appears (FreshnessShared::events), so that a stream of one type costs
// nothing; never destroyed before the stream.
//
// Thread contract: one writer, the stream's worker. A slot's name is written before `named`
// is raised (release) and never changes after; readers load `named` (acquire) and read the
// names below it. Everything else is relaxed, as in LatencyHistogram.

#include "LatencyHistogram.h"
#include "RelaxedCounter.h"
#include "model/Freshness.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <string_view>

namespace streamscope {

class EventTypesShared {
public:
    static constexpr int kNamed = 8;
    static constexpr int kOther = kNamed;
    static constexpr int kSlots = kNamed + 1;
    static constexpr std::size_t kNameBytes = 32; // longer names are cut (and may share a slot)

    struct Slot {
        Slot()
        {
            periodMs.store(-1);
            jitterMs.store(-1);
        }
        std::array<char, kNameBytes> name{};
        std::size_t nameLen = 0;
        RelaxedValue<bool> periodic;
        RelaxedValue<double> periodMs;
        RelaxedValue<double> jitterMs;
        LatencyHistogram latency;
    };

    // Writer: names slot `i` (the next unnamed one).
    void name(int i, std::string_view n)
    {
        Slot &s = entries[std::size_t(i)];
        s.nameLen = std::min(n.size(), kNameBytes);
        std::memcpy(s.name.data(), n.data(), s.nameLen);
        named.store(i + 1, std::memory_order_release);
    }

    // Reader: the named slots, then "other" if it holds anything.
    void fill(QVector<EventTypeFigures> &out) const
    {
        const int n = named.load(std::memory_order_acquire);
        const auto figures = [](const Slot &s, const QString &name) {
            EventTypeFigures f;
            f.name = name;
            f.periodic = s.periodic.load();
            f.periodMs = s.periodMs.load();
            f.periodJitterMs = s.jitterMs.load();
            f.latency = s.latency.snapshot();
            return f;
        };
        for (int i = 0; i < n; ++i) {
            const Slot &s = entries[std::size_t(i)];
            out << figures(s, QString::fromUtf8(s.name.data(), qsizetype(s.nameLen)));
        }
        const Slot &other = entries[std::size_t(kOther)];
        if (other.latency.count() > 0 || other.periodMs.load() >= 0)
            out << figures(other, QStringLiteral("other"));
    }

    std::array<Slot, kSlots> entries;
    std::atomic<int> named{0};
};

} // namespace streamscope
