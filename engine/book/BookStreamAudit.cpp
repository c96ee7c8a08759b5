// BookSync's audit of an in-stream book against the venue's REST snapshot (BookSync.h,
// docs/books.md "The audit"): at the same update id it is the REST books' audit (BookSync.cpp);
// at the nearest, the messages applied since the audit began are kept with their keys and
// NearestAudit rolls its copy of the book forward through them up to the snapshot's point and
// compares.

#include "BookSync.h"

#include <algorithm>

namespace streamscope::book {

void BookSync::streamAuditRequested()
{
    m_auditPoint = m_rules.auditPoint(m_streamDepth);
    if (m_auditPoint != AuditPoint::Nearest)
        return;
    m_auditStartId = m_key; // a snapshot from before this point cannot be placed
    if (!m_nearest)
        m_nearest = std::make_unique<NearestAudit>(m_book.maxLevelsPerSide());
    m_nearest->begin(m_book);
}

void BookSync::keepForAudit(const StreamMessage &message, const LevelChange *changes, std::size_t count)
{
    if (!buffer(message.ids, changes, count)) {
        m_audit = AuditStage::None; // the audit's buffer is full: given up, not counted
        clearPending(false);
        return;
    }
    m_pending.back().key = message.auditKey;
    m_pending.back().snapshot = message.snapshot;
}

// `settled`: no message has come after the snapshot's point for kAuditSettleMs; the book as it
// is stands for that point.
void BookSync::tryCompleteNearest(bool settled)
{
    const auto kept = [this](const Pending &p) {
        return KeptMessage{m_pendingLevels.data() + p.begin, p.count, p.snapshot};
    };
    NearestAudit &audit = *m_nearest;
    while (audit.rolled < m_pending.size() && m_pending[audit.rolled].key <= m_auditSnapshotId)
        audit.rollForward(kept(m_pending[audit.rolled++]), m_streamDepth);
    const bool hasNext = audit.rolled < m_pending.size();
    if (!hasNext && !settled)
        return; // the book has not passed the snapshot's point yet
    const KeptMessage next = hasNext ? kept(m_pending[audit.rolled]) : KeptMessage{};
    const std::size_t top = m_streamDepth > 0 ? std::min(kAuditTopLevels, m_streamDepth) : kAuditTopLevels;
    const AuditFigures f = audit.compare(*m_auditBook, hasNext ? &next : nullptr, top);
    recordAudit(f.matched, f.compared, f.stale, true);
    if (m_audit != AuditStage::None) { // not desynced by it
        m_audit = AuditStage::None;
        clearPending(false);
    }
}

void BookSync::auditTick(qint64 nowMs)
{
    if (m_audit != AuditStage::Comparing || m_auditPoint != AuditPoint::Nearest || !m_nearest)
        return;
    if (m_nearest->waitSinceMs < 0) {
        m_nearest->waitSinceMs = nowMs;
        return;
    }
    if (nowMs - m_nearest->waitSinceMs >= kAuditSettleMs)
        tryCompleteNearest(true);
}

} // namespace streamscope::book
