#pragma once

// The scalar readers of MessageDecoder's walks (MessageDecoder.cpp, LevelDecoder.cpp): an event
// time in any form a feed writes, an id written as a number or as a string of digits. They run
// for every message, so they are inline here rather than in a translation unit of their own.
// Included only by the decoder's translation units (MessageDecoderParser.h).

#include "DecodedFields.h"
#include "MessageDecoderParser.h"
#include "TimeText.h"

#include <simdjson.h>

#include <charconv>
#include <cstdint>
#include <string_view>

namespace streamscope::decoder {

// An event time in any form a feed writes, INT64_MIN included (readTime() moves it).
inline simdjson::error_code readTimeAnyForm(simdjson::ondemand::value value, std::int64_t &out)
{
    namespace ondemand = simdjson::ondemand;
    // Nearly every feed writes an integer: try that first (a failed scalar read leaves the
    // value where it was, so the other forms can still be tried).
    if (value.get_int64().get(out) == simdjson::SUCCESS)
        return simdjson::SUCCESS;
    ondemand::number_type type;
    if (auto e = value.get_number_type().get(type); e == simdjson::SUCCESS) {
        if (type == ondemand::number_type::floating_point_number) {
            double d;
            if (auto e2 = value.get_double().get(d))
                return e2;
            // A double beyond int64 (1e300) is no time: saturate rather than convert (undefined).
            constexpr double kLimit = 9223372036854775808.0; // 2^63
            out = d >= kLimit ? INT64_MAX : d > -kLimit ? std::int64_t(d) : INT64_MIN + 1;
            return simdjson::SUCCESS;
        }
        if (type == ondemand::number_type::unsigned_integer) {
            out = INT64_MAX; // an integer beyond int64 (2^63 and above): no time either
            return simdjson::SUCCESS;
        }
        return value.get_int64().get(out);
    }
    // Some feeds send times as strings of digits.
    std::string_view s;
    if (auto e = value.get_string().get(s))
        return e;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    if (r.ec == std::errc::result_out_of_range)
        return simdjson::NUMBER_OUT_OF_RANGE;
    return r.ec == std::errc() ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
}

// An event time in any form a feed writes. INT64_MIN marks "no event time"
// (DecodedFields::kNone): a peer that sends it gets INT64_MIN + 1, as implausible, never absent.
inline simdjson::error_code readTime(simdjson::ondemand::value value, std::int64_t &out)
{
    const simdjson::error_code e = readTimeAnyForm(value, out);
    if (e == simdjson::SUCCESS && out == DecodedFields::kNone)
        out = DecodedFields::kNone + 1;
    return e;
}

// An RFC 3339 time (Kraken, Coinbase) in µs; text of another form is a field of the wrong type.
inline simdjson::error_code readTimeText(simdjson::ondemand::value value, std::int64_t &out)
{
    std::string_view text;
    if (auto e = value.get_string().get(text))
        return e;
    std::int64_t micros = 0;
    if (!rfc3339Micros(text, micros))
        return simdjson::INCORRECT_TYPE;
    out = micros;
    return simdjson::SUCCESS;
}

// A number that may be null (left as it was).
inline simdjson::error_code readOptionalInt(simdjson::ondemand::value value, std::int64_t &out)
{
    bool isNull = false;
    if (auto e = value.is_null().get(isNull); !e && isNull)
        return simdjson::SUCCESS;
    return value.get_int64().get(out);
}

// What readId() does with a value that is no id.
enum class IdRule : quint8 {
    // An event id (OKX's "tradeId" is a string): any other value (a generic feed's "a") is
    // skipped, `out` left as it was; a string is read whole by std::from_chars (a sign, up to
    // int64).
    SkipOther,
    // A book's update id (OKX writes its numbers as strings): a string of 1 to 18 digits, no
    // sign; any other value is a field of the wrong type, or out of range.
    Strict,
};

// An id: an integer, or a string of digits.
inline simdjson::error_code readId(simdjson::ondemand::value value, std::int64_t &out, IdRule rule)
{
    const bool skip = rule == IdRule::SkipOther;
    std::int64_t id = 0;
    const simdjson::error_code asInt = value.get_int64().get(id);
    if (asInt == simdjson::SUCCESS) {
        out = id;
        return simdjson::SUCCESS;
    }
    std::string_view text;
    if (const simdjson::error_code asText = value.get_string().get(text)) {
        if (skip)
            return simdjson::SUCCESS;
        // The error of the form the value has (one of no form is malformed, not of the wrong type).
        simdjson::ondemand::json_type type;
        if (auto e = value.type().get(type))
            return e;
        return type == simdjson::ondemand::json_type::string ? asText : asInt;
    }
    if (!skip) {
        if (text.empty() || text.size() > 18) // 18 digits never overflow
            return simdjson::NUMBER_OUT_OF_RANGE;
        if (text.front() == '-')
            return simdjson::INCORRECT_TYPE;
    }
    const auto r = std::from_chars(text.data(), text.data() + text.size(), id);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        return skip ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
    out = id;
    return simdjson::SUCCESS;
}

} // namespace streamscope::decoder
