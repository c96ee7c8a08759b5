#pragma once

// One instrument's local order book as a snapshot shows it (docs/books.md): its state, how
// often it lost sync and why, crossed-book episodes, the REST audits and what they found, its
// size. A plain value type.

#include <QtCore/QString>

namespace streamscope {

// syncing (first sync: buffering diffs, waiting for the snapshot) → synced → desynced (known
// wrong: a gap, an audit mismatch, a book crossed too long, a level that does not fit; or a
// snapshot that could not be fetched) → resyncing (a new snapshot asked for) → synced;
// synced ⇄ crossed (best bid ≥ best ask).
enum class BookState : quint8 { Unknown = 0, Syncing, Synced, Resyncing, Desynced, Crossed };

inline const char *bookStateName(BookState s)
{
    switch (s) {
    case BookState::Syncing: return "syncing";
    case BookState::Synced: return "synced";
    case BookState::Resyncing: return "resyncing";
    case BookState::Desynced: return "desynced";
    case BookState::Crossed: return "crossed";
    case BookState::Unknown: break;
    }
    return "unknown";
}

struct BookStatus {
    QString instrument; // as the venue names it (Binance: the symbol, "BTCUSDT")
    BookState state = BookState::Unknown;
    quint64 resyncs = 0;               // times the book was found wrong and fetched again
    quint64 checksumFailures = 0;      // the venue's checksum did not match the book (venues that send one)
    quint64 crossedEpisodes = 0;       // times the book became crossed
    quint64 audits = 0;                // REST audits compared with the book
    quint64 auditMismatches = 0;       // of which did not match (then the book resyncs)
    double lastAuditMatchRatio = -1.0; // share of the top levels that matched at the last audit; -1 none yet
    double minAuditMatchRatio = -1.0;  // the lowest seen; -1 none yet
    qint64 staleLevels = 0;            // at the last audit: levels kept locally but absent from the snapshot
    int bidLevels = 0;
    int askLevels = 0;
    // The best bid and ask prices (exact, units of 10^-8 as model/BookDepth.h's kDepthUnit), 0
    // when that side is empty. Published with the book's other figures, and when only they moved
    // at most every BookKeeper::kPricePublishMs: the cross-venue comparison's mid (docs/venues.md).
    qint64 bestBid = 0;
    qint64 bestAsk = 0;
    qint64 timeToSyncMs = -1; // the last sync's duration, from asking for the snapshot to synced; -1 never synced
    QString lastResyncReason; // why it last lost sync (escaped peer text where it quotes the venue)
};

} // namespace streamscope
