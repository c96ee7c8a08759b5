#pragma once

#include "ScenarioKit.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <vector>

namespace streamscope::replay {

using scenario::PoolMessage;

// The pool of a scenario of docs/benchmarks.md: 500 messages built from a fixed seed (fewer for
// huge_ticker_arr, whose messages are 455 KB each), plus the special messages a stream needs
// (Betfair heartbeat, SUB_IMAGE, RESUB_DELTA, and one malformed JSON message). The messages
// come from the scenario's venue (engine/venues/<venue>/<Venue>Scenarios.cpp, through
// StreamScope::VenueScenarios). Immutable once built; get() builds each pool once per process
// and is thread-safe.
class ScenarioPool {
public:
    static constexpr int kTimeMsWidth = scenario::kTimeMsWidth;
    static constexpr int kTimeTextWidth = scenario::kTimeTextWidth;
    static constexpr int kSeqWidth = scenario::kSeqWidth;
    static constexpr int kClkWidth = scenario::kClkWidth;
    static constexpr quint64 kFirstSeq = scenario::kFirstSeq;
    static constexpr quint64 kSeqSpan = scenario::kSeqSpan;
    static constexpr quint64 kHeartbeatEvery = 1000;
    static constexpr quint64 kFirstTradeId = scenario::kFirstTradeId;
    static constexpr int kHeartbeatWidth = scenario::kHeartbeatWidth;
    static constexpr int kInstrumentDigits = scenario::kInstrumentDigits;

    // nullptr if the name is not a scenario.
    static std::shared_ptr<const ScenarioPool> get(const QString &name);

    const QString &name() const { return m_name; }
    // A change stream (Betfair-like): data after a subscription, an image first, heartbeats.
    bool isChangeStream() const { return m_specials.changeStream; }
    const std::vector<PoolMessage> &messages() const { return m_messages; }
    const PoolMessage &heartbeat() const { return m_specials.heartbeat; }
    const PoolMessage &subImage() const { return m_specials.subImage; }
    const PoolMessage &resubDelta() const { return m_specials.resubDelta; }
    const PoolMessage &badJson() const { return m_specials.badJson; }
    // Change-stream specials: status 503, con=true, a segmented change (start, middle, end).
    const PoolMessage &status503() const { return m_specials.status503; }
    const PoolMessage &conflated() const { return m_specials.conflated; }
    const PoolMessage &segment(int part) const { return m_specials.segments[part]; }
    // The venue's own requests answered (ScenarioSpecials::control); null: Binance's.
    scenario::ControlAnswer (*control() const)(const QByteArray &request) { return m_specials.control; }
    // A book scenario's instrument (its REST snapshot: DepthSnapshot.h); empty for the others.
    const QString &bookSymbol() const { return m_bookSymbol; }
    // A scenario whose messages name their instrument (depth_books): the number of `symbol`
    // (S0042USDT: 42); -1 for any other symbol or scenario.
    qint64 instrumentOf(const QString &symbol) const;
    // Median JSON size of the pool's messages, in bytes.
    qsizetype medianSize() const;

private:
    ScenarioPool(const QString &name, const scenario::ScenarioDefinition &definition);

    QString m_name;
    QString m_bookSymbol;
    std::vector<PoolMessage> m_messages;
    scenario::ScenarioSpecials m_specials;
};

} // namespace streamscope::replay
