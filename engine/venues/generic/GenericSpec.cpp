#include "GenericSpec.h"

namespace streamscope::generic {

// Any JSON feed without a venue of its own. It reads the conventions of the venues
// StreamScope started with, so that a feed like them works as it is: the event time in "E"
// or "pt" (ms; a stream names its own field with latency_field), the event type "e", the
// symbol "s", depth-diff sequence numbers U/u/pu, an envelope {"stream":..,"data":..}, event
// ids a/t; JSON-RPC responses, and {"op":..} messages (change messages whose ct may say
// HEARTBEAT, the connection message, status responses).
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "E", .role = FieldRole::EventTime},
            {.key = "pt", .role = FieldRole::EventTime},
            {.key = "e", .role = FieldRole::EventType},
            {.key = "s", .role = FieldRole::Symbol},
            {.key = "U", .role = FieldRole::FirstUpdateId},
            {.key = "u", .role = FieldRole::FinalUpdateId},
            {.key = "pu", .role = FieldRole::PrevUpdateId},
            {.key = "a", .role = FieldRole::EventId, .identity = true},
            {.key = "t", .role = FieldRole::EventId, .identity = true},
            {.key = "stream", .role = FieldRole::StreamName, .scopes = kRootScope, .identity = true},
            {.key = "data", .role = FieldRole::Event, .scopes = kRootScope},
        };
        s.timeUnit = LatencyUnit::Milliseconds;
        s.sequencedEventType = "depthUpdate";
        s.idEndsEventTypes = {"aggTrade", "trade"};
        s.head.dataKeys = {"stream", "e"};
        const HeadSpec::KindValue change{.value = "mcm",
                                         .kind = MessageKind::Data,
                                         .heartbeatCandidate = true,
                                         .refineKey = "ct",
                                         .refineValue = "HEARTBEAT",
                                         .refinedKind = MessageKind::Heartbeat};
        HeadSpec::KindValue orderChange = change;
        orderChange.value = "ocm";
        s.head.kindKey = "op";
        s.head.kinds = {
            change,
            orderChange,
            HeadSpec::KindValue{.value = "connection", .kind = MessageKind::Connection},
            HeadSpec::KindValue{.value = "status",
                                .kind = MessageKind::Result,
                                .readId = true,
                                .refineKey = "statusCode",
                                .refineValue = "FAILURE",
                                .refinedKind = MessageKind::Error},
        };
        return s;
    }();
    return spec;
}

} // namespace streamscope::generic
