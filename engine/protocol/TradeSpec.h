#pragma once

// Where one venue's trade messages carry each trade's price, given as data by the venue's
// folder (engine/venues/<venue>/) with its DecodeSpec: which decoded event types are trades,
// where the trades lie in the message, and the keys of a trade's price and instrument.
// MessageDecoder::decodeTrades() reads them, for a stream whose last trade price is compared
// across venues only (session/LastTradeKeeper, docs/venues.md "One instrument across venues").
//
// Thread contract: immutable after construction (a venue's spec is a function-local static);
// read from any thread.

#include <array>
#include <string_view>

namespace streamscope {

struct TradeSpec {
    // Decoded event types (DecodedFields::eventType) of trade messages; a type that ends in '.'
    // matches as a prefix (Bybit's topic "publicTrade.BTCUSDT"). None: the venue's trades are
    // not read.
    std::array<std::string_view, 2> eventTypes{};
    // The root key that holds the trade, an array of trades, or an array of events that hold
    // them (Coinbase's "events"); a root without it is a trade itself (Binance's raw streams).
    std::string_view event{};
    // In each such event, the key of its array of trades (Coinbase's "trades"); empty: the
    // event is a trade.
    std::string_view list{};
    std::string_view price{}; // a trade's price: a string of digits, or a number as sent
    // A trade's instrument; a trade without it is the message's (DecodedFields::symbol).
    std::string_view symbol{};
    // A batch lists its newest trade first (else last).
    bool newestFirst = false;

    bool reads() const { return !eventTypes[0].empty() && !price.empty(); }
    // Whether a message of `eventType` carries trades.
    bool matches(std::string_view eventType) const
    {
        for (const std::string_view t : eventTypes) {
            if (t.empty())
                break;
            if (t.back() == '.' ? eventType.substr(0, t.size()) == t : eventType == t)
                return true;
        }
        return false;
    }
};

} // namespace streamscope
