#pragma once

// BookKeeper's books of a venue whose messages carry many instruments' ladders two levels deep
// (book::LadderLayout; Betfair: markets `mc[]` of runners `rc[]`, docs/books.md "Betfair's
// rules"): one book per group and item (`1.23456789/47972`, plus `/hc` for a non-zero handicap),
// kept by BookSync's in-stream half. Per message: MessageDecoder::decodeLadders reads the groups,
// items and levels into reused slices (this is its sink; at most kMaxGroups groups and kMaxItems
// items a message, kMaxChanges levels), then each group is applied:
//   - an image (the message's kind, or the group's flag) replaces the group's ladders: each
//     item's book is loaded from its levels as an in-stream snapshot, the group's other books
//     left empty;
//   - otherwise the items' levels update their books; a group with no image yet is dropped
//     (its books made, and left syncing); an item new to an imaged group starts empty;
//   - a group's version never goes back: a lower one breaks its books (BookSync::onBroken),
//     which the keeper's tick then resubscribes (the venue's handler); within one image the same
//     group twice keeps the higher version; an image of the whole subscription (the message's
//     kind) starts the versions over;
//   - positional ladders (best offers, [position, price, size]) are kept per item as their
//     places, and a side that changed is handed to the book as the removal of its old places'
//     prices and the setting of its new ones;
//   - an image in segments is gathered whole (the slices grow over its segments, within the same
//     bounds) and applied at its last segment; one cut short (another message, a new start, the
//     connection gone) breaks the books of the groups it carried.
// The connection going keeps the ladders: the venue's handler resumes the subscription from its
// last clock and the venue's next message (Betfair's RESUB_DELTA) brings them up to date.
//
// Thread contract: the stream's worker, as BookKeeper. onData() is the hot path: the slices,
// the groups' and items' tables and the level vector are reused; a book, a group and an item
// entry are allocated once each.

#include "BookKeeper.h"
#include "protocol/DecodedFields.h"

namespace streamscope {

// The keys MessageDecoder::decodeLadders reads for a venue's ladders (its BookRules::ladders()).
MessageDecoder::LadderKeys ladderDecoderKeys(const book::LadderLayout &layout);

class BookKeeper::Ladders final : public MessageDecoder::LadderSink {
public:
    static constexpr std::size_t kMaxGroups = kMaxInstruments; // a message's (a segmented image's)
    static constexpr std::size_t kMaxItems = kMaxInstruments;
    static constexpr std::size_t kMaxChanges = book::BookSync::kMaxPendingLevels;
    static constexpr int kMaxPositions = book::LadderLayout::kMaxPositions;

    Ladders(BookKeeper &keeper, const book::LadderLayout &layout);

    void onData(const DecodedFields &fields, const MessageView &message);
    void connectionLost();

    void beginGroup() override;
    void groupId(std::string_view text) override;
    void groupImage(bool image) override;
    void groupVersion(std::int64_t version) override;
    void beginItem() override;
    void itemId(std::string_view text) override;
    void itemSub(std::string_view text) override;
    void level(bool ask, std::string_view position, std::string_view price, std::string_view size) override;

private:
    static constexpr std::size_t kSubChars = 16;
    struct Group {
        char id[kMaxInstrumentChars] = {};
        std::uint8_t idBytes = 0; // 0: none, or too long to be one of ours
        bool image = false;
        std::int64_t version = DecodedFields::kNone;
        std::uint32_t firstItem = 0;
        std::uint32_t endItem = 0;
    };
    struct Item {
        char id[kMaxInstrumentChars] = {};
        std::uint8_t idBytes = 0;
        char sub[kSubChars] = {};
        std::uint8_t subBytes = 0; // 0: none, zero, or too long
        bool subTooLong = false;
        bool refused = false; // a level that does not fit (m_refused says why)
        std::uint32_t begin = 0;
        std::uint32_t end = 0;
    };
    struct Change {
        book::Side side = book::Side::Bid;
        std::int8_t position = -1; // -1: by price
        book::Fixed price = 0;
        book::Fixed qty = 0;
    };
    struct Runner;
    struct Market {
        std::int64_t version = DecodedFields::kNone;
        bool imaged = false;
        quint64 imageMessage = 0; // the message whose image it was last in
        std::vector<Runner *> runners;
    };
    struct Runner {
        book::BookSync *sync = nullptr;
        quint64 load = 0; // the image load that last set it
        book::Level places[2][kMaxPositions] = {};
    };
    enum class Segment : std::uint8_t { None, Start, Middle, End };

    void clearSlices();
    void apply(bool wholeImage, std::int64_t updateId);
    Market *findMarket(const Group &g);
    Runner *runner(Market &market, const Group &g, const Item &item);
    void loadMarket(Market &market, const Group &g, std::int64_t updateId);
    void updateMarket(Market &market, const Group &g, std::int64_t updateId);
    void load(Runner &r, const Item *item, std::int64_t updateId);
    void update(Runner &r, const Item &item, std::int64_t updateId);
    void breakMarket(Market &market, const QString &why);
    void breakGathered(const QString &why);
    void refuse(Item &item, const QString &why);

    BookKeeper &m_keeper;
    const book::LadderLayout &m_layout;
    const MessageDecoder::LadderKeys m_keys;
    InstrumentIndex<Market> m_markets;
    InstrumentIndex<Runner> m_runners;

    // The current message's (or segmented image's) slices, reused.
    std::vector<Group> m_groups;
    std::vector<Item> m_items;
    std::vector<Change> m_changes;
    bool m_skipGroup = false;
    bool m_skipItem = false;
    QString m_refused;                    // the message's first level that did not fit
    std::vector<book::LevelChange> m_out; // one book's changes, reused

    bool m_segmentOpen = false;  // a segmented message between its first segment and its last
    bool m_gathering = false;    // an image in segments, gathered until its last
    bool m_gatherBroken = false; // the first segment of its message was not seen
    quint64 m_message = 0;       // messages applied
    quint64 m_load = 0;          // market images loaded
};

} // namespace streamscope
