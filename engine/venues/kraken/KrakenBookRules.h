#pragma once

// Kraken's rules for a local order book (WebSocket v2 "book" channel; docs/books.md), given to
// the engine's book keeper as a BookRules. The snapshot comes in the stream: {"channel":"book",
// "type":"snapshot" | "update","data":[{"symbol":..,"bids":[{"price":..,"qty":..}],"asks":[..],
// "checksum":..,"timestamp":..}]}, prices and quantities JSON numbers written with all their
// places. As Kraken documents it:
//   - a snapshot starts the book; each update's levels are applied in the order sent (a
//     quantity of 0 removes the level), then the book is cut to the subscribed depth (Kraken
//     sends no removal for a level pushed out of it);
//   - then the CRC32 of the top 10 asks (best first, ascending) and the top 10 bids (best first,
//     descending), each level its price then its quantity, each written with the places Kraken
//     writes them with, the '.' and the leading zeros removed, is the message's "checksum";
//   - spot books carry no sequence number.
// The subscribed depth is not in the messages: the subscribe answer says it (KrakenVenue tells
// the book keeper, BookSync::setDepth); without one, streamDepth() guesses it as the snapshot's
// size a side rounded up to the depths Kraken offers (kDepths; a book thinner than the depth
// below its own gives a smaller one, and then mismatches and resyncs). The places a price or a quantity is written with are
// the most seen since the snapshot (Kraken writes every level with the instrument's precision).
//
// Thread contract: an immutable static object.

#include "book/BookRules.h"

namespace streamscope::kraken {

class KrakenBookRules final : public book::BookRules {
public:
    static constexpr std::size_t kDepths[] = {10, 25, 100, 500, 1000};
    static constexpr std::size_t kChecksumLevels = 10; // per side

    static const KrakenBookRules &instance();

    book::SnapshotSource snapshotSource() const override { return book::SnapshotSource::Stream; }
    std::string_view diffEventType() const override { return "book"; }
    book::BookMessage classify(std::string_view eventType, std::string_view kind,
                               const book::DiffIds &ids) const override;
    int kindSlot() const override;
    book::LevelKeys diffKeys() const override
    {
        return {.event = "data",
                .bids = "bids",
                .asks = "asks",
                .updateId = {},
                .price = "price",
                .qty = "qty",
                .checksum = "checksum"};
    }
    book::LevelKeys snapshotKeys() const override { return diffKeys(); }
    book::DiffAction next(const book::DiffIds &diff, std::int64_t bookId) const override;
    std::size_t streamDepth(std::string_view eventType, std::size_t snapshotLevels) const override;
    bool checksummed() const override { return true; }
    std::uint32_t checksum(const book::OrderBook &book, int priceDecimals, int qtyDecimals) const override;

private:
    KrakenBookRules() = default;
};

} // namespace streamscope::kraken
