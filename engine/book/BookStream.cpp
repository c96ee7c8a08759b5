// BookSync's in-stream half (BookSync.h): books whose venue sends the snapshot on the stream
// itself (Bybit, OKX, Kraken, Coinbase) rather than over REST.

#include "BookSync.h"

#include <algorithm>

namespace streamscope::book {

namespace {
constexpr std::int64_t kNone = INT64_MIN;

QString idText(std::int64_t id)
{
    return id == kNone ? QStringLiteral("none") : QString::number(id);
}
} // namespace

void BookSync::onStreamMessage(const StreamMessage &message, const LevelChange *changes, std::size_t count)
{
    if (message.snapshot) {
        streamSnapshot(message, changes, count);
        return;
    }
    // Before the first snapshot, or after a desync: dropped, the snapshot the subscription
    // brings holds them.
    if (!synced())
        return;
    switch (m_rules.next(message.ids, m_id)) {
    case DiffAction::Ignore: return;
    case DiffAction::Gap:
        desync(message.ids.prev != kNone
                   ? QStringLiteral("gap: the update after %1 says its previous was %2 (now %3)")
                         .arg(idText(m_id), idText(message.ids.prev), idText(message.ids.last))
                   : QStringLiteral("gap: update %1 after %2").arg(idText(message.ids.last), idText(m_id)));
        return;
    case DiffAction::Apply: break;
    }
    if (m_audit != AuditStage::None)
        keepForAudit(message, changes, count);
    apply(m_book, changes, count);
    if (m_streamDepth > 0) {
        m_book.pruneBeyond(Side::Bid, m_streamDepth);
        m_book.pruneBeyond(Side::Ask, m_streamDepth);
    }
    if (message.ids.last != kNone)
        m_id = message.ids.last;
    m_key = message.auditKey;
    m_changed = true;
    verifyChecksum(message);
    if (synced())
        checkCrossed();
    if (m_audit == AuditStage::Comparing)
        tryCompleteAudit();
}

void BookSync::streamSnapshot(const StreamMessage &message, const LevelChange *changes, std::size_t count)
{
    // A snapshot starts the book over, whatever it held: the venue's own reset, never a resync.
    // An audit at the nearest keeps it like any message; one at the same id is given up (the
    // venue's sequence may start over with it).
    if (m_audit != AuditStage::None) {
        if (m_auditPoint == AuditPoint::Nearest) {
            keepForAudit(message, changes, count);
        } else {
            m_audit = AuditStage::None;
            clearPending(false);
        }
    }
    m_book.clear();
    m_book.reserve(count / 2 + count / 8 + 64);
    std::size_t bids = 0;
    for (std::size_t i = 0; i < count; ++i)
        bids += changes[i].side == Side::Bid ? 1 : 0;
    apply(m_book, changes, count);
    m_streamDepth =
        m_saidDepth > 0 ? m_saidDepth : m_rules.streamDepth(message.eventType, std::max(bids, count - bids));
    if (m_streamDepth > 0) {
        m_book.pruneBeyond(Side::Bid, m_streamDepth);
        m_book.pruneBeyond(Side::Ask, m_streamDepth);
    }
    m_id = message.ids.last;
    m_key = message.auditKey;
    m_priceDecimals = 0;
    m_qtyDecimals = 0;
    const bool wasSynced = synced();
    m_fetching = false;
    m_needSnapshot = false;
    m_retryDelayMs = kRetryMinMs;
    if (!wasSynced)
        m_syncedSinceTick = true; // time to sync taken on the next tick
    // A crossed book that a snapshot leaves crossed is the same episode.
    setState(m_status.state == BookState::Crossed ? BookState::Crossed : BookState::Synced);
    m_changed = true;
    verifyChecksum(message);
    if (synced())
        checkCrossed();
    if (m_audit == AuditStage::Comparing)
        tryCompleteAudit();
}

void BookSync::verifyChecksum(const StreamMessage &message)
{
    m_priceDecimals = std::max(m_priceDecimals, message.priceDecimals);
    m_qtyDecimals = std::max(m_qtyDecimals, message.qtyDecimals);
    if (!message.hasChecksum || !m_rules.checksummed())
        return;
    const std::uint32_t ours = m_rules.checksum(m_book, m_priceDecimals, m_qtyDecimals);
    if (ours == message.checksum)
        return;
    ++m_status.checksumFailures;
    desync(QStringLiteral("checksum mismatch: the venue's %1, the book's %2").arg(message.checksum).arg(ours));
}

void BookSync::setDepth(std::size_t levels)
{
    m_saidDepth = levels;
    if (synced())
        m_streamDepth = levels; // the next message cuts the book to it
}

void BookSync::lostByVenue(const QString &why, qint64 nowMs)
{
    if (m_status.state == BookState::Syncing)
        return; // no book yet: the snapshot the venue's handler asked for starts it
    if (m_status.state != BookState::Desynced && m_status.state != BookState::Resyncing)
        desync(why);
    snapshotRequested(nowMs);
}

void BookSync::onBroken(const QString &why)
{
    if (m_status.state == BookState::Desynced || m_status.state == BookState::Resyncing)
        return;
    desync(why);
}

void BookSync::streamTick(qint64 nowMs)
{
    if (m_syncedSinceTick) {
        m_syncedSinceTick = false;
        m_status.timeToSyncMs = m_syncStartMs >= 0 ? std::max<qint64>(0, nowMs - m_syncStartMs) : 0;
        m_syncStartMs = -1;
        if (m_lastAuditMs < 0)
            m_lastAuditMs = nowMs; // the first audit one period after the first sync
        m_changed = true;
    }
    auditTick(nowMs);
    if (m_fetching && m_requestedAtMs >= 0 && nowMs - m_requestedAtMs >= kStreamSnapshotTimeoutMs)
        onSnapshotFailed(
            QStringLiteral("no snapshot within %1 s of resubscribing").arg(kStreamSnapshotTimeoutMs / 1000), nowMs);
}

} // namespace streamscope::book
