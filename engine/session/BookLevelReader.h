#pragma once

// BookKeeper's reader of a message's levels (BookKeeper.cpp, BookKeeperStream.cpp): each level
// handed over by MessageDecoder::decodeLevels read into an exact change, the first that does not
// fit stops the walk and says why; the most decimal places seen, a checksum, and the events of a
// message of several instruments (Coinbase) noted on the way.
//
// Thread contract: on the stream's worker, for one decodeLevels() call.

#include "BookKeeper.h"
#include "model/PeerText.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace streamscope {

// A venue's level keys (book::LevelKeys) as the decoder takes them.
inline MessageDecoder::LevelKeys bookDecoderKeys(const book::LevelKeys &k)
{
    MessageDecoder::LevelKeys d{k.event, k.bids,    k.asks,    k.updateId, k.price,       k.qty,      k.levels,
                                k.side,  k.bidSide, k.askSide, k.checksum, k.eventSymbol, k.eventKind};
    d.errorCode = k.errorCode;
    d.errorMessage = k.errorMessage;
    return d;
}

class BookKeeper::LevelReader final : public MessageDecoder::LevelSink {
public:
    // What of a peer's text a reason quotes.
    static constexpr qsizetype kQuotedChars = 80;

    // `places`: also note the most decimal places the prices and the quantities were written
    // with (a venue's checksum formats them so).
    // `events`: a message of several instruments' events (LevelKeys::eventSymbol): where each
    // begins in `out`, its symbol and kind.
    explicit LevelReader(std::vector<book::LevelChange> &out, bool places = false,
                         std::vector<EventSlice> *events = nullptr)
        : m_out(out)
        , m_places(places)
        , m_events(events)
    {
    }
    void beginEvent() override
    {
        if (m_events)
            m_events->push_back(EventSlice{std::uint32_t(m_out.size())});
    }
    void eventText(bool symbol, std::string_view text) override
    {
        if (!m_events || m_events->empty())
            return;
        EventSlice &e = m_events->back();
        char *to = symbol ? e.symbol : e.kind;
        const std::size_t room = symbol ? sizeof e.symbol : sizeof e.kind;
        const std::size_t n = std::min(room, text.size());
        std::memcpy(to, text.data(), n);
        (symbol ? e.symbolBytes : e.kindBytes) = text.size() > room ? 0 : std::uint8_t(n); // too long: none
    }
    bool level(bool ask, std::string_view price, std::string_view qty) override
    {
        book::LevelChange c;
        c.side = ask ? book::Side::Ask : book::Side::Bid;
        int pricePlaces = 0;
        int qtyPlaces = 0;
        if (!book::parseFixed(price, c.price, m_places ? &pricePlaces : nullptr)) {
            refuse("price", price);
            return false;
        }
        if (!book::parseFixed(qty, c.qty, m_places ? &qtyPlaces : nullptr)) {
            refuse("quantity", qty);
            return false;
        }
        m_priceDecimals = std::max(m_priceDecimals, pricePlaces);
        m_qtyDecimals = std::max(m_qtyDecimals, qtyPlaces);
        m_out.push_back(c);
        return true;
    }
    void checksum(std::uint32_t value) override
    {
        m_checksum = value;
        m_hasChecksum = true;
    }
    bool hasChecksum() const { return m_hasChecksum; }
    std::uint32_t checksumValue() const { return m_checksum; }
    int priceDecimals() const { return m_priceDecimals; }
    int qtyDecimals() const { return m_qtyDecimals; }
    void updateId(std::int64_t id) override
    {
        m_id = id;
        m_hasId = true;
    }
    // A REST answer's own status (LevelKeys::errorCode, errorMessage).
    void errorText(bool code, std::string_view text) override
    {
        if (code)
            m_errorCode.assign(text.data(), std::min<std::size_t>(text.size(), 32));
        else
            m_errorMessage = peerText(QByteArrayView(text.data(), qsizetype(text.size())), kQuotedChars);
    }
    const std::string &errorCode() const { return m_errorCode; }
    const QString &errorMessage() const { return m_errorMessage; }
    const QString &refused() const { return m_refused; }
    bool hasId() const { return m_hasId; }
    std::int64_t id() const { return m_id; }

private:
    void refuse(const char *what, std::string_view text)
    {
        m_refused = QStringLiteral("a %1 that is not an exact decimal of at most %2 places: \"%3\"")
                        .arg(QLatin1String(what))
                        .arg(book::kDecimals)
                        .arg(peerText(QByteArrayView(text.data(), qsizetype(text.size())), kQuotedChars));
    }

    std::vector<book::LevelChange> &m_out;
    const bool m_places;
    std::vector<EventSlice> *const m_events;
    int m_priceDecimals = 0;
    int m_qtyDecimals = 0;
    std::uint32_t m_checksum = 0;
    bool m_hasChecksum = false;
    QString m_refused;
    std::string m_errorCode;
    QString m_errorMessage;
    std::int64_t m_id = 0;
    bool m_hasId = false;
};

} // namespace streamscope
