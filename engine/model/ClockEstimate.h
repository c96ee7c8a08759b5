#pragma once

// What is known of one stream's venue clock relative to this machine's: the value type that
// a stream's snapshot carries (StreamSnapshot::clock). See docs/clock.md.
//
// offset = venue clock − local clock. A venue event stamped E and received at local time R
// took (R + offset) − E: the corrected latency. A positive offset means the local clock is
// behind the venue's (raw latencies read too low, possibly negative).
//
// Any thread (a plain value).

#include "RedactedUrl.h"

#include <QtCore/QString>
#include <QtCore/QtGlobal>

namespace streamscope {

enum class ClockOffsetSource {
    Unknown = 0,  // no estimate (report: null)
    ServerTime,   // the venue's server-time endpoint, the sample with the shortest round trip
    LatencyFloor, // the smallest raw latency over the last minute: a one-sided bound only
};

// "server_time", "latency_floor", or nullptr when unknown.
inline const char *clockOffsetSourceName(ClockOffsetSource source)
{
    switch (source) {
    case ClockOffsetSource::ServerTime: return "server_time";
    case ClockOffsetSource::LatencyFloor: return "latency_floor";
    case ClockOffsetSource::Unknown: break;
    }
    return nullptr;
}

struct ClockEstimate {
    ClockOffsetSource source = ClockOffsetSource::Unknown;
    double offsetMs = 0;           // venue − local; meaningful when source is known
    double uncertaintyMs = -1;     // ± around offsetMs (server time: half the round trip); -1 unknown
    bool hasFloor = false;         // a latency floor is known (data with event times in the window)
    double latencyFloorMs = 0;     // min(receive − event time) over the sliding window
    quint64 serverTimeSamples = 0; // server-time answers used
    quint64 serverTimeErrors = 0;  // failed, timed-out, oversized or unreadable answers
    RedactedUrl serverTimeUrl;     // where the server time is asked; empty if not
    QString serverTimeError;       // why the last failed answer failed (escaped); empty if none did
    QString note;                  // the last explanation given (e.g. "clock behind the venue by ~500 ms ...")
};

} // namespace streamscope
