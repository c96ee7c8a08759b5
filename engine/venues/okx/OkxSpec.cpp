#include "OkxSpec.h"

#include "OkxFields.h"

namespace streamscope::okx {

// The OKX v5 public websocket. Data: {"arg":{"channel":..,"instId":..},"action":"snapshot" |
// "update","data":[{..,"ts":"<ms>",..}]}: the channel is the event type, instId the symbol,
// "ts" the event time in ms (a string of digits); the first element of "data" stands for the
// push. Order books carry "prevSeqId" and "seqId" (64-bit integers) after their levels, so a
// books message is read to its end (no prefix decode). Everything else starts with "event":
// "subscribe"/"unsubscribe" answer a request, "error" refuses one, "notice" (a coming service
// upgrade) and "channel-conn-count" inform. The keep-alive answer is the text "pong".
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "arg", .role = FieldRole::Event, .scopes = kRootScope},
            {.key = "data", .role = FieldRole::Event, .scopes = kRootScope},
            {.key = "action", .role = FieldRole::Text, .scopes = kRootScope, .slot = kAction},
            {.key = "channel", .role = FieldRole::EventType, .scopes = kEventScope},
            {.key = "instId", .role = FieldRole::Symbol, .scopes = kEventScope},
            {.key = "ts", .role = FieldRole::EventTime, .scopes = kEventScope},
            {.key = "seqId", .role = FieldRole::FinalUpdateId, .scopes = kEventScope},
            {.key = "prevSeqId", .role = FieldRole::PrevUpdateId, .scopes = kEventScope},
            // A trade's id (a string of digits) tells pushes apart while a rollover's two
            // connections overlap; books are told apart by seqId, other channels by ts.
            {.key = "tradeId", .role = FieldRole::EventId, .scopes = kEventScope, .identity = true},
        };
        s.timeUnit = LatencyUnit::Milliseconds;
        // seqId and prevSeqId follow a book's levels: a prefix would never hold them.
        s.prefixDecode = false;
        // trades (and trades-all): data[] of {"instId":..,"px":..,..}, one trade each.
        s.trades = {.eventTypes = {"trades", "trades-all"}, .event = "data", .price = "px", .symbol = "instId"};
        s.head.dataKeys = {"arg"};
        s.head.kindKey = "event";
        s.head.kinds = {
            HeadSpec::KindValue{.value = "subscribe", .kind = MessageKind::Result},
            HeadSpec::KindValue{.value = "unsubscribe", .kind = MessageKind::Result},
            HeadSpec::KindValue{.value = "error", .kind = MessageKind::Error},
            HeadSpec::KindValue{.value = "notice", .kind = MessageKind::Connection},
            HeadSpec::KindValue{.value = "channel-conn-count", .kind = MessageKind::Connection},
            HeadSpec::KindValue{.value = "channel-conn-count-error", .kind = MessageKind::Error},
        };
        s.head.rpcResponses = false;
        s.head.pongText = "pong";
        return s;
    }();
    return spec;
}

} // namespace streamscope::okx
