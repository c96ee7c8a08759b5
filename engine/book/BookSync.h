#pragma once

// One instrument's local order book kept by its venue's rules (BookRules): the diffs buffered
// until a REST snapshot starts the book, every later diff applied or found to break the
// sequence, a book that crosses, a periodic audit against a fresh snapshot. It knows no
// network and no clock of its own: its keeper (session/BookKeeper) fetches the snapshots it
// asks for and hands it the times.
//
//   syncing ──snapshot──► synced ⇄ crossed
//                           │ a gap, an audit mismatch, crossed for kCrossedResyncMs,
//                           ▼ a level that does not fit
//                        desynced ──snapshot asked──► resyncing ──snapshot──► synced
// A failed fetch leaves the book desynced until the next try (kRetryMinMs, doubling to
// kRetryMaxMs). A reset (the connection went) starts it over as syncing, which is not a
// resync: the venue's sequence starts again with the connection.
//
// The audit (docs/books.md): diffs are buffered from the moment the audit's snapshot is asked
// for; when it arrives, the snapshot plus the buffered diffs after it is the venue's book at
// the local book's update id, so the two are compared at the same id, never the nearest. A
// snapshot older than the audit's start, or whose diffs do not continue it, leaves the audit
// inconclusive (not counted).
//
// In-stream venues (BookRules::snapshotSource() Stream: Bybit, OKX, Kraken, Coinbase) feed
// onStreamMessage() instead (BookStream.cpp): a snapshot message (re)starts the book, which is
// a legal reset, never a resync; an update before the first snapshot is dropped (the snapshot
// the subscription brings is newer); each later update is applied, ignored or found to break
// the book by the rules' next(); the book is cut to the venue's depth after every message and,
// where the venue sends a checksum, checked against it (a mismatch counts in checksumFailures
// and resyncs). A book that lost sync wants a snapshot like a REST book does; its keeper gets
// it by resubscribing (snapshotRequested() then), and one that has not come
// kStreamSnapshotTimeoutMs later is asked for again.
// Their audit (BookStreamAudit.cpp; venues whose rules name an AuditPoint: Bybit, OKX): at the
// same update id (Bybit's 1000-level book) it is the REST audit above; at the nearest, the book
// is copied when the audit's snapshot is asked for and every message after it kept with its
// audit key (StreamMessage::auditKey); when the snapshot comes (its key K), the copy is rolled
// forward through the kept messages up to K and compared price by price with the snapshot,
// a level that the next message changes matching with its value before or after it; a
// mismatch there is audited again at once and counted only when it still differs.
//
// Thread contract: the stream's worker only. onDiff() and onStreamMessage() are the hot path: it allocates nothing
// once synced unless an audit's buffer grows; buffering while syncing grows bounded buffers.

#include "BookRules.h"
#include "NearestAudit.h"
#include "OrderBook.h"
#include "model/BookStatus.h"

#include <memory>
#include <vector>

namespace streamscope::book {

struct LevelChange {
    Side side = Side::Bid;
    Fixed price = 0;
    Fixed qty = 0;
};

// One in-stream message's book fields, as its keeper read them.
struct StreamMessage {
    DiffIds ids;
    std::string_view eventType; // the decoded event type (Bybit's topic), valid during the call
    bool snapshot = false;
    bool hasChecksum = false;
    std::uint32_t checksum = 0;
    // The most decimal places its prices and its quantities were written with (checksums only).
    int priceDecimals = 0;
    int qtyDecimals = 0;
    // Where in the venue's sequence the message stands for an audit at the nearest (Bybit's
    // "seq", OKX's "ts"); INT64_MIN: not said.
    std::int64_t auditKey = INT64_MIN;
};

class BookSync {
public:
    static constexpr std::size_t kMaxPendingEvents = 4096;
    // Before its snapshot is asked for, a book keeps only its last few diffs: the snapshot will
    // hold every diff sent before it is asked for, and a stream whose instruments wait their
    // turn in the request weight (minutes, with hundreds of them) must not buffer them all.
    static constexpr std::size_t kMaxWaitingEvents = 8;
    static constexpr std::size_t kMaxPendingLevels = 256 * 1024;
    static constexpr std::size_t kAuditTopLevels = 20; // per side
    static constexpr qint64 kCrossedResyncMs = 1000;
    static constexpr qint64 kRetryMinMs = 1000;
    static constexpr qint64 kRetryMaxMs = 30000;
    static constexpr qint64 kStreamSnapshotTimeoutMs = 10000;
    // An audit at the nearest whose snapshot the book has reached with no message after it:
    // compared with the book as it is after this long (nothing changed in between).
    static constexpr qint64 kAuditSettleMs = 1000;

    BookSync(const BookRules &rules, const QString &instrument,
             std::size_t maxLevelsPerSide = OrderBook::kDefaultMaxLevels);

    // ---- the hot path ----
    // One diff event with its level changes, already exact.
    void onDiff(const DiffIds &ids, const LevelChange *changes, std::size_t count);
    // A diff whose levels could not be read exactly (FixedPoint.h): the book cannot follow.
    void onUnreadableDiff(const QString &why);
    // In-stream venues: one snapshot or update message with its level changes (BookStream.cpp).
    void onStreamMessage(const StreamMessage &message, const LevelChange *changes, std::size_t count);
    // The venue's handler found the book wrong (Coinbase: its connection's sequence broke) and
    // has already asked for a new snapshot: desynced, then resyncing.
    void lostByVenue(const QString &why, qint64 nowMs);
    // The venue's data broke the book whatever its state (a Betfair market's version went back,
    // its image was cut short): desynced, and resubscribed on the keeper's tick; nothing when a
    // new snapshot is already wanted or on its way.
    void onBroken(const QString &why);

    // ---- the keeper, off the hot path ----
    // A snapshot is wanted (REST: syncing, desynced or resyncing with a diff buffered; in-stream:
    // desynced; none in flight, the retry time reached).
    bool wantsSnapshot(qint64 nowMs) const;
    void snapshotRequested(qint64 nowMs);
    // `levels`: the snapshot's, any order.
    void onSnapshot(std::int64_t snapshotId, const std::vector<LevelChange> &levels, qint64 nowMs);
    void onSnapshotFailed(const QString &why, qint64 nowMs);
    // The connection went: every diff from now on is a new sequence.
    void reset();

    // An audit is due: synced, none running, `periodMs` since the last one (or the first sync).
    bool auditDue(qint64 nowMs, qint64 periodMs) const;
    void auditRequested(qint64 nowMs);
    void onAuditSnapshot(std::int64_t snapshotId, const std::vector<LevelChange> &levels);
    void onAuditFailed();
    bool auditing() const { return m_audit != AuditStage::None; }

    // Housekeeping: a book crossed for kCrossedResyncMs is resynced.
    void tick(qint64 nowMs);
    // The pruning policy (docs/books.md): each side keeps the `depth` levels nearest the top,
    // the depth its snapshots have. The venue sends no diff for a level beyond that depth that
    // does not change, so such a level would go stale. Returns the levels dropped; 0: no limit.
    std::size_t prune(std::size_t depth);

    const QString &instrument() const { return m_status.instrument; }
    BookState state() const { return m_status.state; }
    const OrderBook &book() const { return m_book; }
    std::int64_t updateId() const { return m_id; }
    bool inStream() const { return m_inStream; }
    // In-stream: the levels a side the venue keeps the book at (0: all), from its last snapshot.
    std::size_t streamDepth() const { return m_streamDepth; }
    // In-stream: the depth the venue said it keeps the book at (Kraken's subscribe answer),
    // which then stands instead of the rules' guess from the snapshot (BookRules::streamDepth).
    void setDepth(std::size_t levels);
    // The status with the current level counts.
    const BookStatus &status();
    // Something a snapshot shows changed since the last call.
    bool takeChanged()
    {
        const bool c = m_changed;
        m_changed = false;
        return c;
    }

private:
    struct Pending {
        DiffIds ids;
        std::uint32_t begin = 0;
        std::uint32_t count = 0;
        std::int64_t key = INT64_MIN; // in-stream: the message's audit key
        bool snapshot = false;        // in-stream: a snapshot message (the book started over)
    };
    enum class AuditStage : std::uint8_t { None = 0, Buffering, Comparing };

    bool synced() const { return m_status.state == BookState::Synced || m_status.state == BookState::Crossed; }
    void apply(OrderBook &book, const LevelChange *changes, std::size_t count);
    bool buffer(const DiffIds &ids, const LevelChange *changes, std::size_t count);
    void clearPending(bool release);
    void dropOldest();
    void desync(const QString &why);
    void setState(BookState s);
    void checkCrossed();
    void load(OrderBook &book, const std::vector<LevelChange> &levels);
    // Applies the buffered diffs after `snapshotId` to `book`; false at a gap. `id` ends as
    // the book's update id.
    bool replay(OrderBook &book, std::int64_t snapshotId, std::int64_t &id);
    void tryCompleteAudit();
    void compare();
    // The audit's figures: counted (a mismatch resyncs), or, at the nearest, a first mismatch
    // audited again at once.
    void recordAudit(std::size_t matched, std::size_t compared, qint64 stale, bool nearest);
    // In-stream audits (BookStreamAudit.cpp).
    void streamAuditRequested();
    void keepForAudit(const StreamMessage &message, const LevelChange *changes, std::size_t count);
    void tryCompleteNearest(bool settled);
    void auditTick(qint64 nowMs);
    void streamSnapshot(const StreamMessage &message, const LevelChange *changes, std::size_t count);
    void verifyChecksum(const StreamMessage &message);
    void streamTick(qint64 nowMs);

    const BookRules &m_rules;
    const bool m_inStream;
    OrderBook m_book;
    std::int64_t m_id = INT64_MIN;
    bool m_expectFirst = false; // the next diff is the first after the snapshot
    BookStatus m_status;
    bool m_changed = true;

    // Diffs buffered while syncing, or during an audit.
    std::vector<Pending> m_pending;
    std::vector<LevelChange> m_pendingLevels;
    bool m_overflowed = false;

    bool m_needSnapshot = true;
    bool m_fetching = false;
    qint64 m_retryAtMs = 0;
    qint64 m_retryDelayMs = kRetryMinMs;
    qint64 m_syncStartMs = -1;
    qint64 m_crossedSinceMs = -1;

    AuditStage m_audit = AuditStage::None;
    qint64 m_lastAuditMs = -1;
    std::int64_t m_auditStartId = INT64_MIN;
    std::int64_t m_auditSnapshotId = INT64_MIN;
    // In-stream books.
    std::size_t m_streamDepth = 0;
    std::size_t m_saidDepth = 0; // setDepth()
    int m_priceDecimals = 0;     // the most places seen since the snapshot (a checksum's formatting)
    int m_qtyDecimals = 0;
    qint64 m_requestedAtMs = -1;    // the resubscribe's time
    bool m_syncedSinceTick = false; // time to sync taken on the next tick (no clock on the hot path)

    // In-stream audits.
    AuditPoint m_auditPoint = AuditPoint::None;
    std::int64_t m_key = INT64_MIN;          // the last applied message's audit key
    std::unique_ptr<NearestAudit> m_nearest; // made at the first audit at the nearest, reused
    bool m_auditConfirming = false;          // a mismatch at the nearest, audited again

    std::unique_ptr<OrderBook> m_auditBook; // made at the first audit, reused
    Fixed m_auditWorst[2] = {0, 0};         // the snapshot's worst price a side
    bool m_auditHasSide[2] = {false, false};
};

} // namespace streamscope::book
