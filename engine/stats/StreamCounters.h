#pragma once

// The per-stream statistics written on the hot path. One writer (the stream's worker
// thread), relaxed atomics only, on cache lines of their own so that readers on the GUI
// thread never slow the writer down. Totals only: rates are derived by readers.

#include "RelaxedCounter.h"

#include <cstdint>

namespace streamscope {

struct alignas(64) StreamCounters {
    RelaxedCounter messages;                  // every message received
    RelaxedCounter dataMessages;              // routed as data
    RelaxedCounter bytes;                     // payload bytes (UTF-8) of every message
    RelaxedCounter results;                   // routed responses: results
    RelaxedCounter errors;                    // routed responses: errors
    RelaxedCounter controlMessages;           // status/connection messages, server notices
    RelaxedCounter heartbeats;                // venue heartbeats (Betfair ct=HEARTBEAT)
    RelaxedCounter parseErrors;               // data messages that failed to decode
    RelaxedCounter gaps;                      // sequence breaks (depth-diff U/u, pu/u)
    RelaxedCounter reconnects;                // connection attempts after the first
    RelaxedCounter inspectorDrops;            // messages the inspector buffer dropped (oldest first)
    RelaxedValue<std::int64_t> lastMessageMs; // epoch ms of the last message, 0 if none
    RelaxedValue<std::int64_t> lastDataMs;    // epoch ms of the last data message, 0 if none
};

} // namespace streamscope
