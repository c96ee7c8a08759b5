#pragma once

// A venue's rules for keeping a local order book, given by the venue's folder (Binance:
// venues/binance/BinanceBookRules) to a book keeper that knows no venue (BookSync,
// session/BookKeeper). Two kinds of venue:
//   - the snapshot over REST (Binance): diffs on the stream are buffered until a REST snapshot
//     starts the book; the rules say whether a snapshot can start it from the buffered diffs,
//     which buffered diffs it already holds, whether the first diff after it and each diff
//     after that continue the book (apply), are old (ignore) or show a gap (resync), and where
//     the snapshot is fetched, how deep, and what it costs in the venue's request weight;
//   - the snapshot in the stream (Bybit, OKX, Kraken, Coinbase): the venue sends a snapshot
//     message when the book is subscribed (and when it starts the book over), then updates; the
//     rules say which messages are which (classify()), whether each update continues the book
//     (next()), how deep the venue keeps it (streamDepth()) and, where the venue sends one, its
//     checksum of the book (checksummed(), checksum()). A book that lost sync gets a new
//     snapshot by resubscribing (the venue's handler does it, VenueHandler::resubscribeBook).
// In both, which messages are the book's and where their levels are (the decoder reads them).
//
// Thread contract: immutable; read from any thread (a venue's rules are static objects).

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QUrl>

#include <cstddef>
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

enum class SnapshotSource : std::uint8_t { Rest, Stream };
// Where an in-stream book's audit against the venue's REST snapshot compares them
// (docs/books.md, "The audit"): none (the venue has no REST snapshot to audit against), at the
// same update id (the snapshot's id is the stream's own), or at the nearest (the snapshot says
// the point it was taken at in a key the stream's messages carry too, AuditKeys::updateId read
// from each message as StreamMessage::auditKey: Bybit's cross sequence, OKX's timestamp).
enum class AuditPoint : std::uint8_t { None, SameId, Nearest };
// What a decoded data message is to a book.
enum class BookMessage : std::uint8_t { None, Diff, Snapshot };

// Where a message's or a snapshot's levels are. A level is a [price, quantity, ...] array
// (Binance, Bybit, OKX) or an object with a price and a quantity key (Kraken, Coinbase); a price
// or quantity is a string or a number, read as the text sent. The levels are under `bids` and
// `asks`, or all in one array under `levels` whose objects say their side under `side`
// (Coinbase: "bid" or "offer").
struct LevelKeys {
    std::string_view event;        // the key of an envelope's nested event ("data", an object or an
                                   // array whose first element is read); empty: the root
    std::string_view bids;         // "b"
    std::string_view asks;         // "a"
    std::string_view updateId;     // a snapshot's update id ("lastUpdateId"); empty in diffs
    std::string_view price = {};   // an object level's price key ("price"); empty: array levels
    std::string_view qty = {};     // and its quantity key ("qty")
    std::string_view levels = {};  // one array of both sides ("updates"); empty: bids and asks
    std::string_view side = {};    // its levels' side key ("side")
    std::string_view bidSide = {}; // the side's values ("bid", "offer")
    std::string_view askSide = {};
    std::string_view checksum = {}; // the venue's checksum of the book, an unsigned 32-bit integer
    // Every element of the `event` array an event of its own instrument, named under
    // `eventSymbol` ("product_id"), its kind under `eventKind` ("type") (Coinbase: one message
    // may carry several products' events); empty: the message's first element stands for it.
    std::string_view eventSymbol = {};
    std::string_view eventKind = {};
    // A REST answer's own status at its root: the venue's code (a number or a string) and its
    // message (Bybit "retCode"/"retMsg", OKX "code"/"msg"); empty: none.
    std::string_view errorCode = {};
    std::string_view errorMessage = {};
};

// A venue whose messages carry many instruments' ladders, two levels deep (Betfair: markets
// `mc[]`, each with its runners `rc[]`): one book per item, named `group/item` (plus `/sub` when
// the item's sub-key, Betfair's handicap `hc`, is not zero). What the keeper reads and how it
// treats it (session/BookLadders.cpp):
//   - messages of event type `messageType` only;
//   - a message whose `kindSlot` text is `imageKind` is an image of every group it carries, and
//     a group whose `groupImage` flag is true is an image of that group: it replaces the
//     group's ladders (its items not in the image are left empty); otherwise a group's items'
//     levels update their ladders, and a group with no image yet is dropped;
//   - a group's `version` (in its `definition` object) never goes back: a lower one desyncs the
//     group's books, except that within one image the same group twice keeps the higher;
//   - a message in segments (`segmentSlot`: `segmentStart` .. `segmentEnd`) that is an image is
//     applied whole at its end; one cut short desyncs the books it carried;
//   - levels are [price, size] under `bids`/`asks`, or with `positional` [position, price, size]
//     (a best-offers ladder of at most kMaxPositions places, each place set whole; size 0
//     empties it).
struct LadderLayout {
    static constexpr int kMaxPositions = 10;
    std::string_view messageType; // "mcm"
    std::string_view groups;      // "mc"
    std::string_view groupId;     // "id"
    std::string_view groupImage;  // "img"
    std::string_view definition;  // "marketDefinition"
    std::string_view version;     // "version"
    std::string_view items;       // "rc"
    std::string_view itemId;      // "id"
    std::string_view itemSub;     // "hc"
    std::string_view bids;        // "atb", "batb" or "bdatb"
    std::string_view asks;        // "atl", "batl" or "bdatl"
    bool positional = false;
    int kindSlot = -1; // the DecodedFields::texts slot of the message's kind
    std::string_view imageKind;
    int segmentSlot = -1;
    std::string_view segmentStart;
    std::string_view segmentEnd;
};

class OrderBook;

class BookRules {
public:
    virtual ~BookRules() = default;

    // Where the snapshot comes from.
    virtual SnapshotSource snapshotSource() const { return SnapshotSource::Rest; }
    // The event type of a diff (Binance "depthUpdate"): other events leave the book alone.
    // The REST venues' only test of a message; in-stream venues answer classify().
    virtual std::string_view diffEventType() const = 0;
    // In-stream venues: what a message of `eventType` (the decoded event type: Bybit's topic,
    // OKX's channel) is, given the text of its kindSlot() ("snapshot", "delta", "update"; empty
    // when absent) and its ids.
    virtual BookMessage classify(std::string_view eventType, std::string_view kind, const DiffIds &ids) const
    {
        (void)kind;
        (void)ids;
        return eventType == diffEventType() ? BookMessage::Diff : BookMessage::None;
    }
    // The DecodedFields::texts slot that says whether a message is a snapshot or an update;
    // -1: none.
    virtual int kindSlot() const { return -1; }
    // In-stream venues: the levels a side the venue keeps the book at, from the snapshot's event
    // type (Bybit's topic "orderbook.50.X" says it) or else the most levels a side of the
    // snapshot (the subscribed depth, which a thin book may not fill); levels beyond it are
    // dropped after every message (the venue sends no removal for a level that falls out of
    // it). 0: all of them.
    virtual std::size_t streamDepth(std::string_view eventType, std::size_t snapshotLevels) const
    {
        (void)eventType;
        (void)snapshotLevels;
        return 0;
    }
    // A venue that sends its checksum of the book with its messages (Kraken's CRC32), and that
    // checksum computed from `book`, whose prices and quantities the venue writes with
    // `priceDecimals` and `qtyDecimals` places.
    virtual bool checksummed() const { return false; }
    virtual std::uint32_t checksum(const OrderBook &book, int priceDecimals, int qtyDecimals) const
    {
        (void)book;
        (void)priceDecimals;
        (void)qtyDecimals;
        return 0;
    }

    // A venue of nested ladders (above); null: one instrument a message or event.
    virtual const LadderLayout *ladders() const { return nullptr; }

    virtual LevelKeys diffKeys() const = 0;
    virtual LevelKeys snapshotKeys() const = 0;

    // A snapshot whose update id is `snapshotId` can start the book from diffs buffered since
    // the first one, `firstBuffered`; false: it is older than that, fetch again.
    // (REST venues.)
    virtual bool snapshotUsable(std::int64_t snapshotId, const DiffIds &firstBuffered) const
    {
        (void)snapshotId;
        (void)firstBuffered;
        return true;
    }
    // A buffered diff the snapshot already holds: dropped. (REST venues.)
    virtual bool coveredBySnapshot(const DiffIds &diff, std::int64_t snapshotId) const
    {
        (void)diff;
        (void)snapshotId;
        return false;
    }
    // The first diff applied after the snapshot (one that is not covered). (REST venues.)
    virtual DiffAction firstAfterSnapshot(const DiffIds &diff, std::int64_t snapshotId) const
    {
        return next(diff, snapshotId);
    }
    // Every later diff, against the book's update id (the last applied diff's `last`; an
    // in-stream snapshot's own `last`).
    virtual DiffAction next(const DiffIds &diff, std::int64_t bookId) const = 0;

    // REST venues only (in-stream venues keep these defaults):
    // The REST base when the stream names none (its "rest_url"): the venue's host mapping.
    virtual QUrl defaultRestBase(const QUrl &streamUrl) const { return streamUrl; }
    // The snapshot request for `instrument` under `restBase`.
    virtual QUrl snapshotUrl(const QUrl &restBase, const QString &instrument) const
    {
        (void)instrument;
        return restBase;
    }
    // Levels a side the snapshot asks for; what one costs in request weight; the weight a
    // stream allows itself a minute (a share of the venue's limit per IP).
    virtual int snapshotDepth() const { return 0; }
    virtual int snapshotWeight() const { return 0; }
    virtual int weightPerMinute() const { return 0; }
    // The answer's header that says how much of the per-IP weight the last minute used (with
    // other clients of this machine), and that limit; empty: the venue sends none.
    virtual QByteArray usedWeightHeader() const { return {}; }
    virtual int ipWeightPerMinute() const { return 0; }
    // The venue asks to slow down with this HTTP status (Binance 429 and 418; Bybit's 403
    // "access too frequent" too): the seconds to pause when it sends no Retry-After; 0: not such
    // an answer.
    virtual int pauseSeconds(int httpStatus) const { return httpStatus == 429 || httpStatus == 418 ? 60 : 0; }

    // In-stream venues with a REST snapshot to audit against (Bybit, OKX; the others keep these
    // defaults: no audit). How a book kept at `streamDepth` levels a side (0: all) is compared.
    virtual AuditPoint auditPoint(std::size_t streamDepth) const
    {
        (void)streamDepth;
        return AuditPoint::None;
    }
    // The audit's snapshot request for `instrument` under `restBase`, from a stream at
    // `streamUrl` keeping `streamDepth` levels a side; empty: it cannot be asked (the stream's
    // URL does not say what the request needs), and `why` says so.
    virtual QUrl auditUrl(const QUrl &restBase, const QUrl &streamUrl, const QString &instrument,
                          std::size_t streamDepth, QString &why) const
    {
        (void)restBase;
        (void)streamUrl;
        (void)instrument;
        (void)streamDepth;
        why = QStringLiteral("the venue has no snapshot to audit against");
        return {};
    }
    // Where the audit's answer keeps its levels, its id (at `point`) and its own status.
    virtual LevelKeys auditKeys(AuditPoint point) const
    {
        (void)point;
        return snapshotKeys();
    }
    // The answer's status code (LevelKeys::errorCode, as the text sent) says success.
    virtual bool answerOk(std::string_view code) const { return code.empty() || code == "0"; }
};

} // namespace streamscope::book
