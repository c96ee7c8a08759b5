#pragma once

// Bybit's rules for a local order book (v5 public "orderbook.<depth>.<symbol>", spot and linear;
// docs/books.md), given to the engine's book keeper as a BookRules. The snapshot comes in the
// stream: {"topic":"orderbook.50.BTCUSDT","type":"snapshot" | "delta","ts":..,"data":{"s":..,
// "b":[["price","size"]],"a":[..],"u":..,"seq":..},"cts":..}. As Bybit documents it:
//   - a "snapshot" starts the book over, whenever it comes (after the subscription, and when
//     Bybit resends one); so does a message with "u" = 1, whatever its type (the service
//     restarted): both are legal resets, never resyncs;
//   - a "delta" sets each level's absolute size (0 removes it); its "u" is the book's + 1, else
//     the book has a gap (a "u" that went back too) and resyncs (resubscribed);
//   - level-1 books are snapshots only (one resent with the same "u" after 3 s unchanged).
// The book is cut to the topic's depth after every message (Bybit sends no removal for a level
// pushed beyond it); a topic without one, to the snapshot's size a side rounded up to the depths
// Bybit offers (kDepths). No checksum.
//
// Thread contract: an immutable static object.

#include "book/BookRules.h"

namespace streamscope::bybit {

class BybitBookRules final : public book::BookRules {
public:
    static constexpr std::size_t kDepths[] = {1, 50, 200, 500, 1000};

    static const BybitBookRules &instance();

    book::SnapshotSource snapshotSource() const override { return book::SnapshotSource::Stream; }
    std::string_view diffEventType() const override { return "orderbook."; } // a topic's prefix
    book::BookMessage classify(std::string_view eventType, std::string_view kind,
                               const book::DiffIds &ids) const override;
    int kindSlot() const override;
    book::LevelKeys diffKeys() const override { return {"data", "b", "a", {}}; }
    book::LevelKeys snapshotKeys() const override { return diffKeys(); }
    book::DiffAction next(const book::DiffIds &diff, std::int64_t bookId) const override;
    std::size_t streamDepth(std::string_view eventType, std::size_t snapshotLevels) const override;

private:
    BybitBookRules() = default;
};

} // namespace streamscope::bybit
