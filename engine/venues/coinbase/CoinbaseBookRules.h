#pragma once

// Coinbase Advanced Trade's rules for a local order book ("level2", whose messages are
// "l2_data"; docs/books.md), given to the engine's book keeper as a BookRules. The snapshot comes
// in the stream: {"channel":"l2_data","timestamp":..,"sequence_num":N,"events":[{"type":
// "snapshot" | "update","product_id":..,"updates":[{"side":"bid" | "offer","event_time":..,
// "price_level":..,"new_quantity":..}]}]}. As Coinbase documents it:
//   - a snapshot (the whole book) starts the book over: a legal reset;
//   - an update sets each level's absolute quantity ("0" removes it);
//   - "sequence_num" counts every message of the connection, of every channel, heartbeats
//     included: a jump is a dropped message, which Coinbase does not resend. A book cannot see
//     that alone (its own messages skip the other channels' numbers): the venue's handler
//     follows the connection's count (CoinbaseVenue) and, at a jump, resubscribes and has the
//     connection's books resync (VenueHost::booksLost). The book itself takes an update whose
//     sequence_num did not pass its own (a repeat, or one that went back) for a gap.
// One message may carry several products' events: each goes to its product's book. Full depth:
// no cut.
//
// Thread contract: an immutable static object.

#include "book/BookRules.h"

namespace streamscope::coinbase {

class CoinbaseBookRules final : public book::BookRules {
public:
    static const CoinbaseBookRules &instance();

    book::SnapshotSource snapshotSource() const override { return book::SnapshotSource::Stream; }
    std::string_view diffEventType() const override { return "l2_data"; }
    book::BookMessage classify(std::string_view eventType, std::string_view kind,
                               const book::DiffIds &ids) const override;
    int kindSlot() const override;
    book::LevelKeys diffKeys() const override
    {
        return {.event = "events",
                .bids = {},
                .asks = {},
                .updateId = {},
                .price = "price_level",
                .qty = "new_quantity",
                .levels = "updates",
                .side = "side",
                .bidSide = "bid",
                .askSide = "offer",
                .checksum = {},
                .eventSymbol = "product_id",
                .eventKind = "type"};
    }
    book::LevelKeys snapshotKeys() const override { return diffKeys(); }
    book::DiffAction next(const book::DiffIds &diff, std::int64_t bookId) const override;

private:
    CoinbaseBookRules() = default;
};

} // namespace streamscope::coinbase
