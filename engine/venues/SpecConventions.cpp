#include "SpecConventions.h"

namespace streamscope {

std::vector<FieldRule> depthStreamRules()
{
    return {
        {.key = "E", .role = FieldRole::EventTime},
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
}

void useDepthStreamConventions(DecodeSpec &spec)
{
    spec.timeUnit = LatencyUnit::Milliseconds;
    spec.sequencedEventType = "depthUpdate";
    spec.idEndsEventTypes = {"aggTrade", "trade"};
    spec.head.dataKeys = {"stream", "e"};
}

void useChangeStreamHead(HeadSpec &head)
{
    const HeadSpec::KindValue change{.value = "mcm",
                                     .kind = MessageKind::Data,
                                     .heartbeatCandidate = true,
                                     .refineKey = "ct",
                                     .refineValue = "HEARTBEAT",
                                     .refinedKind = MessageKind::Heartbeat};
    HeadSpec::KindValue orderChange = change;
    orderChange.value = "ocm";
    head.kindKey = "op";
    head.kinds = {
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
}

} // namespace streamscope
