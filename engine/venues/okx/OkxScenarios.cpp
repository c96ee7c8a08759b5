// OKX's replay scenarios: okx_books (order-book updates of BTC-USDT) and okx_trades, over the
// v5 public websocket's shapes, with OKX's quirks at fixed places of the 500-message pool so
// that a run's counts are exact: every pool starts with a book snapshot (prevSeqId -1); message
// kKeepAliveAt is an update with no change (seqId == prevSeqId), kGapAt skips an update,
// kResetAt resets the sequence (seqId below prevSeqId, maintenance), kNoticeAt is a notice of a
// coming service upgrade (the trades pool has it too). The server answers op subscribe /
// unsubscribe as OKX does and the text "ping" with "pong". Compiled into
// StreamScope::VenueScenarios (Qt Core only): includes nothing of the engine.

#include "ScenarioKit.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::okx {

namespace {

using scenario::kBaseTimeMs;
using scenario::PoolMessage;
using scenario::ScenarioBuilder;

// Where the quirks are in a pool (tests/venues/tst_okxvenue.cpp counts on them).
constexpr quint64 kKeepAliveAt = 100;
constexpr quint64 kGapAt = 200;
constexpr quint64 kResetAt = 300;
constexpr quint64 kNoticeAt = 400;

// seqId of book message i (seqIds step by 3: they are not consecutive); after the reset they
// start again low.
qint64 seqOf(quint64 i)
{
    if (i == kKeepAliveAt)
        return seqOf(i - 1);
    return i < kResetAt ? qint64(1000 + 3 * i) : qint64(7 + 3 * (i - kResetAt));
}

qint64 prevOf(quint64 i)
{
    if (i == 0)
        return -1; // a snapshot
    if (i == kGapAt)
        return seqOf(i - 1) + 1; // the update with that seqId was never sent
    if (i == kNoticeAt + 1)
        return seqOf(i - 2); // the notice is no book message
    return seqOf(i - 1);
}

PoolMessage notice(ScenarioBuilder &b)
{
    b.raw(R"({"event":"notice","code":"64008","msg":"The connection will soon be closed for a service upgrade. )");
    b.raw(R"(Please reconnect.","connId":"a4d3ae55"})");
    return b.take();
}

void level(ScenarioBuilder &b, bool first, bool ask)
{
    b.raw(first ? "[" : ",[");
    (ask ? b.askPrice() : b.bidPrice()).raw(",").qty().raw(R"(,"0","1"])");
}

PoolMessage books(ScenarioBuilder &b, quint64 i)
{
    if (i == kNoticeAt)
        return notice(b);
    const bool snapshot = i == 0;
    const int levels = snapshot ? 50 : i == kKeepAliveAt ? 0 : 2;
    b.raw(R"({"arg":{"channel":"books","instId":"BTC-USDT"},"action":")").raw(snapshot ? "snapshot" : "update");
    b.raw(R"(","data":[{"asks":[)");
    for (int k = 0; k < levels; ++k)
        level(b, k == 0, true);
    b.raw(R"(],"bids":[)");
    for (int k = 0; k < levels; ++k)
        level(b, k == 0, false);
    b.raw(R"(],"ts":")").timeMs(kBaseTimeMs + i, true).raw(R"(","checksum":-855196043,"prevSeqId":)");
    b.raw(QByteArray::number(prevOf(i)).constData()).raw(R"(,"seqId":)").raw(QByteArray::number(seqOf(i)).constData());
    b.raw("}]}");
    return b.take();
}

PoolMessage trades(ScenarioBuilder &b, quint64 i)
{
    if (i == kNoticeAt)
        return notice(b);
    b.raw(R"({"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","tradeId":")");
    b.num(130639474 + i).raw(R"(","px":)").price().raw(R"(,"sz":)").qty();
    b.raw(i % 2 == 1 ? R"(,"side":"sell","ts":")" : R"(,"side":"buy","ts":")");
    b.timeMs(kBaseTimeMs + i, true).raw(R"(","count":"1"}]})");
    return b.take();
}

// OKX writes "event" first (QJsonDocument would sort the keys): the head scan reads it there.
QByteArray event(const char *name, const QByteArray &rest)
{
    return QByteArray(R"({"event":")") + name + "\"," + rest + R"(,"connId":"a4d3ae55"})";
}

// OKX's answers: "pong" to "ping"; one event per argument of op subscribe / unsubscribe; an
// error (code 60012) to anything else, quoting the request.
scenario::ControlAnswer control(const QByteArray &request)
{
    scenario::ControlAnswer answer;
    if (request == "ping") {
        answer.replies.push_back(QByteArrayLiteral("pong"));
        return answer;
    }
    const QJsonObject o = QJsonDocument::fromJson(request).object();
    const QString op = o.value(QStringLiteral("op")).toString();
    const QJsonArray args = o.value(QStringLiteral("args")).toArray();
    const bool subscribe = op == QLatin1String("subscribe");
    if ((subscribe || op == QLatin1String("unsubscribe")) && !args.isEmpty()) {
        for (const QJsonValue &arg : args)
            answer.replies.push_back(event(subscribe ? "subscribe" : "unsubscribe",
                                           R"("arg":)" + QJsonDocument(arg.toObject()).toJson(QJsonDocument::Compact)));
        answer.startsData = subscribe;
        return answer;
    }
    answer.replies.push_back(
        event("error",
              R"("code":"60012","msg":)"
                  + scenario::jsonString(QStringLiteral("Invalid request: ") + QString::fromUtf8(request))));
    return answer;
}

void specials(ScenarioBuilder &b, scenario::ScenarioSpecials &out)
{
    out.control = &control;
    b.raw(R"({"arg":{"channel":"books","instId":"BTC-USDT"},"action":"update","data":[{"asks":[)");
    out.badJson = b.take();
}

} // namespace

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {{"okx_books", 100000, &books, &specials}, {"okx_trades", 200000, &trades, &specials}};
}

namespace {

// The server time, {"code":"0","msg":"","data":[{"ts":"1597026383085"}]} (ms, a string).
QByteArray serverTimeBody(quint64 ns)
{
    return R"({"code":"0","msg":"","data":[{"ts":")" + QByteArray::number(ns / 1000000) + R"("}]})";
}

} // namespace

std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {{"/api/v5/public/time", &serverTimeBody}};
}

} // namespace streamscope::okx
