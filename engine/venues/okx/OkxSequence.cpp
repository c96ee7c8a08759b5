#include "OkxSequence.h"

namespace streamscope::okx {

namespace {

// FNV-1a over the channel, a separator no channel holds, and the instrument.
std::uint64_t chainHash(std::string_view channel, std::string_view instrument)
{
    std::uint64_t h = 1469598103934665603ULL;
    const auto mix = [&h](std::string_view s) {
        for (const unsigned char c : s)
            h = (h ^ c) * 1099511628211ULL;
    };
    mix(channel);
    h = (h ^ 0x1f) * 1099511628211ULL;
    mix(instrument);
    return h | 1; // never 0: 0 marks an empty slot
}

} // namespace

OkxSequence::Result OkxSequence::check(std::string_view channel, std::string_view instrument, std::int64_t prevSeqId,
                                       std::int64_t seqId)
{
    const std::uint64_t h = chainHash(channel, instrument);
    Slot *slot = nullptr;
    for (int i = 0; i < m_used; ++i) {
        if (m_slots[std::size_t(i)].hash == h) {
            slot = &m_slots[std::size_t(i)];
            break;
        }
    }
    Result result;
    if (prevSeqId == -1) {
        result.verdict = Verdict::Snapshot;
    } else if (!slot) {
        result.verdict = Verdict::Start;
    } else if (seqId < prevSeqId) {
        result.verdict = Verdict::Reset;
    } else if (prevSeqId == slot->lastSeq) {
        result.verdict = seqId == prevSeqId ? Verdict::KeepAlive : Verdict::InOrder;
    } else {
        result.verdict = Verdict::Gap;
        result.expectedPrev = slot->lastSeq;
    }
    if (!slot) {
        // A new chain (or the table is full: the last slot is reused).
        slot = &m_slots[std::size_t(m_used < kSlots ? m_used++ : kSlots - 1)];
        slot->hash = h;
    }
    slot->lastSeq = seqId;
    return result;
}

void OkxSequence::reset()
{
    m_slots.fill(Slot{});
    m_used = 0;
}

} // namespace streamscope::okx
