#include "GenericSpec.h"

#include "venues/SpecConventions.h"

#include <utility>

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
        std::vector<FieldRule> rules = depthStreamRules();
        rules.push_back({.key = "pt", .role = FieldRole::EventTime});
        DecodeSpec s(std::move(rules));
        useDepthStreamConventions(s);
        useChangeStreamHead(s.head);
        return s;
    }();
    return spec;
}

} // namespace streamscope::generic
