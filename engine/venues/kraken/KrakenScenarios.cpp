// Kraken's replay scenarios: kraken_book (book of BTC/USD, depth 10) and kraken_trades (trade of
// BTC/USD), over WebSocket v2's shapes, with Kraken's own messages at fixed places of the
// 500-message pool so that a run's counts are exact: every pool starts with a book snapshot
// (which carries no timestamp); a heartbeat at every kHeartbeatEvery-th message from
// kHeartbeatFirst on; a system status "maintenance" at kStatusAt. Event times are RFC 3339 text
// the server writes at send time. The books' checksums are fixed numbers, not the CRC32 of the
// levels. The server answers subscribe / unsubscribe (one answer a symbol), ping, and anything
// else with an error. Compiled into StreamScope::VenueScenarios (Qt Core only): includes nothing
// of the engine.

#include "ScenarioKit.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::kraken {

namespace {

using scenario::kBaseTimeMs;
using scenario::PoolMessage;
using scenario::ScenarioBuilder;

// Where Kraken's own messages are in a pool (tests/venues/tst_krakenvenue.cpp counts on them).
constexpr quint64 kHeartbeatFirst = 50;
constexpr quint64 kHeartbeatEvery = 100;
constexpr quint64 kStatusAt = 400;

// Kraken's own messages among the data; null when message i is data.
const char *ownMessage(quint64 i)
{
    if (i == kStatusAt)
        return R"({"channel":"status","type":"update","data":[{"api_version":"v2","connection_id":)"
               R"(12393906104898154338,"system":"maintenance","version":"2.0.4"}]})";
    if (i >= kHeartbeatFirst && (i - kHeartbeatFirst) % kHeartbeatEvery == 0)
        return R"({"channel":"heartbeat"})";
    return nullptr;
}

void levels(ScenarioBuilder &b, int count)
{
    for (int k = 0; k < count; ++k)
        b.raw(k == 0 ? R"({"price":)" : R"(,{"price":)").priceNumber().raw(R"(,"qty":)").qtyNumber().raw("}");
}

PoolMessage book(ScenarioBuilder &b, quint64 i)
{
    if (const char *own = ownMessage(i))
        return b.raw(own).take();
    const bool snapshot = i == 0;
    const int count = snapshot ? 10 : 1;
    b.raw(R"({"channel":"book","type":")").raw(snapshot ? "snapshot" : "update");
    b.raw(R"(","data":[{"symbol":"BTC/USD","bids":[)");
    levels(b, count);
    b.raw(R"(],"asks":[)");
    levels(b, snapshot ? count : 0);
    b.raw(R"(],"checksum":)").num(2439117997 - i);
    if (!snapshot)
        b.raw(R"(,"timestamp":")").timeText(kBaseTimeMs + i, true).raw("\"");
    b.raw("}]}");
    return b.take();
}

PoolMessage trades(ScenarioBuilder &b, quint64 i)
{
    if (const char *own = ownMessage(i))
        return b.raw(own).take();
    b.raw(R"({"channel":"trade","type":"update","data":[{"symbol":"BTC/USD","side":")").raw(i % 2 ? "sell" : "buy");
    b.raw(R"(","price":)").priceNumber().raw(R"(,"qty":)").qtyNumber();
    b.raw(R"(,"ord_type":"limit","trade_id":)").num(4665846 + i).raw(R"(,"timestamp":")");
    b.timeText(kBaseTimeMs + i, true).raw("\"}]}");
    return b.take();
}

QByteArray times()
{
    return QByteArrayLiteral(R"("time_in":"2023-11-14T22:13:20.000000Z","time_out":"2023-11-14T22:13:20.000051Z")");
}

// Kraken's answers: {"method":"pong",..} to ping; one answer a symbol of a subscribe /
// unsubscribe request; an error to anything else.
scenario::ControlAnswer control(const QByteArray &request)
{
    scenario::ControlAnswer out;
    const QJsonObject o = QJsonDocument::fromJson(request).object();
    const QString method = o.value(QStringLiteral("method")).toString();
    const QByteArray reqId = o.contains(QStringLiteral("req_id"))
        ? ",\"req_id\":" + QByteArray::number(o.value(QStringLiteral("req_id")).toInteger())
        : QByteArray();
    if (method == QLatin1String("ping")) {
        out.replies.push_back(R"({"method":"pong")" + reqId + "," + times() + "}");
        return out;
    }
    const QJsonObject params = o.value(QStringLiteral("params")).toObject();
    const QJsonArray symbols = params.value(QStringLiteral("symbol")).toArray();
    const bool subscribe = method == QLatin1String("subscribe");
    if ((subscribe || method == QLatin1String("unsubscribe")) && !symbols.isEmpty()) {
        for (const QJsonValue &symbol : symbols) {
            const QJsonObject result{{QStringLiteral("channel"), params.value(QStringLiteral("channel"))},
                                     {QStringLiteral("symbol"), symbol}};
            out.replies.push_back(R"({"method":)" + scenario::jsonString(method) + R"(,"result":)"
                                  + QJsonDocument(result).toJson(QJsonDocument::Compact) + R"(,"success":true,)"
                                  + times() + reqId + "}");
        }
        out.startsData = subscribe;
        return out;
    }
    out.replies.push_back(
        R"({"error":)"
        + scenario::jsonString(QStringLiteral("Invalid request: ") + QString::fromUtf8(request.left(200)))
        + R"(,"method":)" + scenario::jsonString(method) + R"(,"success":false,)" + times() + "}");
    return out;
}

void specials(ScenarioBuilder &b, scenario::ScenarioSpecials &out)
{
    out.control = &control;
    b.raw(R"({"channel":"book","type":"update","data":[{"symbol":"BTC/USD","bids":[{"price":)");
    out.badJson = b.take();
}

} // namespace

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {{"kraken_book", 100000, &book, &specials}, {"kraken_trades", 200000, &trades, &specials}};
}

} // namespace streamscope::kraken
