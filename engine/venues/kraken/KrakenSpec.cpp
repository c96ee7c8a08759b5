#include "KrakenSpec.h"

#include "KrakenFields.h"

namespace streamscope::kraken {

// Kraken's WebSocket v2 (public). Data: {"channel":"book" | "trade" | "ticker",..,"type":
// "snapshot" | "update","data":[{"symbol":"BTC/USD",..,"timestamp":"2023-10-06T17:35:55.440295Z"}]}:
// the channel is the event type, "type" its kind (KrakenFields.h), the first element of "data" stands for the push, its "symbol"
// is the symbol and its "timestamp" (RFC 3339 text, µs) the event time. {"channel":"heartbeat"}
// (about once a second when nothing else is sent) is a heartbeat, {"channel":"status",..} the
// system status (the first message on a connection, and on a change). Answers to requests start
// with "method" (or "error"), their keys in no fixed order: "success":true a result, false an
// error, "method":"pong" the keep-alive's answer.
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "channel", .role = FieldRole::EventType, .scopes = kRootScope},
            {.key = "type", .role = FieldRole::Text, .scopes = kRootScope, .slot = kType},
            {.key = "data", .role = FieldRole::Event, .scopes = kRootScope},
            {.key = "symbol", .role = FieldRole::Symbol, .scopes = kEventScope},
            {.key = "timestamp", .role = FieldRole::EventTimeText, .scopes = kEventScope},
        };
        s.timeUnit = LatencyUnit::Microseconds;
        // trade: data[] of {"symbol":..,"price":<number>,..}, oldest first.
        s.trades = {.eventTypes = {"trade"}, .event = "data", .price = "price", .symbol = "symbol"};
        s.head.kindKey = "channel";
        s.head.kinds = {
            HeadSpec::KindValue{.value = "heartbeat", .kind = MessageKind::Heartbeat},
            HeadSpec::KindValue{.value = "status", .kind = MessageKind::Connection},
        };
        s.head.keyedKinds = {
            HeadSpec::KeyedKind{.key = "method", .value = "pong", .kind = MessageKind::Pong},
            HeadSpec::KeyedKind{.key = "success", .value = "false", .kind = MessageKind::Error},
            HeadSpec::KeyedKind{.key = "success", .value = "true", .kind = MessageKind::Result},
        };
        s.head.rpcResponses = false;
        return s;
    }();
    return spec;
}

} // namespace streamscope::kraken
