#pragma once

// The vocabulary of replay scenarios, shared by the venues' scenario sources
// (engine/venues/<venue>/<Venue>Scenarios.cpp) and the replay server (replay/), which links
// them as StreamScope::VenueScenarios: Qt Core only, no engine, so that the replay server can
// test the engine. A scenario is a pool of pre-serialized messages with fixed-width places the
// server rewrites at send time (event time, sequence numbers, trade id, Betfair's clk and
// heartbeatMs), plus the special messages a change stream serves; and a venue's server-time
// answer (ServerTimeRoute).
//
// Thread contract: ScenarioBuilder is used by one thread while a pool is built; the rest are
// constants and plain values.

#include <QtCore/QByteArray>

#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace streamscope::scenario {

// Widths and first values of the rewritten places: every such field has a fixed width, so
// that a message is patched in place with no allocation.
constexpr int kTimeMsWidth = 13;   // event time in ms
constexpr int kTimeTextWidth = 27; // event time as RFC 3339 text, "2023-11-14T22:13:20.000000Z" (ms precision)
constexpr int kSeqWidth = 12;      // sequence numbers and trade ids, right aligned, padded with JSON whitespace
constexpr int kClkWidth = 12;      // Betfair clk digits inside its string
constexpr int kHeartbeatWidth = 5;
// A scenario of many instruments numbers them in their symbols: S0000USDT .. S9999USDT (the
// digits patched at send time, in the stream name too, in lower case).
constexpr int kInstrumentDigits = 4;
constexpr int kMaxInstruments = 10000;
constexpr quint64 kFirstSeq = 5000000000ull;
constexpr quint64 kSeqSpan = 200; // u = U + kSeqSpan, next U = u + 1
constexpr quint64 kFirstTradeId = 1000000;
constexpr quint64 kBaseTimeMs = 1700000000000ull;

// One pre-serialized JSON message of a pool, with the places that are rewritten at send time.
struct PoolMessage {
    QByteArray json;
    int timeMsOffset = -1;      // event time: kTimeMsWidth digits
    int timeTextOffset = -1;    // event time as text: kTimeTextWidth characters (writeTimeText)
    int firstSeqOffset = -1;    // first sequence number (Binance "U")
    int lastSeqOffset = -1;     // last sequence number (Binance "u")
    int clkOffset = -1;         // Betfair "clk": kClkWidth digits inside the string
    int tradeIdOffset = -1;     // trade id (Binance "a"): kSeqWidth characters, right aligned
    int heartbeatMsOffset = -1; // Betfair "heartbeatMs" echo: kHeartbeatWidth characters
    // The instrument's number (kInstrumentDigits digits) in its symbol, in the stream name and in
    // the event (Binance "stream" and "s").
    int instrumentOffsets[2] = {-1, -1};
};

// Appends JSON text and remembers where the patchable fields are; random prices and sizes
// come from the pool's generator (a fixed seed per scenario).
class ScenarioBuilder {
public:
    explicit ScenarioBuilder(std::mt19937_64 &rng)
        : m_rng(rng)
    {
    }

    ScenarioBuilder &raw(const char *text);
    ScenarioBuilder &num(quint64 value);
    ScenarioBuilder &price();
    // A price of a book's side: bids below 45,000, asks above, so that a book of them never
    // crosses (the same width of text as price()).
    ScenarioBuilder &bidPrice();
    ScenarioBuilder &askPrice();
    ScenarioBuilder &qty();
    ScenarioBuilder &odds();
    // A price and a size as JSON numbers (Kraken writes them so).
    ScenarioBuilder &priceNumber();
    ScenarioBuilder &bidPriceNumber();
    ScenarioBuilder &askPriceNumber();
    ScenarioBuilder &qtyNumber();
    // The text the last price, size or number call wrote (until the next call).
    std::string_view lastWritten() const { return std::string_view(m_out).substr(m_lastBegin); }
    // An event time; `patched`: the server writes the send time there.
    ScenarioBuilder &timeMs(quint64 ms, bool patched);
    // The same as RFC 3339 text (Kraken, Coinbase), without its quotes.
    ScenarioBuilder &timeText(quint64 ms, bool patched);
    ScenarioBuilder &seq(quint64 value, bool first);
    ScenarioBuilder &tradeId(quint64 value);
    ScenarioBuilder &heartbeatMs();
    ScenarioBuilder &clk();
    // An instrument's symbol, S0000USDT (lower case: s0000usdt), whose number the server writes;
    // `place` 0 or 1 (PoolMessage::instrumentOffsets).
    ScenarioBuilder &instrumentSymbol(int place, bool lowerCase);
    // The message built so far; the builder starts the next one.
    PoolMessage take();
    std::mt19937_64 &rng() { return m_rng; }

private:
    double uniform(double lo, double hi);
    template<typename... Args>
    ScenarioBuilder &fmt(const char *format, Args... args);

    std::mt19937_64 &m_rng;
    std::string m_out;
    std::size_t m_lastBegin = 0;
    PoolMessage m_msg;
};

// The replay server's answer to one text message from a client, for a venue whose requests are
// its own (ScenarioSpecials::control).
struct ControlAnswer {
    std::vector<QByteArray> replies; // sent in order, each as one message
    bool startsData = false;         // a subscription: the data begins (with wait_subscribe=1)
};

// Writes `ms` since the epoch as RFC 3339 UTC text of kTimeTextWidth characters at `dst`
// ("2023-11-14T22:13:20.123000Z"); no allocation (the replay server patches with it).
void writeTimeText(char *dst, quint64 ms);

// `text` as a JSON string, quotes included (a request quoted in an answer).
QByteArray jsonString(const QString &text);

// The special messages of a scenario, served besides its pool.
struct ScenarioSpecials {
    // A change stream (Betfair-like, over lines): data follows a subscription, starts with an
    // image (or a RESUB_DELTA after a resubscription), with heartbeats and the messages below.
    bool changeStream = false;
    PoolMessage heartbeat;
    PoolMessage subImage;
    PoolMessage resubDelta;
    PoolMessage status503;
    PoolMessage conflated;
    PoolMessage segments[3]; // SEG_START, SEG, SEG_END
    PoolMessage badJson;     // cut short on purpose: never valid JSON
    // The venue's own requests (OKX: op subscribe, the text "ping"): the answer to one; null
    // for Binance's SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS, which the server knows.
    ControlAnswer (*control)(const QByteArray &request) = nullptr;
};

// A venue's REST server-time endpoint as the replay server answers it (GET, no upgrade): the
// path the venue's probe asks and the answer's body, in the venue's shape, for the server's time
// `ns` (nanoseconds since the epoch; each venue writes it in its own unit).
struct ServerTimeRoute {
    const char *path = ""; // "/api/v5/public/time"
    QByteArray (*body)(quint64 ns) = nullptr;
};

// One scenario of a venue: `streamscope-replay --scenario <name>`.
struct ScenarioDefinition {
    const char *name = "";
    quint64 defaultCount = 0; // messages a run sends unless told otherwise
    // The pool's message number `index` (the pool holds up to 500, built in order).
    PoolMessage (*message)(ScenarioBuilder &b, quint64 index) = nullptr;
    void (*specials)(ScenarioBuilder &b, ScenarioSpecials &out) = nullptr;
    // A depth-diff scenario whose diffs keep one coherent book of this instrument (bids below the
    // asks): the replay server answers a REST snapshot of it (replay/README.md, "Order-book
    // snapshots"). Null: no snapshot. "S0000USDT": the messages name their instrument with
    // instrumentSymbol(), and a connection serves as many instruments as it asks for, each
    // its own book.
    const char *bookSymbol = nullptr;
};

} // namespace streamscope::scenario
