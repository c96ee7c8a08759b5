// Kraken's replay scenarios: kraken_book (book of BTC/USD, depth 10) and kraken_trades (trade of
// BTC/USD), over WebSocket v2's shapes, with Kraken's own messages at fixed places of the
// 500-message pool so that a run's counts are exact: every pool starts with a book snapshot
// (which carries no timestamp); a heartbeat at every kHeartbeatEvery-th message from
// kHeartbeatFirst on; a system status "maintenance" at kStatusAt. Event times are RFC 3339 text
// the server writes at send time. The book's bids lie below 45,000 and its asks above (it never
// crosses), and every book message carries the CRC32 checksum of the book it leaves at depth
// 10, as Kraken's does (docs/books.md). The server answers subscribe / unsubscribe (one answer a symbol), ping, and anything
// else with an error. Compiled into StreamScope::VenueScenarios (Qt Core only): includes nothing
// of the engine.

#include "ScenarioKit.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLocale>

#include <map>
#include <string>

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

// The pool's book as its messages build it (the pool is built in order, from message 0), for
// their checksums: price → (price text, quantity text), at Kraken's default depth.
constexpr std::size_t kDepth = 10;
struct PoolBook {
    std::map<double, std::pair<std::string, std::string>> bids;
    std::map<double, std::pair<std::string, std::string>> asks;
};
thread_local PoolBook t_book;

// CRC-32 (ISO-HDLC), bit by bit: the scenarios include nothing of the engine, and a pool is
// built once.
quint32 crc32(const std::string &s)
{
    quint32 c = 0xFFFFFFFFu;
    for (const char ch : s) {
        c ^= quint8(ch);
        for (int k = 0; k < 8; ++k)
            c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

// Kraken's checksum: the top 10 asks (lowest first) then bids (highest first), each price and
// quantity text with its '.' and leading zeros removed.
quint32 checksum(const PoolBook &book)
{
    std::string s;
    const auto add = [&s](const std::string &t) {
        bool leading = true;
        for (const char c : t) {
            if (c == '.' || (leading && c == '0'))
                continue;
            leading = false;
            s += c;
        }
    };
    std::size_t n = 0;
    for (auto it = book.asks.begin(); it != book.asks.end() && n < kDepth; ++it, ++n) {
        add(it->second.first);
        add(it->second.second);
    }
    n = 0;
    for (auto it = book.bids.rbegin(); it != book.bids.rend() && n < kDepth; ++it, ++n) {
        add(it->second.first);
        add(it->second.second);
    }
    return crc32(s);
}

void levels(ScenarioBuilder &b, int count, bool asks)
{
    auto &side = asks ? t_book.asks : t_book.bids;
    for (int k = 0; k < count; ++k) {
        b.raw(k == 0 ? R"({"price":)" : R"(,{"price":)");
        const std::string price((asks ? b.askPriceNumber() : b.bidPriceNumber()).lastWritten());
        b.raw(R"(,"qty":)");
        const std::string qty(b.qtyNumber().lastWritten());
        b.raw("}");
        side[std::stod(price)] = {price, qty};
    }
    // Cut to the depth: the worst levels go.
    while (side.size() > kDepth)
        side.erase(asks ? std::prev(side.end()) : side.begin());
}

PoolMessage book(ScenarioBuilder &b, quint64 i)
{
    if (const char *own = ownMessage(i))
        return b.raw(own).take();
    const bool snapshot = i == 0;
    const int count = snapshot ? 10 : 1;
    if (snapshot)
        t_book = PoolBook();
    b.raw(R"({"channel":"book","type":")").raw(snapshot ? "snapshot" : "update");
    b.raw(R"(","data":[{"symbol":"BTC/USD","bids":[)");
    levels(b, count, false);
    b.raw(R"(],"asks":[)");
    levels(b, snapshot ? count : 0, true);
    b.raw(R"(],"checksum":)").num(checksum(t_book));
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

namespace {

// The server time, in whole seconds and as RFC 1123 text:
// {"error":[],"result":{"unixtime":1688669448,"rfc1123":"Thu, 06 Jul 23 18:50:48 +0000"}}.
QByteArray serverTimeBody(quint64 ns)
{
    const qint64 seconds = qint64(ns / 1000000000);
    const QString text = QLocale::c().toString(QDateTime::fromSecsSinceEpoch(seconds).toUTC(),
                                               QStringLiteral("ddd, dd MMM yy HH:mm:ss +0000"));
    return R"({"error":[],"result":{"unixtime":)" + QByteArray::number(seconds) + R"(,"rfc1123":")" + text.toLatin1()
        + R"("}})";
}

} // namespace

std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {{"/0/public/Time", &serverTimeBody}};
}

} // namespace streamscope::kraken
