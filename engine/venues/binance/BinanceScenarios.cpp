// Binance's replay scenarios (the benchmark's workloads, docs/benchmarks.md): combined-stream
// messages of aggTrade, kline, partial depth, depth diffs and the !ticker@arr batch, alone or
// mixed; and the demo's depth diffs of one coherent book, whose REST snapshot the server serves,
// also for many instruments at once (depth_books).
// Compiled into StreamScope::VenueScenarios (Qt Core only): includes nothing of the
// engine.

#include "ScenarioKit.h"

#include <cstdio>

namespace streamscope::binance {

namespace {

using scenario::kBaseTimeMs;
using scenario::PoolMessage;
using scenario::ScenarioBuilder;

PoolMessage aggTrade(ScenarioBuilder &b, quint64 i)
{
    const quint64 ts = kBaseTimeMs + i;
    b.raw(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":)").timeMs(ts, true);
    b.raw(R"(,"s":"BTCUSDT","a":)").tradeId(scenario::kFirstTradeId + i).raw(R"(,"p":)").price();
    b.raw(R"(,"q":)").qty().raw(R"(,"f":)").num(2000000 + i).raw(R"(,"l":)").num(2000000 + i);
    b.raw(R"(,"T":)").timeMs(ts, false).raw(R"(,"m":)").raw(i % 2 == 1 ? "true" : "false");
    b.raw(R"(,"M":true}})");
    return b.take();
}

PoolMessage kline(ScenarioBuilder &b, quint64 i)
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

void levels(ScenarioBuilder &b, int n)
{
    for (int k = 0; k < n; ++k)
        b.raw(k == 0 ? "[" : ",[").price().raw(",").qty().raw("]");
}

PoolMessage depth20(ScenarioBuilder &b, quint64 i)
{
    b.raw(R"({"stream":"btcusdt@depth20@100ms","data":{"lastUpdateId":)").num(5000000000ull + i);
    b.raw(R"(,"bids":[)");
    levels(b, 20);
    b.raw(R"(],"asks":[)");
    levels(b, 20);
    b.raw("]}}");
    return b.take();
}

PoolMessage depthDiff(ScenarioBuilder &b, quint64 i)
{
    const quint64 first = scenario::kFirstSeq + i * (scenario::kSeqSpan + 1);
    b.raw(R"({"stream":"btcusdt@depth","data":{"e":"depthUpdate","E":)").timeMs(kBaseTimeMs + i, true);
    b.raw(R"(,"s":"BTCUSDT","U":)").seq(first, true);
    b.raw(R"(,"u":)").seq(first + scenario::kSeqSpan, false).raw(R"(,"b":[)");
    levels(b, 200);
    b.raw(R"(],"a":[)");
    levels(b, 200);
    b.raw("]}}");
    return b.take();
}

// One coherent book of BTCUSDT, for the demo's depth stream and its REST snapshot: 40 price
// levels a side on a 0.10 grid around 97,123.45 (bids from 97,123.40 down, asks from 97,123.50
// up), so the book never crosses; each diff sets one to five levels of the top 40 a side, one
// in eight removed (quantity 0). The pool's messages, applied in order and round again, are the
// venue's book (replay/DepthSnapshot).
// `numbered`: the instrument is S0000USDT, its number written by the server (depth_books).
PoolMessage bookDiffOf(ScenarioBuilder &b, quint64 i, bool numbered)
{
    constexpr qint64 kBestBidCents = 9'712'340;
    constexpr qint64 kTickCents = 10;
    constexpr int kDepth = 40;
    const quint64 first = scenario::kFirstSeq + i * (scenario::kSeqSpan + 1);
    if (numbered)
        b.raw(R"({"stream":")").instrumentSymbol(0, true).raw(R"(@depth@100ms","data":{"e":"depthUpdate","E":)");
    else
        b.raw(R"({"stream":"btcusdt@depth@100ms","data":{"e":"depthUpdate","E":)");
    b.timeMs(kBaseTimeMs + i, true);
    if (numbered)
        b.raw(R"(,"s":")").instrumentSymbol(1, false).raw(R"(","U":)").seq(first, true);
    else
        b.raw(R"(,"s":"BTCUSDT","U":)").seq(first, true);
    b.raw(R"(,"u":)").seq(first + scenario::kSeqSpan, false);
    std::uniform_int_distribution<int> count(1, 5);
    // Nearer the top, more often: the square of a uniform draw.
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::exponential_distribution<double> size(1.5);
    for (int side = 0; side < 2; ++side) {
        b.raw(side == 0 ? R"(,"b":[)" : R"(],"a":[)");
        const int n = count(b.rng());
        for (int k = 0; k < n; ++k) {
            const double u = unit(b.rng());
            const qint64 rank = qint64(u * u * kDepth);
            const qint64 cents =
                side == 0 ? kBestBidCents - rank * kTickCents : kBestBidCents + (rank + 1) * kTickCents;
            const bool removed = unit(b.rng()) < 0.125;
            char level[96];
            std::snprintf(level, sizeof level, R"(%s["%lld.%02lld000000","%.8f"])", k == 0 ? "" : ",",
                          static_cast<long long>(cents / 100), static_cast<long long>(cents % 100),
                          removed ? 0.0 : 0.002 + size(b.rng()));
            b.raw(level);
        }
    }
    b.raw("]}}");
    return b.take();
}

PoolMessage bookDiff(ScenarioBuilder &b, quint64 i)
{
    return bookDiffOf(b, i, false);
}

// Such a book for many instruments at once (S0000USDT, S0001USDT, ...): the server sends the
// instruments in turn, and each one walks the pool in order, so each keeps the pool's book.
PoolMessage numberedBookDiff(ScenarioBuilder &b, quint64 i)
{
    return bookDiffOf(b, i, true);
}

PoolMessage tickerArr(ScenarioBuilder &b, quint64 i)
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

// 60 % aggTrade, 20 % kline, 18 % partial depth, 2 % depth diffs, drawn from the pool's generator.
PoolMessage mix(ScenarioBuilder &b, quint64 i)
{
    std::discrete_distribution<int> pick({60, 20, 18, 2});
    switch (pick(b.rng())) {
    case 0: return aggTrade(b, i);
    case 1: return kline(b, i);
    case 2: return depth20(b, i);
    default: return depthDiff(b, i);
    }
}

void specials(ScenarioBuilder &b, scenario::ScenarioSpecials &out)
{
    b.raw(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1700000000000,"p":)");
    out.badJson = b.take();
}

} // namespace

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {
        {"small_aggtrade", 300000, &aggTrade, &specials},
        {"medium_kline", 150000, &kline, &specials},
        {"large_depth20", 60000, &depth20, &specials},
        {"xlarge_depth_diff", 30000, &depthDiff, &specials},
        {"huge_ticker_arr", 600, &tickerArr, &specials},
        {"multiplex_mix", 120000, &mix, &specials},
        {"book_depth_diff", 30000, &bookDiff, &specials, "BTCUSDT"},
        {"depth_books", 30000, &numberedBookDiff, &specials, "S0000USDT"},
    };
}

namespace {

// The server time, {"serverTime":1700000000000} (ms), spot's and USD-M futures' alike.
QByteArray serverTimeBody(quint64 ns)
{
    return R"({"serverTime":)" + QByteArray::number(ns / 1000000) + '}';
}

} // namespace

std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {{"/api/v3/time", &serverTimeBody}, {"/fapi/v1/time", &serverTimeBody}};
}

} // namespace streamscope::binance
