#include "CoinbaseSpec.h"

#include "CoinbaseFields.h"

namespace streamscope::coinbase {

// Coinbase Advanced Trade's market data websocket. Every feed message is {"channel":..,
// "client_id":"","timestamp":"2023-02-09T20:32:50.714964855Z","sequence_num":N,"events":[..]}:
// the channel ("l2_data", "market_trades", "ticker", "heartbeats", "subscriptions") is the event
// type, "timestamp" (RFC 3339 text, read to the µs) the event time, "sequence_num" the
// connection's sequence number (finalUpdateId), the first event's "product_id" the symbol and
// its "type" ("snapshot", "update") the kind (CoinbaseFields.h). A
// heartbeats message is decoded like data (its sequence_num counts in the connection's
// sequence) and then taken for a heartbeat; "subscriptions" answers a subscribe or unsubscribe;
// {"type":"error","message":".."} refuses one.
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "channel", .role = FieldRole::EventType, .scopes = kRootScope},
            {.key = "timestamp", .role = FieldRole::EventTimeText, .scopes = kRootScope},
            {.key = "sequence_num", .role = FieldRole::FinalUpdateId, .scopes = kRootScope},
            {.key = "events", .role = FieldRole::Event, .scopes = kRootScope},
            {.key = "type", .role = FieldRole::Text, .scopes = kEventScope, .slot = kEventType},
            {.key = "product_id", .role = FieldRole::Symbol, .scopes = kEventScope},
        };
        s.timeUnit = LatencyUnit::Microseconds;
        // market_trades: events[] of {"type":..,"trades":[{"product_id":..,"price":..,..}]}. The
        // documentation does not say the order of a batch; its snapshot of recent trades comes
        // newest first, so the first trade is taken for the newest (docs/venues.md).
        s.trades = {.eventTypes = {"market_trades"},
                    .event = "events",
                    .list = "trades",
                    .price = "price",
                    .symbol = "product_id",
                    .newestFirst = true};
        s.heartbeat = {.slot = TextMarker::kEventType, .value = "heartbeats"};
        s.head.kindKey = "channel";
        s.head.kinds = {
            HeadSpec::KindValue{.value = "heartbeats",
                                .kind = MessageKind::Data,
                                .heartbeatCandidate = true,
                                .refineKey = "channel",
                                .refineValue = "heartbeats",
                                .refinedKind = MessageKind::Heartbeat},
            HeadSpec::KindValue{.value = "subscriptions", .kind = MessageKind::Result},
        };
        s.head.keyedKinds = {HeadSpec::KeyedKind{.key = "type", .value = "error", .kind = MessageKind::Error}};
        s.head.rpcResponses = false;
        return s;
    }();
    return spec;
}

} // namespace streamscope::coinbase
