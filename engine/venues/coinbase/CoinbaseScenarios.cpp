// Coinbase's replay scenarios: coinbase_level2 (the level2 channel of BTC-USD, messages on
// "l2_data") and coinbase_trades (market_trades of BTC-USD), over Advanced Trade's shapes, with
// Coinbase's quirks at fixed places of the 500-message pool so that a run's counts are exact:
// the level2 pool starts with a snapshot; a heartbeats message at every kHeartbeatEvery-th
// message from kHeartbeatFirst on (in the connection's sequence like any other); message kGapAt
// skips a sequence_num. sequence_num is message index + 1 (+ 1 more after the gap); event times
// are RFC 3339 text the server writes at send time. The server answers subscribe / unsubscribe
// with a subscriptions message (without a sequence_num: the replay cannot count a connection's
// answers) and anything else with an error. Compiled into StreamScope::VenueScenarios (Qt Core
// only): includes nothing of the engine.

#include "ScenarioKit.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::coinbase {

namespace {

using scenario::kBaseTimeMs;
using scenario::PoolMessage;
using scenario::ScenarioBuilder;

// Where the quirks are in a pool (tests/venues/tst_coinbasevenue.cpp counts on them).
constexpr quint64 kHeartbeatFirst = 50;
constexpr quint64 kHeartbeatEvery = 100;
constexpr quint64 kGapAt = 200;

quint64 sequenceOf(quint64 i)
{
    return i + 1 + (i >= kGapAt ? 1 : 0);
}

bool heartbeatAt(quint64 i)
{
    return i >= kHeartbeatFirst && (i - kHeartbeatFirst) % kHeartbeatEvery == 0;
}

// {"channel":..,"client_id":"","timestamp":"..","sequence_num":N,"events":[
void head(ScenarioBuilder &b, const char *channel, quint64 i)
{
    b.raw(R"({"channel":")").raw(channel).raw(R"(","client_id":"","timestamp":")").timeText(kBaseTimeMs + i, true);
    b.raw(R"(","sequence_num":)").num(sequenceOf(i)).raw(R"(,"events":[)");
}

PoolMessage heartbeat(ScenarioBuilder &b, quint64 i)
{
    head(b, "heartbeats", i);
    b.raw(R"({"current_time":"2023-11-14 22:13:20.000000000 +0000 UTC m=+91717.525857105","heartbeat_counter":")");
    b.num(3000 + i / kHeartbeatEvery).raw(R"("}]})");
    return b.take();
}

PoolMessage level2(ScenarioBuilder &b, quint64 i)
{
    if (heartbeatAt(i))
        return heartbeat(b, i);
    const bool snapshot = i == 0;
    head(b, "l2_data", i);
    b.raw(R"({"type":")").raw(snapshot ? "snapshot" : "update").raw(R"(","product_id":"BTC-USD","updates":[)");
    const int count = snapshot ? 20 : 2;
    for (int k = 0; k < count; ++k) {
        b.raw(k == 0 ? R"({"side":")" : R"(,{"side":")").raw(k % 2 ? "offer" : "bid");
        b.raw(R"(","event_time":"2023-11-14T22:13:20.000000Z","price_level":)");
        k % 2 ? b.askPrice() : b.bidPrice();
        b.raw(R"(,"new_quantity":)").qty().raw("}");
    }
    b.raw("]}]}");
    return b.take();
}

PoolMessage trades(ScenarioBuilder &b, quint64 i)
{
    if (heartbeatAt(i))
        return heartbeat(b, i);
    head(b, "market_trades", i);
    b.raw(R"({"type":"update","trades":[{"trade_id":")").num(6000000 + i);
    b.raw(R"(","product_id":"BTC-USD","price":)").price().raw(R"(,"size":)").qty();
    b.raw(i % 2 ? R"(,"side":"SELL","time":"2023-11-14T22:13:20.000000Z"}]}]})"
                : R"(,"side":"BUY","time":"2023-11-14T22:13:20.000000Z"}]}]})");
    return b.take();
}

// Coinbase's answers: a subscriptions message to subscribe / unsubscribe (the data begins
// with a subscription to any channel but heartbeats), an error to anything else.
scenario::ControlAnswer control(const QByteArray &request)
{
    scenario::ControlAnswer out;
    const QJsonObject o = QJsonDocument::fromJson(request).object();
    const QString type = o.value(QStringLiteral("type")).toString();
    const QString channel = o.value(QStringLiteral("channel")).toString();
    const bool subscribe = type == QLatin1String("subscribe");
    if ((subscribe || type == QLatin1String("unsubscribe")) && !channel.isEmpty()) {
        const QJsonObject subscriptions{
            {channel, subscribe ? o.value(QStringLiteral("product_ids")).toArray() : QJsonArray()}};
        out.replies.push_back(
            R"({"channel":"subscriptions","client_id":"","timestamp":"2023-11-14T22:13:20.000000Z","events":[{"subscriptions":)"
            + QJsonDocument(subscriptions).toJson(QJsonDocument::Compact) + "}]}");
        out.startsData = subscribe && channel != QLatin1String("heartbeats");
        return out;
    }
    out.replies.push_back(
        R"({"type":"error","message":)"
        + scenario::jsonString(QStringLiteral("failure to subscribe: ") + QString::fromUtf8(request.left(200))) + "}");
    return out;
}

void specials(ScenarioBuilder &b, scenario::ScenarioSpecials &out)
{
    out.control = &control;
    b.raw(R"({"channel":"l2_data","client_id":"","timestamp":"2023-11-14T22:13:20.000000Z","sequence_num":1,"ev)");
    out.badJson = b.take();
}

} // namespace

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {{"coinbase_level2", 100000, &level2, &specials}, {"coinbase_trades", 200000, &trades, &specials}};
}

namespace {

// The server time (Advanced Trade), as ISO 8601 text, in seconds and in ms (strings):
// {"iso":"2023-05-09T17:25:32.160Z","epochSeconds":"1683653132","epochMillis":"1683653132160"}.
QByteArray serverTimeBody(quint64 ns)
{
    const qint64 ms = qint64(ns / 1000000);
    const QString iso = QDateTime::fromMSecsSinceEpoch(ms).toUTC().toString(Qt::ISODateWithMs);
    return R"({"iso":")" + iso.toLatin1() + R"(","epochSeconds":")" + QByteArray::number(ms / 1000)
        + R"(","epochMillis":")" + QByteArray::number(ms) + R"("})";
}

} // namespace

std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {{"/api/v3/brokerage/time", &serverTimeBody}};
}

} // namespace streamscope::coinbase
