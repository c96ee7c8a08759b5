#pragma once

// The scalar readers of MessageDecoder's walks (MessageDecoder.cpp, LevelDecoder.cpp): an event
// time in any form a feed writes, an id written as a number or as a string of digits. They run
// for every message, so they are inline here rather than in a translation unit of their own.
// Included only by the decoder's translation units (MessageDecoderParser.h).

#include "DecodedFields.h"
#include "MessageDecoderParser.h"
#include "TimeText.h"

#include <simdjson.h>

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace streamscope::decoder {

// The number of bytes of `chunk` (8 bytes of text, the first in the low byte) that are digits
// before the first that is not (8: all are). A digit's high nibble is 3 and its low one below
// 10; a carry out of a byte past 0xF9 reaches only bytes after one already not a digit.
inline int leadingDigits(std::uint64_t chunk)
{
    constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull;
    constexpr std::uint64_t kZeros = 0x3030303030303030ull;
    const std::uint64_t other = ((chunk & kHigh) ^ kZeros) | (((chunk + 0x0606060606060606ull) & kHigh) ^ kZeros);
    return other ? std::countr_zero(other) / 8 : 8;
}

// The value of the first `digits` (0 to 8) bytes of `chunk`, which are digits: put last, after
// '0's, then read in pairs, fours and eight (the first byte is the most significant digit).
inline std::uint64_t digitsValue(std::uint64_t chunk, int digits)
{
    if (digits == 0)
        return 0;
    if (digits < 8)
        chunk = (chunk << (8 * (8 - digits))) | (0x3030303030303030ull >> (8 * digits));
    chunk -= 0x3030303030303030ull;
    chunk = (chunk * 10 + (chunk >> 8)) & 0x00FF00FF00FF00FFull;
    chunk = (chunk * 100 + (chunk >> 16)) & 0x0000FFFF0000FFFFull;
    return (chunk * 10000 + (chunk >> 32)) & 0x00000000FFFFFFFFull;
}

// An integer of 1 to 18 digits, no sign and no leading zero, followed by what may follow a
// value (',', '}', ']' or whitespace): how nearly every feed writes its event time. Read
// straight from the value's text, eight digits at a time (~130 instructions a message fewer
// than simdjson's parse, callgrind), and left unconsumed (its object's walk skips it). Any
// other text is left to simdjson (false): what is read here is exactly what get_int64() would
// read. The text lies in a padded document, so reading 16 bytes past any of it is safe.
Q_ALWAYS_INLINE bool readPlainInteger(simdjson::ondemand::value &value, std::int64_t &out)
{
    static constexpr std::uint64_t kPowers[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    const char *p = value.raw_json_token().data();
    if (*p < '1' || *p > '9')
        return false;
    std::uint64_t first;
    std::uint64_t second;
    std::memcpy(&first, p, sizeof first);
    std::memcpy(&second, p + 8, sizeof second);
    int n = leadingDigits(first);
    std::uint64_t v = digitsValue(first, n);
    if (n == 8) {
        const int more = leadingDigits(second);
        v = v * kPowers[more] + digitsValue(second, more);
        n += more;
        for (; n < 19 && p[n] >= '0' && p[n] <= '9'; ++n)
            v = v * 10 + std::uint64_t(p[n] - '0');
    }
    const char next = p[n];
    if (n > 18
        || !(next == ',' || next == '}' || next == ']' || next == ' ' || next == '\n' || next == '\r' || next == '\t'))
        return false;
    out = std::int64_t(v);
    return true;
}

// An event time in any form but readPlainInteger()'s (out of line: rare).
Q_NEVER_INLINE inline simdjson::error_code readTimeOtherForms(simdjson::ondemand::value value, std::int64_t &out)
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

// An event time in any form a feed writes, INT64_MIN included (readTime() moves it).
Q_ALWAYS_INLINE simdjson::error_code readTimeAnyForm(simdjson::ondemand::value value, std::int64_t &out)
{
    return readPlainInteger(value, out) ? simdjson::SUCCESS : readTimeOtherForms(value, out);
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
