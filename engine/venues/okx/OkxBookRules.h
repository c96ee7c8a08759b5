#pragma once

// OKX's rules for a local order book (v5 public "books", "books5", "bbo-tbt", "books-l2-tbt",
// "books50-l2-tbt"; docs/books.md), given to the engine's book keeper as a BookRules. The
// snapshot comes in the stream: {"arg":{"channel":"books","instId":..},"action":"snapshot" |
// "update","data":[{"asks":[["price","size","0","orders"]],"bids":[..],"ts":..,"checksum":..,
// "prevSeqId":..,"seqId":..}]}. As OKX documents it:
//   - a snapshot (prevSeqId -1) starts the book over, whatever its seqId: a legal reset;
//     "books5" and "bbo-tbt" send no "action": each of their pushes is a whole book;
//   - an update sets each level's absolute size (0 removes it) and continues the book when its
//     prevSeqId is the book's seqId; that holds too for the update with no change sent after
//     about 60 s idle (seqId = prevSeqId) and for a maintenance reset (seqId below prevSeqId:
//     the chain goes on from the new seqId); any other prevSeqId is a gap, and the book
//     resyncs (resubscribed);
//   - the "checksum" field has been deprecated (0 since mid-2026): it is not read.
// The book is cut to its channel's depth ("books" 400, "books50-l2-tbt" 50, "books5" 5,
// "bbo-tbt" 1); another channel's, to the snapshot's size a side rounded up to those (kDepths).
//
// Thread contract: an immutable static object.

#include "book/BookRules.h"

namespace streamscope::okx {

class OkxBookRules final : public book::BookRules {
public:
    static constexpr std::size_t kDepths[] = {1, 5, 50, 400};

    static const OkxBookRules &instance();

    book::SnapshotSource snapshotSource() const override { return book::SnapshotSource::Stream; }
    std::string_view diffEventType() const override { return "books"; } // a channel's prefix
    book::BookMessage classify(std::string_view eventType, std::string_view kind,
                               const book::DiffIds &ids) const override;
    int kindSlot() const override;
    book::LevelKeys diffKeys() const override { return {"data", "bids", "asks", {}}; }
    book::LevelKeys snapshotKeys() const override { return diffKeys(); }
    book::DiffAction next(const book::DiffIds &diff, std::int64_t bookId) const override;
    std::size_t streamDepth(std::string_view eventType, std::size_t snapshotLevels) const override;

private:
    OkxBookRules() = default;
};

} // namespace streamscope::okx
