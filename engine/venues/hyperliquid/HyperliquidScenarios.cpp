// Hyperliquid's replay scenarios: hyperliquid_books (l2Book of BTC, the whole book of 20 levels
// a side in every message) and hyperliquid_trades (trades of BTC, a push of one to three
// trades), over the public websocket's shapes. Nothing in them is sequenced, so there is no gap
// or reset to place; every 100th trades push carries three trades. The server answers
// subscribe / unsubscribe (a subscriptionResponse echoing the request) and {"method":"ping"}
// ({"channel":"pong"}) as Hyperliquid documents, anything else with an error. Compiled into
// StreamScope::VenueScenarios (Qt Core only): includes nothing of the engine.

#include "ScenarioKit.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::hyperliquid {

namespace {

using scenario::kBaseTimeMs;
using scenario::PoolMessage;
using scenario::ScenarioBuilder;

constexpr int kLevels = 20;
constexpr quint64 kBatchEvery = 100; // a push of three trades

void side(ScenarioBuilder &b, quint64 i)
{
    b.raw("[");
    for (int k = 0; k < kLevels; ++k)
        b.raw(k == 0 ? R"({"px":)" : R"(,{"px":)")
            .price()
            .raw(R"(,"sz":)")
            .qty()
            .raw(R"(,"n":)")
            .num(1 + (i + quint64(k)) % 7)
            .raw("}");
    b.raw("]");
}

PoolMessage books(ScenarioBuilder &b, quint64 i)
{
    b.raw(R"({"channel":"l2Book","data":{"coin":"BTC","time":)").timeMs(kBaseTimeMs + i, true).raw(R"(,"levels":[)");
    side(b, i);
    b.raw(",");
    side(b, i + 1);
    b.raw("]}}");
    return b.take();
}

void trade(ScenarioBuilder &b, quint64 i, int k, bool patched)
{
    b.raw(k == 0 ? R"({"coin":"BTC","side":")" : R"(,{"coin":"BTC","side":")").raw((i + quint64(k)) % 2 ? "A" : "B");
    b.raw(R"(","px":)").price().raw(R"(,"sz":)").qty().raw(R"(,"hash":"0x)").num(7000000000000 + 10 * i + quint64(k));
    b.raw(R"(","time":)")
        .timeMs(kBaseTimeMs + i, patched)
        .raw(R"(,"tid":)")
        .num(900000000000000 + 977 * i + quint64(k));
    b.raw(R"(,"users":["0x0000000000000000000000000000000000000001","0x0000000000000000000000000000000000000002"]})");
}

PoolMessage trades(ScenarioBuilder &b, quint64 i)
{
    const int count = i % kBatchEvery == kBatchEvery - 1 ? 3 : 1;
    b.raw(R"({"channel":"trades","data":[)");
    for (int k = 0; k < count; ++k)
        trade(b, i, k, k == 0); // the first trade's time is the push's
    b.raw("]}");
    return b.take();
}

// Hyperliquid's answers: {"channel":"pong"} to {"method":"ping"}; a subscriptionResponse that
// echoes a subscribe / unsubscribe request; an error (its text in "data") to anything else.
scenario::ControlAnswer control(const QByteArray &request)
{
    scenario::ControlAnswer out;
    const QJsonObject o = QJsonDocument::fromJson(request).object();
    const QString method = o.value(QStringLiteral("method")).toString();
    if (method == QLatin1String("ping")) {
        out.replies.push_back(QByteArrayLiteral(R"({"channel":"pong"})"));
        return out;
    }
    const bool subscribe = method == QLatin1String("subscribe");
    if ((subscribe || method == QLatin1String("unsubscribe")) && o.value(QStringLiteral("subscription")).isObject()) {
        out.replies.push_back(R"({"channel":"subscriptionResponse","data":)"
                              + QJsonDocument(o).toJson(QJsonDocument::Compact) + "}");
        out.startsData = subscribe;
        return out;
    }
    out.replies.push_back(R"({"channel":"error","data":)"
                          + scenario::jsonString(QStringLiteral("Error parsing JSON into valid websocket request: ")
                                                 + QString::fromUtf8(request.left(200)))
                          + "}");
    return out;
}

void specials(ScenarioBuilder &b, scenario::ScenarioSpecials &out)
{
    out.control = &control;
    b.raw(R"({"channel":"l2Book","data":{"coin":"BTC","time":1700000000000,"levels":[[{"px":)");
    out.badJson = b.take();
}

} // namespace

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {{"hyperliquid_books", 100000, &books, &specials}, {"hyperliquid_trades", 200000, &trades, &specials}};
}

// No documented server-time endpoint.
std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {};
}

} // namespace streamscope::hyperliquid
