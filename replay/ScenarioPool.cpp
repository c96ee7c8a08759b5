#include "ScenarioPool.h"

#include "ReplayOptions.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

namespace streamscope::replay {

namespace {

constexpr int kPoolSize = 500;
// huge_ticker_arr messages are ~455 KB: 500 of them would hold 230 MB for nothing.
constexpr qsizetype kPoolBytesCap = 16 * 1024 * 1024;
constexpr quint64 kBaseTimeMs = 1700000000000ull;
constexpr std::uint64_t kSeed = 20240601;

struct ScenarioInfo {
    const char *name;
    quint64 count;
};

constexpr ScenarioInfo kScenarios[] = {
    {"small_aggtrade", 300000}, {"medium_kline", 150000},  {"large_depth20", 60000}, {"xlarge_depth_diff", 30000},
    {"huge_ticker_arr", 600},   {"multiplex_mix", 120000}, {"betfair_mcm", 200000},
};

// Appends JSON text and remembers where the patchable fields are.
class Builder {
public:
    explicit Builder(std::mt19937_64 &rng)
        : m_rng(rng)
    {
    }

    Builder &raw(const char *text)
    {
        m_out += text;
        return *this;
    }
    Builder &num(quint64 value)
    {
        m_out += std::to_string(value);
        return *this;
    }
    Builder &price() { return fmt("\"%.2f\"", uniform(20000.0, 70000.0)); }
    Builder &qty() { return fmt("\"%.5f\"", uniform(0.0001, 5.0)); }
    Builder &odds() { return fmt("%.2f", uniform(1.01, 100.0)); }
    Builder &timeMs(quint64 ms, bool patched)
    {
        if (patched)
            m_msg.timeMsOffset = int(m_out.size());
        return num(ms);
    }
    Builder &seq(quint64 value, bool first)
    {
        (first ? m_msg.firstSeqOffset : m_msg.lastSeqOffset) = int(m_out.size());
        return fmt("%*llu", ScenarioPool::kSeqWidth, static_cast<unsigned long long>(value));
    }
    Builder &tradeId(quint64 value)
    {
        m_msg.tradeIdOffset = int(m_out.size());
        return fmt("%*llu", ScenarioPool::kSeqWidth, static_cast<unsigned long long>(value));
    }
    Builder &heartbeatMs()
    {
        m_msg.heartbeatMsOffset = int(m_out.size());
        return fmt("%*d", ScenarioPool::kHeartbeatWidth, 5000);
    }
    Builder &clk()
    {
        m_msg.clkOffset = int(m_out.size());
        return fmt("%0*d", ScenarioPool::kClkWidth, 0);
    }
    PoolMessage take()
    {
        m_msg.json = QByteArray(m_out.data(), qsizetype(m_out.size()));
        PoolMessage done = m_msg;
        m_msg = {};
        m_out.clear();
        return done;
    }

private:
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(m_rng); }
    template<typename... Args>
    Builder &fmt(const char *format, Args... args)
    {
        char buf[64];
        const int n = std::snprintf(buf, sizeof buf, format, args...);
        m_out.append(buf, size_t(std::clamp(n, 0, int(sizeof buf) - 1)));
        return *this;
    }

    std::mt19937_64 &m_rng;
    std::string m_out;
    PoolMessage m_msg;
};

PoolMessage aggTrade(Builder &b, quint64 i)
{
    const quint64 ts = kBaseTimeMs + i;
    b.raw(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":)").timeMs(ts, true);
    b.raw(R"(,"s":"BTCUSDT","a":)").tradeId(ScenarioPool::kFirstTradeId + i).raw(R"(,"p":)").price();
    b.raw(R"(,"q":)").qty().raw(R"(,"f":)").num(2000000 + i).raw(R"(,"l":)").num(2000000 + i);
    b.raw(R"(,"T":)").timeMs(ts, false).raw(R"(,"m":)").raw(i % 2 == 1 ? "true" : "false");
    b.raw(R"(,"M":true}})");
    return b.take();
}

PoolMessage kline(Builder &b, quint64 i)
{
    const quint64 ts = kBaseTimeMs + i;
    b.raw(R"({"stream":"btcusdt@kline_1m","data":{"e":"kline","E":)").timeMs(ts, true);
    b.raw(R"(,"s":"BTCUSDT","k":{"t":)").num(ts).raw(R"(,"T":)").num(ts + 59999);
    b.raw(R"(,"s":"BTCUSDT","i":"1m","f":)").num(100 + i).raw(R"(,"L":)").num(200 + i);
    b.raw(R"(,"o":)").price().raw(R"(,"c":)").price().raw(R"(,"h":)").price();
    b.raw(R"(,"l":)").price().raw(R"(,"v":)").qty().raw(R"(,"n":)").num(100 + i);
    b.raw(R"(,"x":false,"q":)").qty().raw(R"(,"V":)").qty().raw(R"(,"Q":)").qty();
    b.raw(R"(,"B":"0"}}})");
    return b.take();
}

void levels(Builder &b, int n)
{
    for (int k = 0; k < n; ++k)
        b.raw(k == 0 ? "[" : ",[").price().raw(",").qty().raw("]");
}

PoolMessage depth20(Builder &b, quint64 i)
{
    b.raw(R"({"stream":"btcusdt@depth20@100ms","data":{"lastUpdateId":)").num(5000000000ull + i);
    b.raw(R"(,"bids":[)");
    levels(b, 20);
    b.raw(R"(],"asks":[)");
    levels(b, 20);
    b.raw("]}}");
    return b.take();
}

PoolMessage depthDiff(Builder &b, quint64 i)
{
    const quint64 first = ScenarioPool::kFirstSeq + i * (ScenarioPool::kSeqSpan + 1);
    b.raw(R"({"stream":"btcusdt@depth","data":{"e":"depthUpdate","E":)").timeMs(kBaseTimeMs + i, true);
    b.raw(R"(,"s":"BTCUSDT","U":)").seq(first, true);
    b.raw(R"(,"u":)").seq(first + ScenarioPool::kSeqSpan, false).raw(R"(,"b":[)");
    levels(b, 200);
    b.raw(R"(],"a":[)");
    levels(b, 200);
    b.raw("]}}");
    return b.take();
}

PoolMessage tickerArr(Builder &b, quint64 i)
{
    const quint64 ts = kBaseTimeMs + i;
    b.raw(R"({"stream":"!ticker@arr","data":[)");
    for (int s = 0; s < 1400; ++s) {
        char sym[32];
        std::snprintf(sym, sizeof sym, "SYM%04dUSDT", s);
        b.raw(s == 0 ? R"({"e":"24hrTicker","E":)" : R"(,{"e":"24hrTicker","E":)");
        b.timeMs(ts, false).raw(R"(,"s":")").raw(sym).raw(R"(","p":)").price();
        b.raw(R"(,"P":"1.234","w":)").price().raw(R"(,"x":)").price().raw(R"(,"c":)").price();
        b.raw(R"(,"Q":)").qty().raw(R"(,"b":)").price().raw(R"(,"B":)").qty();
        b.raw(R"(,"a":)").price().raw(R"(,"A":)").qty().raw(R"(,"o":)").price();
        b.raw(R"(,"h":)").price().raw(R"(,"l":)").price().raw(R"(,"v":)").qty();
        b.raw(R"(,"q":)").qty().raw(R"(,"O":)").num(ts - 86400000).raw(R"(,"C":)").num(ts);
        b.raw(R"(,"F":)").num(1 + i).raw(R"(,"L":)").num(2 + i).raw(R"(,"n":)").num(3 + i);
        b.raw("}");
    }
    b.raw("]}");
    return b.take();
}

PoolMessage mcm(Builder &b, quint64 i)
{
    b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","pt":)").timeMs(kBaseTimeMs + i, true);
    b.raw(R"(,"mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":)").odds().raw("}]}]}");
    return b.take();
}

} // namespace

QStringList scenarioNames()
{
    QStringList names;
    for (const ScenarioInfo &info : kScenarios)
        names << QString::fromLatin1(info.name);
    return names;
}

quint64 scenarioDefaultCount(const QString &scenario)
{
    for (const ScenarioInfo &info : kScenarios) {
        if (scenario == QLatin1String(info.name))
            return info.count;
    }
    return 0;
}

std::shared_ptr<const ScenarioPool> ScenarioPool::get(const QString &name)
{
    if (scenarioDefaultCount(name) == 0)
        return nullptr;
    static QMutex mutex;
    static QHash<QString, std::shared_ptr<const ScenarioPool>> cache;
    QMutexLocker lock(&mutex);
    auto &slot = cache[name];
    if (!slot)
        slot.reset(new ScenarioPool(name));
    return slot;
}

ScenarioPool::ScenarioPool(const QString &name)
    : m_name(name)
{
    // A fixed seed per scenario (FNV-1a of the name), so every run serves the same pool.
    std::uint64_t seed = kSeed;
    for (const QChar c : name)
        seed = (seed ^ c.unicode()) * 1099511628211ull;
    std::mt19937_64 rng(seed);
    Builder b(rng);
    qsizetype bytes = 0;
    std::discrete_distribution<int> mix({60, 20, 18, 2});
    for (quint64 i = 0; i < kPoolSize && bytes < kPoolBytesCap; ++i) {
        PoolMessage message;
        if (name == QLatin1String("small_aggtrade")) {
            message = aggTrade(b, i);
        } else if (name == QLatin1String("medium_kline")) {
            message = kline(b, i);
        } else if (name == QLatin1String("large_depth20")) {
            message = depth20(b, i);
        } else if (name == QLatin1String("xlarge_depth_diff")) {
            message = depthDiff(b, i);
        } else if (name == QLatin1String("huge_ticker_arr")) {
            message = tickerArr(b, i);
        } else if (name == QLatin1String("multiplex_mix")) {
            switch (mix(rng)) {
            case 0: message = aggTrade(b, i); break;
            case 1: message = kline(b, i); break;
            case 2: message = depth20(b, i); break;
            default: message = depthDiff(b, i); break;
            }
        } else {
            m_betfair = true;
            message = mcm(b, i);
        }
        bytes += message.json.size();
        m_messages.push_back(std::move(message));
    }

    if (m_betfair) {
        b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","pt":)").timeMs(kBaseTimeMs, true);
        b.raw(R"(,"ct":"HEARTBEAT"})");
        m_heartbeat = b.take();
        b.raw(R"({"op":"mcm","id":2,"initialClk":"xAeGqeqzBsQHkdq8uQbEB9jygrkG","clk":")").clk();
        b.raw(R"(","conflateMs":0,"heartbeatMs":)").heartbeatMs().raw(R"(,"pt":)").timeMs(kBaseTimeMs, true);
        b.raw(R"(,"ct":"SUB_IMAGE","mc":[{"id":"1.2345","img":true,"rc":[{"id":47972,)");
        b.raw(R"("batb":[[0,2.5,120.0]]}]}]})");
        m_subImage = b.take();
        b.raw(R"({"op":"mcm","id":2,"initialClk":"xAeGqeqzBsQHkdq8uQbEB9jygrkG","clk":")").clk();
        b.raw(R"(","conflateMs":0,"heartbeatMs":)").heartbeatMs().raw(R"(,"pt":)").timeMs(kBaseTimeMs, true);
        b.raw(R"(,"ct":"RESUB_DELTA","mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":2.52}]}]})");
        m_resubDelta = b.take();
        b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","status":503,"pt":)").timeMs(kBaseTimeMs, true);
        b.raw(R"(,"mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":2.54}]}]})");
        m_status503 = b.take();
        b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","pt":)").timeMs(kBaseTimeMs, true);
        b.raw(R"(,"mc":[{"id":"1.2345","con":true,"rc":[{"id":47972,"ltp":2.56}]}]})");
        m_conflated = b.take();
        const char *parts[3] = {"SEG_START", "SEG", "SEG_END"};
        for (int k = 0; k < 3; ++k) {
            b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","segmentType":")").raw(parts[k]);
            b.raw(R"(","pt":)").timeMs(kBaseTimeMs, true);
            b.raw(R"(,"mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":2.58}]}]})");
            m_segments[k] = b.take();
        }
        b.raw(R"({"op":"mcm","id":2,"clk":"AEYAVAA7","pt":17000000,"mc":[{"id":"1.2345")");
    } else {
        b.raw(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1700000000000,"p":)");
    }
    m_badJson = b.take(); // cut short on purpose: never valid JSON
}

qsizetype ScenarioPool::medianSize() const
{
    std::vector<qsizetype> sizes;
    sizes.reserve(m_messages.size());
    for (const PoolMessage &m : m_messages)
        sizes.push_back(m.json.size());
    if (sizes.empty())
        return 0;
    std::nth_element(sizes.begin(), sizes.begin() + qsizetype(sizes.size() / 2), sizes.end());
    return sizes[sizes.size() / 2];
}

} // namespace streamscope::replay
