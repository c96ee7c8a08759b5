#include "BookSync.h"

#include <algorithm>
#include <cmath>

namespace streamscope::book {

BookSync::BookSync(const BookRules &rules, const QString &instrument, std::size_t maxLevelsPerSide)
    : m_rules(rules)
    , m_inStream(rules.snapshotSource() == SnapshotSource::Stream)
    , m_book(maxLevelsPerSide)
{
    m_status.instrument = instrument;
    m_status.state = BookState::Syncing;
}

void BookSync::setState(BookState s)
{
    if (m_status.state != s) {
        m_status.state = s;
        m_changed = true;
    }
}

void BookSync::apply(OrderBook &book, const LevelChange *changes, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i)
        book.set(changes[i].side, changes[i].price, changes[i].qty);
}

bool BookSync::buffer(const DiffIds &ids, const LevelChange *changes, std::size_t count)
{
    if (m_pending.size() >= kMaxPendingEvents || m_pendingLevels.size() + count > kMaxPendingLevels) {
        m_overflowed = true;
        return false;
    }
    m_pending.push_back(Pending{ids, std::uint32_t(m_pendingLevels.size()), std::uint32_t(count)});
    m_pendingLevels.insert(m_pendingLevels.end(), changes, changes + count);
    return true;
}

void BookSync::dropOldest()
{
    const std::uint32_t n = m_pending.front().count;
    m_pendingLevels.erase(m_pendingLevels.begin(), m_pendingLevels.begin() + n);
    m_pending.erase(m_pending.begin());
    for (Pending &p : m_pending)
        p.begin -= n;
}

void BookSync::clearPending(bool release)
{
    m_overflowed = false;
    if (release) {
        std::vector<Pending>().swap(m_pending);
        std::vector<LevelChange>().swap(m_pendingLevels);
    } else {
        m_pending.clear();
        m_pendingLevels.clear();
    }
}

void BookSync::onDiff(const DiffIds &ids, const LevelChange *changes, std::size_t count)
{
    if (!synced()) {
        // Syncing, desynced or resyncing: buffered until the snapshot comes (only the last few
        // until it is asked for). A buffer that overflows starts over from the next diff (the
        // snapshot must then be newer).
        if (!m_fetching && m_pending.size() >= kMaxWaitingEvents)
            dropOldest();
        if (!buffer(ids, changes, count)) {
            clearPending(false);
            buffer(ids, changes, count);
        }
        return;
    }
    const DiffAction action = m_expectFirst
        ? (m_rules.coveredBySnapshot(ids, m_id) ? DiffAction::Ignore : m_rules.firstAfterSnapshot(ids, m_id))
        : m_rules.next(ids, m_id);
    if (action == DiffAction::Ignore)
        return;
    if (action == DiffAction::Gap) {
        desync(m_expectFirst ? QStringLiteral("the first diff after the snapshot (%1..%2) does not continue it (%3)")
                                   .arg(ids.first)
                                   .arg(ids.last)
                                   .arg(m_id)
                   : ids.prev != INT64_MIN && ids.first != INT64_MIN && ids.prev != m_id
                   ? QStringLiteral("gap: the diff after %1 says its previous was %2").arg(m_id).arg(ids.prev)
                   : QStringLiteral("gap: a diff from %1 after %2").arg(ids.first).arg(m_id));
        buffer(ids, changes, count); // the first diff of the new sync
        return;
    }
    if (m_audit != AuditStage::None && !buffer(ids, changes, count)) {
        m_audit = AuditStage::None; // the audit's buffer is full: given up, not counted
        clearPending(false);
    }
    apply(m_book, changes, count);
    m_id = ids.last;
    m_expectFirst = false;
    m_changed = true;
    checkCrossed();
    if (m_audit == AuditStage::Comparing)
        tryCompleteAudit();
}

void BookSync::onUnreadableDiff(const QString &why)
{
    if (synced()) {
        desync(why);
    } else if (m_inStream) {
        // A snapshot that cannot be read leaves the book waiting: say why.
        m_status.lastResyncReason = why;
        m_changed = true;
    }
}

void BookSync::checkCrossed()
{
    const bool crossed = m_book.crossed();
    if (crossed && m_status.state == BookState::Synced) {
        ++m_status.crossedEpisodes;
        m_crossedSinceMs = -1; // timed on the next tick
        setState(BookState::Crossed);
    } else if (!crossed && m_status.state == BookState::Crossed) {
        setState(BookState::Synced);
    }
}

void BookSync::desync(const QString &why)
{
    ++m_status.resyncs;
    m_status.lastResyncReason = why;
    m_book.clear();
    m_id = INT64_MIN;
    m_audit = AuditStage::None;
    m_auditConfirming = false;
    clearPending(false);
    m_needSnapshot = true;
    m_syncStartMs = -1;
    m_retryDelayMs = kRetryMinMs;
    setState(BookState::Desynced);
    m_changed = true;
}

void BookSync::reset()
{
    m_book.clear();
    m_id = INT64_MIN;
    m_audit = AuditStage::None;
    m_auditConfirming = false;
    clearPending(false);
    m_needSnapshot = true;
    m_fetching = false; // an answer still on its way is for the old sequence: ignored (onSnapshot)
    m_syncStartMs = -1;
    m_retryAtMs = 0;
    m_retryDelayMs = kRetryMinMs;
    setState(BookState::Syncing);
    m_changed = true;
}

bool BookSync::wantsSnapshot(qint64 nowMs) const
{
    if (m_inStream) // the first snapshot comes with the subscription
        return m_needSnapshot && !m_fetching && m_status.state == BookState::Desynced && nowMs >= m_retryAtMs;
    return m_needSnapshot && !m_fetching && !m_pending.empty() && nowMs >= m_retryAtMs;
}

void BookSync::snapshotRequested(qint64 nowMs)
{
    m_requestedAtMs = nowMs;
    m_fetching = true;
    m_needSnapshot = false;
    if (m_syncStartMs < 0)
        m_syncStartMs = nowMs;
    if (m_status.state == BookState::Desynced)
        setState(BookState::Resyncing);
}

void BookSync::onSnapshotFailed(const QString &why, qint64 nowMs)
{
    if (!m_fetching)
        return;
    m_fetching = false;
    m_needSnapshot = true;
    m_retryAtMs = nowMs + m_retryDelayMs;
    m_retryDelayMs = std::min(kRetryMaxMs, m_retryDelayMs * 2);
    m_status.lastResyncReason = QStringLiteral("snapshot: ") + why;
    if (m_status.state == BookState::Resyncing)
        setState(BookState::Desynced);
    m_changed = true;
}

void BookSync::load(OrderBook &book, const std::vector<LevelChange> &levels)
{
    book.clear();
    book.reserve(levels.size() / 2 + levels.size() / 8 + 64);
    apply(book, levels.data(), levels.size());
}

bool BookSync::replay(OrderBook &book, std::int64_t snapshotId, std::int64_t &id)
{
    id = snapshotId;
    bool first = true;
    for (const Pending &p : m_pending) {
        if (first && m_rules.coveredBySnapshot(p.ids, snapshotId))
            continue;
        const DiffAction action = first ? m_rules.firstAfterSnapshot(p.ids, snapshotId) : m_rules.next(p.ids, id);
        if (action == DiffAction::Ignore)
            continue;
        if (action == DiffAction::Gap)
            return false;
        apply(book, m_pendingLevels.data() + p.begin, p.count);
        id = p.ids.last;
        first = false;
    }
    m_expectFirst = first;
    return true;
}

void BookSync::onSnapshot(std::int64_t snapshotId, const std::vector<LevelChange> &levels, qint64 nowMs)
{
    if (!m_fetching)
        return; // asked for before a reset: for another sequence
    m_fetching = false;
    if (m_pending.empty() || !m_rules.snapshotUsable(snapshotId, m_pending.front().ids)) {
        // Older than the first buffered diff: the diffs between are in neither. Fetch again.
        m_needSnapshot = true;
        m_retryAtMs = nowMs + m_retryDelayMs;
        m_retryDelayMs = std::min(kRetryMaxMs, m_retryDelayMs * 2);
        m_status.lastResyncReason = QStringLiteral("snapshot %1 older than the first buffered diff (%2): fetched again")
                                        .arg(snapshotId)
                                        .arg(m_pending.empty() ? 0 : m_pending.front().ids.first);
        m_changed = true;
        return;
    }
    load(m_book, levels);
    std::int64_t id = snapshotId;
    if (!replay(m_book, snapshotId, id)) {
        m_book.clear();
        clearPending(false);
        m_needSnapshot = true;
        m_status.lastResyncReason = QStringLiteral("the buffered diffs do not continue snapshot %1").arg(snapshotId);
        if (m_status.state == BookState::Resyncing)
            setState(BookState::Desynced);
        m_changed = true;
        return;
    }
    m_id = id;
    clearPending(true);
    m_retryDelayMs = kRetryMinMs;
    m_status.timeToSyncMs = m_syncStartMs >= 0 ? std::max<qint64>(0, nowMs - m_syncStartMs) : 0;
    m_syncStartMs = -1;
    if (m_lastAuditMs < 0)
        m_lastAuditMs = nowMs; // the first audit one period after the first sync
    setState(BookState::Synced);
    m_changed = true;
    checkCrossed();
}

void BookSync::tick(qint64 nowMs)
{
    if (m_inStream)
        streamTick(nowMs);
    if (m_status.state != BookState::Crossed) {
        m_crossedSinceMs = -1;
        return;
    }
    if (m_crossedSinceMs < 0) {
        m_crossedSinceMs = nowMs;
        return;
    }
    if (nowMs - m_crossedSinceMs >= kCrossedResyncMs) {
        const QString bid = fixedText(m_book.best(Side::Bid)->price);
        const QString ask = fixedText(m_book.best(Side::Ask)->price);
        desync(
            QStringLiteral("crossed for %1 s: best bid %2 ≥ best ask %3").arg(kCrossedResyncMs / 1000).arg(bid, ask));
    }
}

std::size_t BookSync::prune(std::size_t depth)
{
    if (depth == 0)
        return 0; // no limit
    const std::size_t dropped = m_book.pruneBeyond(Side::Bid, depth) + m_book.pruneBeyond(Side::Ask, depth);
    if (dropped)
        m_changed = true;
    return dropped;
}

// ---- the audit -----------------------------------------------------------------------------

bool BookSync::auditDue(qint64 nowMs, qint64 periodMs) const
{
    return periodMs > 0 && synced() && m_audit == AuditStage::None
        && (!m_inStream || m_rules.auditPoint(m_streamDepth) != AuditPoint::None)
        && (m_auditConfirming || m_lastAuditMs < 0 || nowMs - m_lastAuditMs >= periodMs);
}

void BookSync::auditRequested(qint64 nowMs)
{
    m_lastAuditMs = nowMs;
    if (!synced())
        return;
    clearPending(false);
    m_audit = AuditStage::Buffering;
    m_auditStartId = m_id;
    if (m_inStream)
        streamAuditRequested();
}

void BookSync::onAuditFailed()
{
    if (m_audit == AuditStage::None)
        return;
    m_audit = AuditStage::None;
    clearPending(false);
}

void BookSync::onAuditSnapshot(std::int64_t snapshotId, const std::vector<LevelChange> &levels)
{
    if (m_audit != AuditStage::Buffering || !synced())
        return;
    // A snapshot older than the book was when the audit began: the diffs between were not kept.
    if (snapshotId < m_auditStartId) {
        onAuditFailed();
        return;
    }
    if (!m_auditBook)
        m_auditBook = std::make_unique<OrderBook>(m_book.maxLevelsPerSide());
    load(*m_auditBook, levels);
    for (int s = 0; s < 2; ++s) {
        const Side side = Side(s);
        m_auditHasSide[s] = m_auditBook->levels(side) > 0;
        if (m_auditHasSide[s])
            m_auditWorst[s] = m_auditBook->at(side, m_auditBook->levels(side) - 1).price;
    }
    m_auditSnapshotId = snapshotId;
    m_audit = AuditStage::Comparing;
    tryCompleteAudit();
}

void BookSync::tryCompleteAudit()
{
    if (m_inStream && m_auditPoint == AuditPoint::Nearest) {
        tryCompleteNearest(false);
        return;
    }
    if (m_id < m_auditSnapshotId)
        return; // the snapshot is ahead of the book: compared once the book has reached it
    const bool expectFirst = m_expectFirst;
    std::int64_t id = m_auditSnapshotId;
    const bool continued = replay(*m_auditBook, m_auditSnapshotId, id);
    m_expectFirst = expectFirst;
    if (continued && id == m_id)
        compare();
    m_audit = AuditStage::None;
    clearPending(false);
}

void BookSync::compare()
{
    const OrderBook &venue = *m_auditBook;
    std::size_t compared = 0;
    std::size_t matched = 0;
    qint64 stale = 0;
    for (int s = 0; s < 2; ++s) {
        const Side side = Side(s);
        const std::size_t local = m_book.levels(side);
        const std::size_t theirs = venue.levels(side);
        const std::size_t n = std::min(kAuditTopLevels, std::max(local, theirs));
        for (std::size_t r = 0; r < n; ++r) {
            ++compared;
            if (r < local && r < theirs && m_book.at(side, r) == venue.at(side, r))
                ++matched;
        }
        // Stale: held here, within the snapshot's depth (no worse than its worst level), absent there.
        if (!m_auditHasSide[s])
            continue;
        const Fixed worst = m_auditWorst[s];
        for (std::size_t r = 0; r < local; ++r) {
            const Level &l = m_book.at(side, r);
            if (side == Side::Bid ? l.price < worst : l.price > worst)
                break;
            if (venue.quantity(side, l.price) == 0)
                ++stale;
        }
    }
    recordAudit(matched, compared, stale, false);
}

void BookSync::recordAudit(std::size_t matched, std::size_t compared, qint64 stale, bool nearest)
{
    const bool mismatch = matched != compared || stale > 0;
    if (mismatch && nearest && !m_auditConfirming) {
        // At the nearest, a level that changed more than once between two of the stream's
        // messages can differ: audited again at once, and counted if it still differs.
        m_auditConfirming = true;
        return;
    }
    m_auditConfirming = false;
    const double ratio = compared ? double(matched) / double(compared) : 1.0;
    ++m_status.audits;
    m_status.lastAuditMatchRatio = ratio;
    m_status.minAuditMatchRatio =
        m_status.minAuditMatchRatio < 0 ? ratio : std::min(m_status.minAuditMatchRatio, ratio);
    m_status.staleLevels = stale;
    m_changed = true;
    if (mismatch) {
        ++m_status.auditMismatches;
        desync(QStringLiteral("audit %1: %2 % of the top %3 levels a side match, %4 stale levels")
                   .arg(nearest ? QStringLiteral("at the nearest to the snapshot's %1").arg(m_auditSnapshotId)
                                : QStringLiteral("at update %1").arg(m_id))
                   .arg(std::floor(ratio * 1000.0) / 10.0)
                   .arg(kAuditTopLevels)
                   .arg(stale));
    }
}

const BookStatus &BookSync::status()
{
    m_status.bidLevels = int(m_book.levels(Side::Bid));
    m_status.askLevels = int(m_book.levels(Side::Ask));
    const auto bid = m_book.best(Side::Bid);
    const auto ask = m_book.best(Side::Ask);
    m_status.bestBid = bid ? bid->price : 0;
    m_status.bestAsk = ask ? ask->price : 0;
    return m_status;
}

} // namespace streamscope::book
