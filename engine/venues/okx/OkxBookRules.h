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
// The audit against REST (docs/books.md): GET /api/v5/market/books?instId=X&sz=N (N: the book's
// depth, at most 400), answered {"code":"0","msg":"","data":[{"asks":[..],"bids":[..],"ts":".."}]}.
// The answer carries no seqId ("books-full", refreshed once a second, none either): the book is
// compared at the nearest by "ts", the generation time both the answer and every book message
// carry. A "code" other than "0" fails the audit with its "msg". Within the IP limit of 40
// requests per 2 s (a stream keeps to half); a 429 pauses the stream's requests.
//
// Thread contract: an immutable static object.

#include "book/BookRules.h"
#include "venues/RestHosts.h"

namespace streamscope::okx {

// OKX's REST hosts for its stream hosts (the server time, the books' audit); docs/clock.md.
inline constexpr RestHost kRestHosts[] = {
    {"ws.okx.com", "www.okx.com"},
    {"wspap.okx.com", "www.okx.com"},
    {"wsaws.okx.com", "aws.okx.com"},
};

class OkxBookRules final : public book::BookRules {
public:
    static constexpr std::size_t kDepths[] = {1, 5, 50, 400};

    static const OkxBookRules &instance();

    book::SnapshotSource snapshotSource() const override { return book::SnapshotSource::Stream; }
    std::string_view diffEventType() const override { return "books"; } // a channel's prefix
    book::BookMessage classify(std::string_view eventType, std::string_view kind,
                               const book::DiffIds &ids) const override;
    int kindSlot() const override;
    // Each message's "ts" is read as its audit key (StreamMessage::auditKey).
    book::LevelKeys diffKeys() const override { return {"data", "bids", "asks", "ts"}; }
    book::LevelKeys snapshotKeys() const override { return diffKeys(); }
    book::DiffAction next(const book::DiffIds &diff, std::int64_t bookId) const override;
    std::size_t streamDepth(std::string_view eventType, std::size_t snapshotLevels) const override;

    // The audit against REST.
    static constexpr int kMaxLimit = 400;
    static constexpr int kIpRequestsPerMinute = 40 * 30;
    book::AuditPoint auditPoint(std::size_t) const override { return book::AuditPoint::Nearest; }
    QUrl defaultRestBase(const QUrl &streamUrl) const override;
    QUrl auditUrl(const QUrl &restBase, const QUrl &streamUrl, const QString &instrument, std::size_t streamDepth,
                  QString &why) const override;
    book::LevelKeys auditKeys(book::AuditPoint point) const override;
    int snapshotWeight() const override { return 1; }
    int weightPerMinute() const override { return kIpRequestsPerMinute / 2; }

private:
    OkxBookRules() = default;
};

} // namespace streamscope::okx
