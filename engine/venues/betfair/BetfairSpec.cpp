#include "BetfairSpec.h"

#include "BetfairFields.h"
#include "venues/SpecConventions.h"

namespace streamscope::betfair {

// The Exchange Stream API: every message is {"op":..,...}. A change message (op mcm or ocm)
// carries its publish time "pt" (ms), clk/initialClk, ct (SUB_IMAGE, RESUB_DELTA, HEARTBEAT),
// segmentType, status (503: data may be stale), conflateMs, heartbeatMs, and its changes in
// mc[] / oc[], of which con and img are read from every one (so a long message is read to its
// end, never from a prefix). op connection is the connection message; op status a response,
// a FAILURE when its statusCode says so.
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "op", .role = FieldRole::EventType, .scopes = kRootScope},
            {.key = "pt", .role = FieldRole::EventTime},
            {.key = "clk", .role = FieldRole::Text, .scopes = kRootScope, .slot = kClk},
            {.key = "initialClk", .role = FieldRole::Text, .scopes = kRootScope, .slot = kInitialClk},
            {.key = "ct", .role = FieldRole::Text, .scopes = kRootScope, .slot = kChangeType},
            {.key = "segmentType", .role = FieldRole::Text, .scopes = kRootScope, .slot = kSegmentType},
            {.key = "status", .role = FieldRole::Number, .scopes = kRootScope, .slot = kStatus},
            {.key = "conflateMs", .role = FieldRole::Number, .scopes = kRootScope, .slot = kConflateMs},
            {.key = "heartbeatMs", .role = FieldRole::Number, .scopes = kRootScope, .slot = kHeartbeatMs},
            {.key = "mc", .role = FieldRole::Items, .scopes = kRootScope},
            {.key = "oc", .role = FieldRole::Items, .scopes = kRootScope},
            {.key = "con", .role = FieldRole::Flag, .scopes = kItemScope, .slot = kConflated},
            {.key = "img", .role = FieldRole::Flag, .scopes = kItemScope, .slot = kImage},
        };
        s.timeUnit = LatencyUnit::Milliseconds;
        s.prefixDecode = false;
        s.heartbeat = {.slot = kChangeType, .value = "HEARTBEAT"};
        useChangeStreamHead(s.head);
        return s;
    }();
    return spec;
}

} // namespace streamscope::betfair
