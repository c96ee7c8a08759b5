#pragma once

// What one MessageDecoder decode gave, copied out of the decoder and the receive buffer (the
// views of DecodedFields die with the next write of the buffer), so that two decodes can be
// compared: the decoder targets (fuzz_messagedecoder, fuzz_messagebatch) share it. And the
// decode spec an input's option bits pick.
//
// Thread contract: a value of the fuzzer's thread.

#include "protocol/DecodedFields.h"
#include "protocol/MessageDecoder.h"
#include "venues/VenueRegistry.h"

#include <QtCore/QString>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace streamscope::fuzz {

struct DecodeOutcome {
    bool ok = false;
    QString error;
    bool fieldError = false;
    std::int64_t ints[10] = {};
    bool batch = false;
    std::string strings[7];

    // A decode's result and, when it failed, the decoder's error.
    static DecodeOutcome of(const MessageDecoder &decoder, bool ok, const DecodedFields &f)
    {
        DecodeOutcome out;
        out.ok = ok;
        if (!ok) {
            out.error = decoder.lastError();
            out.fieldError = decoder.lastErrorIsField();
            return out;
        }
        const std::int64_t ints[10] = {f.eventTime,  f.firstUpdateId, f.finalUpdateId, f.prevFinalUpdateId, f.tradeId,
                                       f.numbers[0], f.numbers[1],    f.numbers[2],    f.numbers[3],        f.flags};
        std::copy(std::begin(ints), std::end(ints), out.ints);
        out.batch = f.batch;
        const std::string_view strings[7] = {f.eventType, f.symbol,   f.stream,  f.texts[0],
                                             f.texts[1],  f.texts[2], f.texts[3]};
        for (int i = 0; i < 7; ++i)
            out.strings[i] = std::string(strings[i]);
        return out;
    }

    bool sameFields(const DecodeOutcome &o) const
    {
        return batch == o.batch && std::equal(std::begin(ints), std::end(ints), std::begin(o.ints))
            && std::equal(std::begin(strings), std::end(strings), std::begin(o.strings));
    }
    bool operator==(const DecodeOutcome &o) const
    {
        return ok == o.ok && error == o.error && fieldError == o.fieldError && sameFields(o);
    }
};

// Bits 0-1 of an option byte: the venue whose decode spec is used (0 generic, 1 binance,
// 2 betfair, 3 as 0).
inline const DecodeSpec &decodeSpecOf(std::uint8_t options)
{
    static const char *const kVenues[] = {"generic", "binance", "betfair"};
    return VenueRegistry::entryOf(Venue(kVenues[(options & 3) % 3])).decodeSpec();
}

} // namespace streamscope::fuzz
