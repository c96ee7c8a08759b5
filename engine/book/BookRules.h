#pragma once

// A venue's rules for keeping a local order book from a diff stream and a REST snapshot,
// given by the venue's folder (Binance: venues/binance/BinanceBookRules) to a book keeper that
// knows no venue (BookSync, session/BookKeeper):
//   - which events are diffs and where their levels are (the decoder reads them);
//   - whether a snapshot can start the book from the buffered diffs, which buffered diffs it
//     already holds, whether the first diff after it and each diff after that continue the
//     book (apply), are old (ignore) or show a gap (resync);
//   - where the snapshot is fetched, how deep, and what it costs in the venue's request weight.
//
// Thread contract: immutable; read from any thread (a venue's rules are static objects).

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QUrl>

#include <cstdint>
#include <string_view>

namespace streamscope::book {

// A diff event's sequence numbers, as the decoder read them (DecodedFields::kNone when absent).
struct DiffIds {
    std::int64_t first = INT64_MIN; // the first update the event covers (Binance U)
    std::int64_t last = INT64_MIN;  // the last (Binance u)
    std::int64_t prev = INT64_MIN;  // the previous event's last, where the venue says it (Binance futures pu)
};

enum class DiffAction : std::uint8_t { Apply, Ignore, Gap };

// Where a message's or a snapshot's levels are: arrays of [price, quantity] pairs of strings.
struct LevelKeys {
    std::string_view event;    // the key of an envelope's nested event ("data"); empty: the root
    std::string_view bids;     // "b"
    std::string_view asks;     // "a"
    std::string_view updateId; // a snapshot's update id ("lastUpdateId"); empty in diffs
};

class BookRules {
public:
    virtual ~BookRules() = default;

    // The event type of a diff (Binance "depthUpdate"): other events leave the book alone.
    virtual std::string_view diffEventType() const = 0;
    virtual LevelKeys diffKeys() const = 0;
    virtual LevelKeys snapshotKeys() const = 0;

    // A snapshot whose update id is `snapshotId` can start the book from diffs buffered since
    // the first one, `firstBuffered`; false: it is older than that, fetch again.
    virtual bool snapshotUsable(std::int64_t snapshotId, const DiffIds &firstBuffered) const = 0;
    // A buffered diff the snapshot already holds: dropped.
    virtual bool coveredBySnapshot(const DiffIds &diff, std::int64_t snapshotId) const = 0;
    // The first diff applied after the snapshot (one that is not covered).
    virtual DiffAction firstAfterSnapshot(const DiffIds &diff, std::int64_t snapshotId) const = 0;
    // Every later diff, against the book's update id (the last applied diff's `last`).
    virtual DiffAction next(const DiffIds &diff, std::int64_t bookId) const = 0;

    // The REST base when the stream names none (its "rest_url"): the venue's host mapping.
    virtual QUrl defaultRestBase(const QUrl &streamUrl) const = 0;
    // The snapshot request for `instrument` under `restBase`.
    virtual QUrl snapshotUrl(const QUrl &restBase, const QString &instrument) const = 0;
    // Levels a side the snapshot asks for; what one costs in request weight; the weight a
    // stream allows itself a minute (a share of the venue's limit per IP).
    virtual int snapshotDepth() const = 0;
    virtual int snapshotWeight() const = 0;
    virtual int weightPerMinute() const = 0;
    // The answer's header that says how much of the per-IP weight the last minute used (with
    // other clients of this machine), and that limit; empty: the venue sends none.
    virtual QByteArray usedWeightHeader() const { return {}; }
    virtual int ipWeightPerMinute() const { return 0; }
};

} // namespace streamscope::book
