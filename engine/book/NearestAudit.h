#pragma once

// An in-stream book's audit at the nearest (docs/books.md, "The audit"), for a venue whose REST
// snapshot shares no update id with the stream (Bybit's depths below 1000, OKX): the book as it
// was when the snapshot was asked for, rolled forward through the messages applied since up to
// the snapshot's point, then compared with the snapshot price by price, a level that the next
// message changes matching with its value before or after it. BookSync keeps the messages and
// decides when (BookStreamAudit.cpp); this holds the copy and compares.
//
// Thread contract: a plain value of one BookSync, on the stream's worker.

#include "OrderBook.h"

#include <QtCore/QtGlobal>

#include <cstddef>

namespace streamscope::book {

struct LevelChange;

// One kept message: its levels, and whether it was a snapshot (the book started over).
struct KeptMessage {
    const LevelChange *levels = nullptr;
    std::size_t count = 0;
    bool snapshot = false;
};

// What an audit found: of the levels compared, how many matched; the stale levels.
struct AuditFigures {
    std::size_t matched = 0;
    std::size_t compared = 0;
    qint64 stale = 0;
};

class NearestAudit {
public:
    explicit NearestAudit(std::size_t maxLevelsPerSide);

    // The audit begins: the book as it is now.
    void begin(const OrderBook &book);
    // A kept message at or before the snapshot's point, applied as the book applied it (cut to
    // `depth` levels a side, 0: none).
    void rollForward(const KeptMessage &message, std::size_t depth);
    // The copy against `venue`: the prices of the best `top` levels a side of either, each once,
    // match when the venue's quantity (0: absent) is the copy's or what `next` (the first kept
    // message after the snapshot's point; null: none yet) set it to. Stale: the copy's levels no
    // worse than the venue's worst, absent there and not changed by `next`.
    AuditFigures compare(const OrderBook &venue, const KeptMessage *next, std::size_t top) const;

    std::size_t rolled = 0;  // kept messages rolled into the copy
    qint64 waitSinceMs = -1; // the snapshot's point reached with no message after it, since

private:
    // Whether `message` sets the level at `price` (a snapshot sets every level: those it does
    // not hold to 0), and to what.
    static bool changedBy(const KeptMessage &message, Side side, Fixed price, Fixed &qty);

    OrderBook m_local;
};

} // namespace streamscope::book
