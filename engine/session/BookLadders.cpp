#include "BookLadders.h"

#include "BookLevelReader.h"
#include "protocol/DecodedFields.h"

#include <algorithm>
#include <cstring>

namespace streamscope {

using book::LevelChange;
using book::Side;

namespace {

// Copies `text` into `to` when it fits, else leaves none.
template<std::size_t N>
std::uint8_t copyText(char (&to)[N], std::string_view text)
{
    if (text.empty() || text.size() > N)
        return 0;
    std::memcpy(to, text.data(), text.size());
    return std::uint8_t(text.size());
}

// A handicap as sent ("0", "0.0", "-1.5"): zero unless some digit is not.
bool nonZero(std::string_view text)
{
    return std::any_of(text.begin(), text.end(), [](char c) { return c >= '1' && c <= '9'; });
}

std::string_view slotText(const DecodedFields &f, int slot)
{
    return slot >= 0 && std::size_t(slot) < DecodedFields::kTexts ? f.texts[std::size_t(slot)] : std::string_view();
}

} // namespace

MessageDecoder::LadderKeys ladderDecoderKeys(const book::LadderLayout &l)
{
    return {l.groups, l.groupId, l.groupImage, l.definition, l.version,   l.items,
            l.itemId, l.itemSub, l.bids,       l.asks,       l.positional};
}

BookKeeper::Ladders::Ladders(BookKeeper &keeper, const book::LadderLayout &layout)
    : m_keeper(keeper)
    , m_layout(layout)
    , m_keys(ladderDecoderKeys(layout))
{
    m_groups.reserve(16);
    m_items.reserve(64);
    m_changes.reserve(1024);
    m_out.reserve(256);
}

void BookKeeper::Ladders::clearSlices()
{
    m_groups.clear();
    m_items.clear();
    m_changes.clear();
    m_skipGroup = m_skipItem = false;
    m_refused.clear();
}

void BookKeeper::Ladders::onData(const DecodedFields &fields, const MessageView &message)
{
    if (fields.eventType != m_layout.messageType)
        return;
    // The decoder's views do not outlive its next pass: what the message is, first.
    const bool wholeImage = !m_layout.imageKind.empty() && slotText(fields, m_layout.kindSlot) == m_layout.imageKind;
    const std::string_view segmentText = slotText(fields, m_layout.segmentSlot);
    const Segment segment = segmentText.empty() ? Segment::None
        : segmentText == m_layout.segmentStart  ? Segment::Start
        : segmentText == m_layout.segmentEnd    ? Segment::End
                                                : Segment::Middle;
    const std::int64_t updateId = fields.eventTime;
    if (m_gathering && (segment == Segment::None || segment == Segment::Start)) {
        breakGathered(QStringLiteral("a segmented image ended without its last segment"));
        m_gathering = false;
    }
    if (segment == Segment::Start)
        m_segmentOpen = true;
    const bool startSeen = m_segmentOpen;
    if (segment == Segment::End || segment == Segment::None)
        m_segmentOpen = false;
    if (!m_gathering) {
        clearSlices();
        if (wholeImage && segment != Segment::None) {
            m_gathering = true;
            m_gatherBroken = !startSeen; // a segment of an image whose first segment was not seen
        }
    }
    if (!m_keeper.m_decoder.decodeLadders(message, m_keys, *this)) {
        breakGathered(QStringLiteral("the message's ladders could not be read: ") + m_keeper.m_decoder.lastError());
        m_gathering = false;
        clearSlices();
        m_keeper.m_dirty = true;
        return;
    }
    if (m_gathering) {
        if (segment != Segment::End)
            return; // the image is whole at its last segment
        m_gathering = false;
        if (m_gatherBroken) {
            breakGathered(QStringLiteral("a segmented image without its first segment"));
            clearSlices();
            return;
        }
        apply(true, updateId);
    } else {
        apply(wholeImage, updateId);
    }
    clearSlices();
}

void BookKeeper::Ladders::connectionLost()
{
    if (m_gathering)
        breakGathered(QStringLiteral("the connection went during a segmented image"));
    m_gathering = false;
    m_segmentOpen = false;
    clearSlices();
}

// ---- the decoder's sink --------------------------------------------------------------------

void BookKeeper::Ladders::beginGroup()
{
    m_skipGroup = m_groups.size() >= kMaxGroups;
    if (m_skipGroup)
        return;
    Group g;
    g.firstItem = g.endItem = std::uint32_t(m_items.size());
    m_groups.push_back(g);
}

void BookKeeper::Ladders::groupId(std::string_view text)
{
    if (!m_skipGroup && !m_groups.empty())
        m_groups.back().idBytes = copyText(m_groups.back().id, text);
}

void BookKeeper::Ladders::groupImage(bool image)
{
    if (!m_skipGroup && !m_groups.empty())
        m_groups.back().image = image;
}

void BookKeeper::Ladders::groupVersion(std::int64_t version)
{
    if (!m_skipGroup && !m_groups.empty())
        m_groups.back().version = version;
}

void BookKeeper::Ladders::beginItem()
{
    m_skipItem = m_skipGroup || m_groups.empty() || m_items.size() >= kMaxItems;
    if (m_skipItem) {
        ++m_keeper.m_untracked;
        return;
    }
    Item item;
    item.begin = item.end = std::uint32_t(m_changes.size());
    m_items.push_back(item);
    m_groups.back().endItem = std::uint32_t(m_items.size());
}

void BookKeeper::Ladders::itemId(std::string_view text)
{
    if (!m_skipItem && !m_items.empty())
        m_items.back().idBytes = copyText(m_items.back().id, text);
}

void BookKeeper::Ladders::itemSub(std::string_view text)
{
    if (m_skipItem || m_items.empty())
        return;
    Item &item = m_items.back();
    item.subBytes = nonZero(text) ? copyText(item.sub, text) : 0;
    item.subTooLong = nonZero(text) && item.subBytes == 0;
}

void BookKeeper::Ladders::refuse(Item &item, const QString &why)
{
    item.refused = true;
    if (m_refused.isEmpty())
        m_refused = why;
}

void BookKeeper::Ladders::level(bool ask, std::string_view position, std::string_view price, std::string_view size)
{
    if (m_skipItem || m_items.empty())
        return;
    Item &item = m_items.back();
    if (item.refused)
        return;
    if (m_changes.size() >= kMaxChanges) {
        refuse(item, QStringLiteral("more than %1 levels in one message").arg(kMaxChanges));
        return;
    }
    Change c;
    c.side = ask ? Side::Ask : Side::Bid;
    if (m_layout.positional) {
        if (position.size() != 1 || position[0] < '0' || position[0] >= char('0' + kMaxPositions)) {
            refuse(item,
                   QStringLiteral("a ladder position that is not 0 to %1: \"%2\"")
                       .arg(kMaxPositions - 1)
                       .arg(peerText(QByteArrayView(position.data(), qsizetype(position.size())),
                                     LevelReader::kQuotedChars)));
            return;
        }
        c.position = std::int8_t(position[0] - '0');
    }
    const bool priceOk = book::parseFixed(price, c.price);
    if (!priceOk || !book::parseFixed(size, c.qty)) {
        const std::string_view bad = priceOk ? size : price;
        refuse(item,
               QStringLiteral("a %1 that is not an exact decimal of at most %2 places: \"%3\"")
                   .arg(priceOk ? QLatin1String("size") : QLatin1String("price"))
                   .arg(book::kDecimals)
                   .arg(peerText(QByteArrayView(bad.data(), qsizetype(bad.size())), LevelReader::kQuotedChars)));
        return;
    }
    m_changes.push_back(c);
    item.end = std::uint32_t(m_changes.size());
}

// ---- applying a message --------------------------------------------------------------------

BookKeeper::Ladders::Market *BookKeeper::Ladders::findMarket(const Group &g)
{
    const std::string_view id(g.id, g.idBytes);
    if (auto *item = m_markets.find(id))
        return &item->value;
    auto *item = m_markets.add(id);
    return item ? &item->value : nullptr;
}

BookKeeper::Ladders::Runner *BookKeeper::Ladders::runner(Market &market, const Group &g, const Item &item)
{
    if (item.idBytes == 0 || item.subTooLong) {
        ++m_keeper.m_untracked;
        return nullptr;
    }
    // group/item[/sub]: at most 2 × 32 + 16 + 2 characters; a longer name is refused by add().
    char name[2 * kMaxInstrumentChars + kSubChars + 2];
    std::size_t n = 0;
    std::memcpy(name, g.id, g.idBytes);
    n += g.idBytes;
    name[n++] = '/';
    std::memcpy(name + n, item.id, item.idBytes);
    n += item.idBytes;
    if (item.subBytes > 0) {
        name[n++] = '/';
        std::memcpy(name + n, item.sub, item.subBytes);
        n += item.subBytes;
    }
    const std::string_view symbol(name, n);
    if (auto *found = m_runners.find(symbol))
        return &found->value;
    Entry *entry = m_keeper.find(symbol);
    if (!entry)
        entry = m_keeper.add(symbol);
    auto *added = entry ? m_runners.add(symbol) : nullptr;
    if (!added) {
        ++m_keeper.m_untracked;
        return nullptr;
    }
    added->value.sync = entry->sync.get();
    market.runners.push_back(&added->value);
    return &added->value;
}

void BookKeeper::Ladders::apply(bool wholeImage, std::int64_t updateId)
{
    ++m_message;
    for (const Group &g : m_groups) {
        Market *m = g.idBytes ? findMarket(g) : nullptr;
        if (!m) {
            m_keeper.m_untracked += g.endItem - g.firstItem;
            continue;
        }
        const bool image = wholeImage || g.image;
        if (g.version != DecodedFields::kNone) {
            if (image && m->imageMessage == m_message) {
                if (g.version < m->version)
                    continue; // the same market twice in one image: the higher version stays
            } else if (!wholeImage && m->imaged && m->version != DecodedFields::kNone && g.version < m->version) {
                breakMarket(*m,
                            QStringLiteral("market %1: version %2 after %3")
                                .arg(QLatin1String(g.id, g.idBytes))
                                .arg(g.version)
                                .arg(m->version));
                continue;
            }
            m->version = g.version;
        }
        if (image)
            loadMarket(*m, g, updateId);
        else
            updateMarket(*m, g, updateId);
    }
    m_keeper.m_dirty = true;
}

void BookKeeper::Ladders::loadMarket(Market &market, const Group &g, std::int64_t updateId)
{
    market.imaged = true;
    market.imageMessage = m_message;
    const quint64 loadId = ++m_load;
    for (std::uint32_t i = g.firstItem; i < g.endItem; ++i) {
        if (Runner *r = runner(market, g, m_items[i])) {
            r->load = loadId;
            load(*r, &m_items[i], updateId);
        }
    }
    // The market's runners the image does not carry have empty ladders.
    for (Runner *r : market.runners) {
        if (r->load != loadId) {
            r->load = loadId;
            load(*r, nullptr, updateId);
        }
    }
}

void BookKeeper::Ladders::updateMarket(Market &market, const Group &g, std::int64_t updateId)
{
    for (std::uint32_t i = g.firstItem; i < g.endItem; ++i) {
        const Item &item = m_items[i];
        if (item.begin == item.end && !item.refused)
            continue; // no ladder change (a last traded price, a volume)
        Runner *r = runner(market, g, item);
        if (!r || !market.imaged)
            continue; // no image of the market yet: its books wait, syncing
        if (r->sync->state() == BookState::Syncing)
            load(*r, &item, updateId); // a runner new to the market starts empty
        else
            update(*r, item, updateId);
    }
}

// An image of one runner's ladder (none: empty).
void BookKeeper::Ladders::load(Runner &r, const Item *item, std::int64_t updateId)
{
    if (item && item->refused) {
        r.sync->onBroken(m_refused);
        return;
    }
    m_out.clear();
    std::fill(&r.places[0][0], &r.places[0][0] + 2 * kMaxPositions, book::Level{});
    for (std::uint32_t k = item ? item->begin : 0; item && k < item->end; ++k) {
        const Change &c = m_changes[k];
        if (c.position >= 0)
            r.places[int(c.side)][c.position] = book::Level{c.price, c.qty};
        else if (c.qty != 0)
            m_out.push_back(LevelChange{c.side, c.price, c.qty});
    }
    if (m_layout.positional) {
        for (int s = 0; s < 2; ++s)
            for (const book::Level &l : r.places[s])
                if (l.qty != 0)
                    m_out.push_back(LevelChange{Side(s), l.price, l.qty});
    }
    book::StreamMessage m;
    m.ids.last = updateId;
    m.eventType = m_layout.messageType;
    m.snapshot = true;
    r.sync->onStreamMessage(m, m_out.data(), m_out.size());
}

void BookKeeper::Ladders::update(Runner &r, const Item &item, std::int64_t updateId)
{
    if (item.refused) {
        r.sync->onUnreadableDiff(m_refused);
        return;
    }
    m_out.clear();
    if (m_layout.positional) {
        // A side's places that changed: their old prices go, the places as they are now are set.
        bool changed[2] = {false, false};
        for (std::uint32_t k = item.begin; k < item.end; ++k)
            changed[int(m_changes[k].side)] = true;
        for (int s = 0; s < 2; ++s)
            if (changed[s])
                for (const book::Level &l : r.places[s])
                    if (l.qty != 0)
                        m_out.push_back(LevelChange{Side(s), l.price, 0});
        for (std::uint32_t k = item.begin; k < item.end; ++k) {
            const Change &c = m_changes[k];
            r.places[int(c.side)][c.position] = c.qty != 0 ? book::Level{c.price, c.qty} : book::Level{};
        }
        for (int s = 0; s < 2; ++s)
            if (changed[s])
                for (const book::Level &l : r.places[s])
                    if (l.qty != 0)
                        m_out.push_back(LevelChange{Side(s), l.price, l.qty});
    } else {
        for (std::uint32_t k = item.begin; k < item.end; ++k)
            m_out.push_back(LevelChange{m_changes[k].side, m_changes[k].price, m_changes[k].qty});
    }
    book::StreamMessage m;
    m.ids.last = updateId;
    m.eventType = m_layout.messageType;
    r.sync->onStreamMessage(m, m_out.data(), m_out.size());
}

void BookKeeper::Ladders::breakMarket(Market &market, const QString &why)
{
    market.imaged = false;
    for (Runner *r : market.runners)
        r->sync->onBroken(why);
    m_keeper.m_dirty = true;
}

// The markets of a segmented image that did not arrive whole: their books are made if they are
// new, and broken (resubscribed on the tick).
void BookKeeper::Ladders::breakGathered(const QString &why)
{
    for (const Group &g : m_groups) {
        Market *m = g.idBytes ? findMarket(g) : nullptr;
        if (!m)
            continue;
        for (std::uint32_t i = g.firstItem; i < g.endItem; ++i)
            runner(*m, g, m_items[i]);
        breakMarket(*m, why);
    }
}

} // namespace streamscope
