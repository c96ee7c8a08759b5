#pragma once

// Event times written as text (RFC 3339, the form Kraken's and Coinbase's feeds use):
// "2023-09-25T07:48:36.925533Z", a fraction of 0 to 9 digits (read to the microsecond, the rest
// cut), "Z" or an offset "+01:00"; "t" and "z" may be lower case. Read without allocating, for
// the decoder's hot path.
//
// Thread contract: pure functions.

#include <cstdint>
#include <string_view>

namespace streamscope {

// Microseconds since the epoch of `text`; false when it is no RFC 3339 date-time (a field out
// of range, a missing part, anything after it). Years 0001..9999.
bool rfc3339Micros(std::string_view text, std::int64_t &micros);

} // namespace streamscope
