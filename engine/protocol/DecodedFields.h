#pragma once

// What MessageDecoder read from one data message, by the venue's DecodeSpec: the fields the
// engine itself uses (event time, type, symbol, sequence numbers, what tells events apart)
// under their own names, and venue slots whose meaning the venue's folder gives (Betfair:
// clk, ct, status...; engine/venues/betfair/BetfairFields.h). Views point into the message
// (in the worker's ReceiveBuffer) and are valid until the buffer is written again.
//
// Thread contract: a value on the decoding worker's stack.

#include <QtCore/QtGlobal>

#include <array>
#include <cstdint>
#include <string_view>

namespace streamscope {

struct DecodedFields {
    static constexpr std::int64_t kNone = INT64_MIN;
    static constexpr std::size_t kTexts = 4;
    static constexpr std::size_t kNumbers = 4;

    std::int64_t eventTime = kNone;         // in the stream's latency unit
    std::int64_t firstUpdateId = kNone;     // the first sequence number the event covers (Binance U)
    std::int64_t finalUpdateId = kNone;     // the last (Binance u)
    std::int64_t prevFinalUpdateId = kNone; // the previous event's last, when the venue says it (Binance pu)
    std::string_view eventType;
    std::string_view symbol;
    // The event stood for an array of events of several instruments (Binance !ticker@arr): its
    // symbol is the first's only. Told only by a walk that wants the symbol (decode()'s `symbol`).
    bool batch = false;

    // What tells events apart, read only when asked (a rollover's de-duplication).
    std::string_view stream;      // which stream of the connection (Binance: the envelope's "stream")
    std::int64_t tradeId = kNone; // the event's id within its stream (Binance: trade id a/t)

    // The venue's own fields (FieldRole::Text, Number, Flag).
    std::array<std::string_view, kTexts> texts{};
    std::array<std::int64_t, kNumbers> numbers{kNone, kNone, kNone, kNone};
    quint32 flags = 0;

    bool flag(quint8 bit) const { return (flags >> bit) & 1u; }
    // As default-constructed, field by field (no temporary to copy: it runs for every message).
    void reset()
    {
        eventTime = firstUpdateId = finalUpdateId = prevFinalUpdateId = tradeId = kNone;
        eventType = symbol = stream = {};
        batch = false;
        for (std::string_view &t : texts)
            t = {};
        for (std::int64_t &n : numbers)
            n = kNone;
        flags = 0;
    }
};

} // namespace streamscope
