#include "OkxSequence.h"

namespace streamscope::okx {

OkxSequence::Result OkxSequence::check(std::string_view channel, std::string_view instrument, std::int64_t prevSeqId,
                                       std::int64_t seqId)
{
    const std::uint64_t key = ChainTable::key(channel, instrument);
    const std::int64_t *last = m_chains.find(key);
    Result result;
    if (prevSeqId == -1) {
        result.verdict = Verdict::Snapshot;
    } else if (!last) {
        result.verdict = Verdict::Start;
    } else if (seqId < prevSeqId) {
        result.verdict = Verdict::Reset;
    } else if (prevSeqId == *last) {
        result.verdict = seqId == prevSeqId ? Verdict::KeepAlive : Verdict::InOrder;
    } else {
        result.verdict = Verdict::Gap;
        result.expectedPrev = *last;
    }
    m_chains.set(key, seqId);
    return result;
}

} // namespace streamscope::okx
