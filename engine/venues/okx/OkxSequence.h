#pragma once

// OKX order-book continuity, per channel and instrument ("books" of BTC-USDT): each update's
// prevSeqId is the previous update's seqId. OKX's own rules (its "Order book" documentation):
//   - a snapshot has prevSeqId -1 and starts the chain again;
//   - an update with no change (empty asks and bids, sent to show the connection is alive)
//     has seqId == prevSeqId == the previous seqId: in order, nothing missed;
//   - a seqId lower than its prevSeqId is a reset of the sequence (maintenance): legal,
//     counted apart, and the chain goes on from the new seqId;
//   - the first update of a chain (none since the last snapshot or connection) starts it;
//   - anything else whose prevSeqId is not the previous seqId is a gap.
// The numbers are the peer's: they are only compared, never computed with, so any int64 is
// safe. Chains are told apart by a hash of channel and instrument (ChainTable); no allocation
// per message.
//
// Thread contract: one instance per handler, used on the stream's worker.

#include "venues/ChainTable.h"

#include <QtCore/QtGlobal>

#include <cstdint>
#include <string_view>

namespace streamscope::okx {

class OkxSequence {
public:
    enum class Verdict : quint8 { InOrder, KeepAlive, Start, Snapshot, Reset, Gap };
    struct Result {
        Verdict verdict = Verdict::InOrder;
        std::int64_t expectedPrev = 0; // Gap: the previous seqId, which prevSeqId should have been
    };

    Result check(std::string_view channel, std::string_view instrument, std::int64_t prevSeqId, std::int64_t seqId);
    void reset() { m_chains.reset(); }

private:
    ChainTable m_chains;
};

} // namespace streamscope::okx
