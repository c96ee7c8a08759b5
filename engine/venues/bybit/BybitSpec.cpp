#include "BybitSpec.h"

#include "BybitFields.h"

namespace streamscope::bybit {

// The Bybit v5 public websocket (spot, linear). Data: {"topic":"orderbook.50.BTCUSDT",
// "type":"snapshot" | "delta","ts":<ms>,"data":{"s":..,"b":[..],"a":[..],"u":..,"seq":..},
// "cts":..}: the topic is the event type, "ts" (ms, a number: when Bybit's system made the
// data) the event time, data.s the symbol (data.symbol for tickers), data.u the order book's
// update id. A trades push ("publicTrade.<symbol>") carries an array of trades, of which the
// first stands for the push. The order book's "u" follows its levels, so a books message is
// read to its end (no prefix decode). Answers have their keys in no fixed order:
// {"success":true,"ret_msg":"subscribe","conn_id":..,"req_id":..,"op":"subscribe"}, a failure
// with "success":false, and the keep-alive's answer either {"success":true,"ret_msg":"pong",..,
// "op":"ping"} (public spot, as documented) or {"req_id":..,"op":"pong","args":[..],..} (as
// documented for private streams; linear's may be either).
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "topic", .role = FieldRole::EventType, .scopes = kRootScope},
            {.key = "type", .role = FieldRole::Text, .scopes = kRootScope, .slot = kType},
            {.key = "ts", .role = FieldRole::EventTime, .scopes = kRootScope},
            {.key = "data", .role = FieldRole::Event, .scopes = kRootScope},
            {.key = "s", .role = FieldRole::Symbol, .scopes = kEventScope},
            {.key = "symbol", .role = FieldRole::Symbol, .scopes = kEventScope},
            {.key = "u", .role = FieldRole::FinalUpdateId, .scopes = kEventScope},
        };
        s.timeUnit = LatencyUnit::Milliseconds;
        // data.u follows a book's levels: a prefix would never hold it.
        s.prefixDecode = false;
        // publicTrade.<symbol>: data[] of {"s":..,"p":..,..}, oldest first.
        s.trades = {.eventTypes = {"publicTrade."}, .event = "data", .price = "p", .symbol = "s"};
        s.head.dataKeys = {"topic"};
        s.head.keyedKinds = {
            HeadSpec::KeyedKind{.key = "ret_msg", .value = "pong", .kind = MessageKind::Pong},
            HeadSpec::KeyedKind{.key = "op", .value = "pong", .kind = MessageKind::Pong},
            HeadSpec::KeyedKind{.key = "success", .value = "false", .kind = MessageKind::Error},
            HeadSpec::KeyedKind{.key = "success", .value = "true", .kind = MessageKind::Result},
        };
        s.head.rpcResponses = false;
        return s;
    }();
    return spec;
}

} // namespace streamscope::bybit
