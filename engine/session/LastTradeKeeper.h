#pragma once

// Each instrument's last trade price on one stream, for the comparison across venues
// (docs/venues.md, "One instrument across venues"). It exists only while the stream has an
// instrument that another stream also has (the comparison, services/alerts/CrossVenueMonitor,
// says which, through Engine::setLastTradeInstruments): without one the router holds no keeper
// and a message costs nothing more. With one, a data message whose event type is one of the
// venue's trade types (its DecodeSpec's TradeSpec) and that names a wanted instrument, or none
// (its trades name theirs: Coinbase), is read a second time for its trades' prices
// (MessageDecoder::decodeTrades); each price is kept exact (book/FixedPoint.h, 10^-8 units).
// Published on the tick when a price changed, at most every kPublishMs.
//
// The instruments are InstrumentIndex's (its bound and name rule); whether one is wanted is
// decided once, when it is first seen or the wanted set changes, by its normalised name
// (model/InstrumentSymbol.h, with the user's aliases).
//
// Thread contract: the stream's worker only. onData() is the hot path: a compare of the event
// type, a hash lookup by a view of the symbol, and for a wanted one the second walk; no
// allocation once the instrument is known, no lock, no log. setWanted() and tick() run off it.

#include "InstrumentIndex.h"
#include "model/InstrumentSymbol.h"
#include "model/LastTrade.h"
#include "protocol/MessageDecoder.h"

#include <QtCore/QSet>
#include <QtCore/QVector>

#include <algorithm>
#include <array>
#include <string_view>

namespace streamscope {

struct DecodedFields;
struct MessageView;
struct TradeSpec;

class LastTradeKeeper final : private MessageDecoder::TradeSink {
public:
    static constexpr qint64 kPublishMs = 250;

    explicit LastTradeKeeper(const TradeSpec &spec);

    // The normalised names wanted and the aliases that resolve the venue's spellings to them; an
    // instrument no longer wanted loses its price.
    void setWanted(const QSet<QString> &names, const InstrumentAliases &aliases);
    bool wantsAny() const { return !m_wanted.isEmpty(); }

    // A decoded data message (`message` its padded whole), received at `wallMs`.
    void onData(const DecodedFields &fields, const MessageView &message, MessageDecoder &decoder, qint64 wallMs)
    {
        if (!m_spec.matches(fields.eventType))
            return;
        if (!fields.symbol.empty()) {
            const Index::Item *item = lookUp(fields.symbol);
            // The message's own instrument is not wanted: unless its trades name others (a
            // batch of several), it is not read.
            if ((!item || !item->value.wanted) && !fields.batch)
                return;
        }
        // The decoder's views of strings die with its next walk: the symbol is kept here (a longer
        // one is no instrument name, InstrumentIndex.h).
        const std::size_t n = fields.symbol.size() <= m_symbol.size() ? fields.symbol.size() : 0;
        std::copy_n(fields.symbol.data(), n, m_symbol.data());
        m_message = std::string_view(m_symbol.data(), n);
        m_wallMs = wallMs;
        ++m_stamp;
        decoder.decodeTrades(message, m_spec, *this);
    }

    // On the tick (monotonic ms): true when the prices should be published (changed, at most
    // every kPublishMs, or the wanted set changed).
    bool tick(qint64 nowMs);
    // The wanted instruments that had a trade, in the order first seen.
    QVector<LastTrade> prices() const;

private:
    struct Entry {
        qint64 price = 0; // 0: no trade yet
        quint64 trades = 0;
        qint64 receivedMs = 0;
        quint64 stamp = 0; // the message that last set it
        bool wanted = false;
    };
    using Index = InstrumentIndex<Entry>;

    void trade(std::string_view symbol, std::string_view price) override;
    // The instrument, added when first seen (null beyond the bound or a name not taken).
    Index::Item *lookUp(std::string_view symbol)
    {
        Index::Item *item = m_index.find(symbol);
        return item ? item : add(symbol);
    }
    Index::Item *add(std::string_view symbol);
    bool wanted(const QByteArray &symbol) const;

    const TradeSpec &m_spec;
    Index m_index;
    QSet<QString> m_wanted;
    InstrumentAliases m_aliases;
    std::array<char, kMaxInstrumentChars> m_symbol{};
    std::string_view m_message; // the symbol of the message being read, in m_symbol
    qint64 m_wallMs = 0;
    quint64 m_stamp = 0;
    qint64 m_publishedMs = -1;
    bool m_dirty = false;
};

} // namespace streamscope
