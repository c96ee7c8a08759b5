// Bybit's replay scenarios: bybit_books (order-book updates of orderbook.50.BTCUSDT) and
// bybit_trades (publicTrade.BTCUSDT), over the v5 public websocket's shapes, with Bybit's quirks
// at fixed places of the 500-message pool so that a run's counts are exact: every pool starts
// with a snapshot; message kResendAt is a snapshot re-sent with the previous "u" (as Bybit does
// when it has a problem of its own), kGapAt skips an update id, kRestartAt is the snapshot
// "u" = 1 of a restarted service, after which the ids count on from 1. The server answers op
// subscribe / unsubscribe (at most kMaxArgs topics a request, as spot allows) and op ping as
// Bybit documents for public spot. Compiled into StreamScope::VenueScenarios (Qt Core only):
// includes nothing of the engine.

#include "ScenarioKit.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::bybit {

namespace {

using scenario::kBaseTimeMs;
using scenario::PoolMessage;
using scenario::ScenarioBuilder;

// Where the quirks are in a pool (tests/venues/tst_bybitvenue.cpp counts on them).
constexpr quint64 kResendAt = 100;
constexpr quint64 kGapAt = 200;
constexpr quint64 kRestartAt = 300;
constexpr qsizetype kMaxArgs = 10;
constexpr quint64 kFirstU = 80000000;

// "u" of book message i: consecutive from kFirstU, one skipped at kGapAt, the resend repeats
// the previous, from 1 again after the restart.
quint64 updateIdOf(quint64 i)
{
    if (i >= kRestartAt)
        return 1 + (i - kRestartAt);
    if (i == kResendAt)
        return updateIdOf(i - 1);
    return kFirstU + i - (i > kResendAt ? 1 : 0) + (i >= kGapAt ? 1 : 0);
}

bool snapshotAt(quint64 i)
{
    return i == 0 || i == kResendAt || i == kRestartAt;
}

void levels(ScenarioBuilder &b, int count, bool asks)
{
    for (int k = 0; k < count; ++k) {
        b.raw(k == 0 ? "[" : ",[");
        (asks ? b.askPrice() : b.bidPrice()).raw(",").qty().raw("]");
    }
}

PoolMessage books(ScenarioBuilder &b, quint64 i)
{
    const bool snapshot = snapshotAt(i);
    const int count = snapshot ? 50 : 2;
    b.raw(R"({"topic":"orderbook.50.BTCUSDT","type":")").raw(snapshot ? "snapshot" : "delta");
    b.raw(R"(","ts":)").timeMs(kBaseTimeMs + i, true).raw(R"(,"data":{"s":"BTCUSDT","b":[)");
    levels(b, count, false);
    b.raw(R"(],"a":[)");
    levels(b, count, true);
    b.raw(R"(],"u":)").num(updateIdOf(i)).raw(R"(,"seq":)").num(71000000000 + 7 * i);
    b.raw(R"(},"cts":)").num(kBaseTimeMs + i).raw("}");
    return b.take();
}

PoolMessage trades(ScenarioBuilder &b, quint64 i)
{
    b.raw(R"({"topic":"publicTrade.BTCUSDT","type":"snapshot","ts":)").timeMs(kBaseTimeMs + i, true);
    b.raw(R"(,"data":[{"T":)").num(kBaseTimeMs + i).raw(R"(,"s":"BTCUSDT","S":")").raw(i % 2 ? "Sell" : "Buy");
    b.raw(R"(","v":)").qty().raw(R"(,"p":)").price().raw(R"(,"L":"PlusTick","i":")").num(2290000000 + i);
    b.raw(R"(","BT":false}]})");
    return b.take();
}

QByteArray answer(bool success, const QByteArray &retMsg, const QString &reqId, const QString &op)
{
    return QByteArray(R"({"success":)") + (success ? "true" : "false") + R"(,"ret_msg":)"
        + scenario::jsonString(QString::fromUtf8(retMsg)) + R"(,"conn_id":"d2c9a8f0-replay","req_id":)"
        + scenario::jsonString(reqId) + R"(,"op":)" + scenario::jsonString(op) + "}";
}

// Bybit's answers: the keep-alive's pong, one answer a subscribe / unsubscribe request (a
// failure beyond kMaxArgs topics), a failure to anything else.
scenario::ControlAnswer control(const QByteArray &request)
{
    scenario::ControlAnswer out;
    const QJsonObject o = QJsonDocument::fromJson(request).object();
    const QString op = o.value(QStringLiteral("op")).toString();
    const QString reqId = o.value(QStringLiteral("req_id")).toString();
    if (op == QLatin1String("ping")) {
        out.replies.push_back(answer(true, "pong", reqId, op));
        return out;
    }
    const QJsonArray args = o.value(QStringLiteral("args")).toArray();
    const bool subscribe = op == QLatin1String("subscribe");
    if ((subscribe || op == QLatin1String("unsubscribe")) && !args.isEmpty()) {
        if (args.size() > kMaxArgs) {
            out.replies.push_back(answer(false, "error:args size >10", reqId, op));
            return out;
        }
        out.replies.push_back(answer(true, op.toUtf8(), reqId, op));
        out.startsData = subscribe;
        return out;
    }
    out.replies.push_back(answer(false, "error:handler not found, request: " + request.left(200), reqId, op));
    return out;
}

void specials(ScenarioBuilder &b, scenario::ScenarioSpecials &out)
{
    out.control = &control;
    b.raw(R"({"topic":"orderbook.50.BTCUSDT","type":"delta","ts":1700000000000,"data":{"b":[)");
    out.badJson = b.take();
}

} // namespace

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {{"bybit_books", 100000, &books, &specials}, {"bybit_trades", 200000, &trades, &specials}};
}

namespace {

// The server time, in seconds and nanoseconds (strings) and in ms (a number):
// {"retCode":0,"retMsg":"OK","result":{"timeSecond":"1688639403","timeNano":"1688639403423213947"},
//  "retExtInfo":{},"time":1688639403423}.
QByteArray serverTimeBody(quint64 ns)
{
    return R"({"retCode":0,"retMsg":"OK","result":{"timeSecond":")" + QByteArray::number(ns / 1000000000)
        + R"(","timeNano":")" + QByteArray::number(ns) + R"("},"retExtInfo":{},"time":)"
        + QByteArray::number(ns / 1000000) + '}';
}

} // namespace

std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {{"/v5/market/time", &serverTimeBody}};
}

} // namespace streamscope::bybit
