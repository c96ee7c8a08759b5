#include "HyperliquidSpec.h"

namespace streamscope::hyperliquid {

// Hyperliquid's public websocket. Every message is {"channel":..,"data":..}: data on the
// subscription's channel ("l2Book": {"coin":..,"time":<ms>,"levels":[[..],[..]]}; "trades": an
// array of {"coin":..,"side":..,"px":..,"sz":..,"hash":..,"time":<ms>,"tid":..,..}, of which the
// first stands for the push); "subscriptionResponse" answers a subscription, "error" refuses a
// request ({"channel":"error","data":"<text>"}), "pong" answers {"method":"ping"}. The channel
// is the event type, "coin" the symbol, "time" the event time (ms, a number). No message
// carries a sequence number (docs/venues.md, "Hyperliquid").
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "channel", .role = FieldRole::EventType, .scopes = kRootScope},
            {.key = "data", .role = FieldRole::Event, .scopes = kRootScope},
            {.key = "coin", .role = FieldRole::Symbol, .scopes = kEventScope},
            {.key = "time", .role = FieldRole::EventTime, .scopes = kEventScope},
        };
        s.timeUnit = LatencyUnit::Milliseconds;
        // trades: data[] of {"coin":..,"px":..,..}, oldest first.
        s.trades = {.eventTypes = {"trades"}, .event = "data", .price = "px", .symbol = "coin"};
        s.head.kindKey = "channel";
        s.head.kinds = {
            HeadSpec::KindValue{.value = "subscriptionResponse", .kind = MessageKind::Result},
            HeadSpec::KindValue{.value = "error", .kind = MessageKind::Error},
            HeadSpec::KindValue{.value = "pong", .kind = MessageKind::Pong},
        };
        s.head.rpcResponses = false;
        return s;
    }();
    return spec;
}

} // namespace streamscope::hyperliquid
