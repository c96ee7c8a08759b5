#pragma once

// Bybit order-book continuity, per topic ("orderbook.50.BTCUSDT"): each delta's update id "u"
// is the previous one's + 1. Bybit's own rules (its "Orderbook" documentation):
//   - a snapshot replaces the book and starts the chain again (Bybit re-sends one when it has
//     a problem of its own);
//   - "u" = 1 means the service restarted: a reset, counted apart, never a gap;
//   - level-1 books (spot, linear, inverse) are snapshots only, re-sent with the same "u"
//     after 3 s without a change: in order, not a duplicate;
//   - the first delta of a chain (none since the connection) starts it;
//   - any other delta whose "u" is not the previous + 1 is a gap (a "u" that went back too).
// The numbers are the peer's: the one sum (the previous + 1) saturates at INT64_MAX. Chains
// are told apart by a hash of the topic (ChainTable); no allocation per message.
//
// Thread contract: one instance per handler, used on the stream's worker.

#include "venues/ChainTable.h"

#include <QtCore/QtGlobal>

#include <cstdint>
#include <string_view>

namespace streamscope::bybit {

class BybitSequence {
public:
    enum class Verdict : quint8 { InOrder, Start, Snapshot, Restart, Gap };
    struct Result {
        Verdict verdict = Verdict::InOrder;
        std::int64_t expected = 0; // Gap: the "u" that should have come (the previous + 1)
    };

    Result check(std::string_view topic, bool snapshot, std::int64_t u);
    void reset() { m_chains.reset(); }

private:
    ChainTable m_chains;
};

} // namespace streamscope::bybit
