#pragma once

// A venue's answer to its REST server-time request (docs/clock.md), read by the venue's own
// reader (VenueHandler::serverTimeReader(): each venue's folder knows its shape) into the one
// form the server-time probe uses: the venue's time in µs and the step of the answer. The
// helpers here read the values the venues' shapes are made of (a count of seconds,
// milliseconds or nanoseconds since the epoch, as a JSON number or a string of digits) and
// refuse what is no time at all: a fraction, a number beyond 2^53 (not exact as a double), a
// time outside 2000..2100.
//
// Thread contract: pure functions.

#include "model/StreamTypes.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>

#include <optional>

namespace streamscope {

struct ServerTimeReading {
    qint64 timeUs = 0; // the venue's clock, µs since the epoch, as the answer gives it (truncated)
    // The answer's step: the venue's time lies in [timeUs, timeUs + resolutionUs).
    qint64 resolutionUs = 0;
};

// Reads one answer's body (at most ServerTimeProbe::kMaxReplyBytes); nothing when it is not a
// server time of the venue's shape.
using ServerTimeReader = std::optional<ServerTimeReading> (*)(const QByteArray &body);

namespace servertime {

// How a value may be written: a JSON number, a string of digits ("1597026383085"), or either.
enum class Written : quint8 { Unknown = 0, Number, Text, Either };

// `value`, a count of `unit` since the epoch written as `written` says, as a reading whose
// step is one unit (one µs for nanoseconds: the reading is in µs).
std::optional<ServerTimeReading> read(const QJsonValue &value, LatencyUnit unit, Written written);

// The generic shape, {"serverTime": <ms>} (Binance's, and what a stream's server_time_url
// is expected to answer unless its venue says otherwise).
std::optional<ServerTimeReading> readServerTimeMs(const QByteArray &body);

} // namespace servertime
} // namespace streamscope
