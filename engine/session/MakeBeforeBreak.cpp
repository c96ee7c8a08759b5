#include "MakeBeforeBreak.h"

#include "protocol/MessageDecoder.h"

#include <algorithm>

namespace streamscope {

void MakeBeforeBreak::begin(int fromId, int toId)
{
    m_fromId = fromId;
    m_toId = toId;
    m_firstDataMs.reset();
    m_switchedMs = 0;
}

void MakeBeforeBreak::reset()
{
    m_dedupe.end();
    m_fromId = m_toId = 0;
    m_firstDataMs.reset();
    m_switchedMs = 0;
    m_failures = 0;
    m_retryAtMs.reset();
}

void MakeBeforeBreak::abandon(qint64 nowMs, qint64 retryBaseMs, qint64 retryMaxMs)
{
    const int failures = m_failures + 1;
    reset();
    m_failures = failures;
    // The shift stops where the delay is past any cap (2^20 times the base).
    m_retryAtMs = nowMs + std::min(retryMaxMs, retryBaseMs << std::min(failures - 1, 20));
}

bool MakeBeforeBreak::accept(int linkId, const DecodedFields *fields, qint64 nowMs)
{
    const bool isOld = linkId == m_fromId;
    const bool isNew = linkId == m_toId;
    if (!isOld && !isNew)
        return true; // another shard of the group
    if (isNew && !m_firstDataMs)
        m_firstDataMs = nowMs;
    if (!fields)
        return isOld ? !m_dedupe.switched() : m_dedupe.switched();
    return isOld ? m_dedupe.acceptOld(*fields) : m_dedupe.acceptNew(*fields);
}

MakeBeforeBreak::Step MakeBeforeBreak::afterMessage() const
{
    if (!m_dedupe.active())
        return Step::None;
    if (!m_dedupe.switched())
        return m_dedupe.caughtUp() ? Step::SwitchOver : Step::None;
    return m_dedupe.settled() ? Step::Settled : Step::None;
}

MakeBeforeBreak::Step MakeBeforeBreak::onTick(qint64 nowMs, qint64 overlapMaxMs,
                                              std::optional<qint64> toConnectedMs) const
{
    if (!inProgress())
        return Step::None;
    if (!m_dedupe.switched()) {
        const std::optional<qint64> since = m_firstDataMs ? m_firstDataMs : toConnectedMs;
        return since && nowMs - *since > overlapMaxMs ? Step::SwitchOver : Step::None;
    }
    return nowMs - m_switchedMs > overlapMaxMs || m_dedupe.settled() ? Step::Settled : Step::None;
}

void MakeBeforeBreak::switchOver(qint64 nowMs)
{
    m_dedupe.switchOver();
    m_fromId = 0;
    m_switchedMs = nowMs;
}

} // namespace streamscope
