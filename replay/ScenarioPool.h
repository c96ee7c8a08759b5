#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <vector>

namespace streamscope::replay {

// One pre-serialized JSON message of a pool, with the places that are rewritten at send time.
// Every such field has a fixed width, so that a message is patched in place with no
// allocation: the event time in ms (13 digits), the depth-diff sequence numbers (right
// aligned in kSeqWidth characters, padded with JSON whitespace) and the Betfair clk token.
struct PoolMessage {
    QByteArray json;
    int timeMsOffset = -1;      // Binance "E" / Betfair "pt": 13 digits
    int firstSeqOffset = -1;    // depth diff "U"
    int lastSeqOffset = -1;     // depth diff "u"
    int clkOffset = -1;         // Betfair "clk": kClkWidth digits inside the string
    int tradeIdOffset = -1;     // aggTrade "a": kSeqWidth characters, right aligned
    int heartbeatMsOffset = -1; // Betfair "heartbeatMs" echo: kHeartbeatWidth characters
};

// The pool of a scenario of docs/benchmarks.md: 500 messages built from a fixed seed (fewer for
// huge_ticker_arr, whose messages are 455 KB each), plus the special messages a stream needs
// (Betfair heartbeat, SUB_IMAGE, RESUB_DELTA, and one malformed JSON message).
// Immutable once built; get() builds each pool once per process and is thread-safe.
class ScenarioPool {
public:
    static constexpr int kTimeMsWidth = 13;
    static constexpr int kSeqWidth = 12;
    static constexpr int kClkWidth = 12;
    static constexpr quint64 kFirstSeq = 5000000000ull;
    static constexpr quint64 kSeqSpan = 200; // u = U + kSeqSpan, next U = u + 1
    static constexpr quint64 kHeartbeatEvery = 1000;
    static constexpr quint64 kFirstTradeId = 1000000;
    static constexpr int kHeartbeatWidth = 5;

    // nullptr if the name is not a scenario.
    static std::shared_ptr<const ScenarioPool> get(const QString &name);

    const QString &name() const { return m_name; }
    bool isBetfair() const { return m_betfair; }
    const std::vector<PoolMessage> &messages() const { return m_messages; }
    const PoolMessage &heartbeat() const { return m_heartbeat; }
    const PoolMessage &subImage() const { return m_subImage; }
    const PoolMessage &resubDelta() const { return m_resubDelta; }
    const PoolMessage &badJson() const { return m_badJson; }
    // Betfair specials: status 503, con=true, a segmented change (start, middle, end).
    const PoolMessage &status503() const { return m_status503; }
    const PoolMessage &conflated() const { return m_conflated; }
    const PoolMessage &segment(int part) const { return m_segments[part]; }
    // Median JSON size of the pool's messages, in bytes.
    qsizetype medianSize() const;

private:
    explicit ScenarioPool(const QString &name);

    QString m_name;
    bool m_betfair = false;
    std::vector<PoolMessage> m_messages;
    PoolMessage m_heartbeat;
    PoolMessage m_subImage;
    PoolMessage m_resubDelta;
    PoolMessage m_badJson;
    PoolMessage m_status503;
    PoolMessage m_conflated;
    PoolMessage m_segments[3];
};

} // namespace streamscope::replay
