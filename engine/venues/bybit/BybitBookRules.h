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
// The audit against REST (docs/books.md): GET /v5/market/orderbook?category=spot|linear&symbol=S
// &limit=N (N: the book's depth, at most 200 for spot and 500 for linear and inverse), answered
// {"retCode":0,"retMsg":"OK","result":{"s":..,"b":[..],"a":[..],"ts":..,"u":..,"seq":..}}. Its
// "u" is the update id of the 1000-level stream: a book of "orderbook.1000" is compared at the
// same update id; a book of another depth, whose "u" counts its own pushes, at the nearest by
// "seq" (the cross sequence both carry). The category is the stream URL's last path segment
// (/v5/public/spot). A "retCode" other than 0 fails the audit with its "retMsg". Within the
// IP limit of 600 requests per 5 s (a stream keeps to half); a 403 ("access too frequent":
// Bybit asks for at least 10 minutes) or a 429 pauses the stream's requests.
//
// Thread contract: an immutable static object.

#include "book/BookRules.h"
#include "venues/RestHosts.h"

namespace streamscope::bybit {

// Bybit's REST hosts for its stream hosts (the server time, the books' audit); docs/clock.md.
inline constexpr RestHost kRestHosts[] = {
    {"stream.bybit.com", "api.bybit.com"},
    {"stream-testnet.bybit.com", "api-testnet.bybit.com"},
};

class BybitBookRules final : public book::BookRules {
public:
    static constexpr std::size_t kDepths[] = {1, 50, 200, 500, 1000};

    static const BybitBookRules &instance();

    book::SnapshotSource snapshotSource() const override { return book::SnapshotSource::Stream; }
    std::string_view diffEventType() const override { return "orderbook."; } // a topic's prefix
    book::BookMessage classify(std::string_view eventType, std::string_view kind,
                               const book::DiffIds &ids) const override;
    int kindSlot() const override;
    // Each message's "seq" is read as its audit key (StreamMessage::auditKey).
    book::LevelKeys diffKeys() const override { return {"data", "b", "a", "seq"}; }
    book::LevelKeys snapshotKeys() const override { return diffKeys(); }
    book::DiffAction next(const book::DiffIds &diff, std::int64_t bookId) const override;
    std::size_t streamDepth(std::string_view eventType, std::size_t snapshotLevels) const override;

    // The audit against REST.
    static constexpr std::size_t kSameIdDepth = 1000; // the stream depth REST's "u" belongs to
    static constexpr int kSpotLimit = 200;
    static constexpr int kContractLimit = 500;
    static constexpr int kIpRequestsPerMinute = 600 * 12;
    bool coveredBySnapshot(const book::DiffIds &diff, std::int64_t snapshotId) const override;
    book::AuditPoint auditPoint(std::size_t streamDepth) const override;
    QUrl defaultRestBase(const QUrl &streamUrl) const override;
    QUrl auditUrl(const QUrl &restBase, const QUrl &streamUrl, const QString &instrument, std::size_t streamDepth,
                  QString &why) const override;
    book::LevelKeys auditKeys(book::AuditPoint point) const override;
    int snapshotWeight() const override { return 1; }
    int weightPerMinute() const override { return kIpRequestsPerMinute / 2; }
    int pauseSeconds(int httpStatus) const override;

private:
    BybitBookRules() = default;
};

} // namespace streamscope::bybit
