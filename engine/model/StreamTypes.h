#pragma once

// Small value types shared by every part of the engine and by its users.
// Plain data, no thread affinity.

#include <QtCore/QMetaType>
#include <QtCore/QString>

namespace streamscope {

// Engine-wide identifier of a stream; 0 is never a valid id.
using StreamId = quint32;
constexpr StreamId kInvalidStreamId = 0;

enum class StreamState : quint8 {
    Unknown = 0,
    Idle,
    Connecting,
    Subscribing,
    Live,
    Stalled,
    Reconnecting,
    Stopped,
    Failed,
    Degraded, // connected, but the venue says the data may be stale (Betfair status 503)
};

enum class Venue : quint8 { Unknown = 0, Generic, Binance, Betfair };
enum class DecodeMode : quint8 { Unknown = 0, Parsed, Raw };
enum class LatencyUnit : quint8 { Unknown = 0, Seconds, Milliseconds, Microseconds, Nanoseconds };

// Lower-case names as used in workspace files and reports ("live", "binance", "ms").
QString stateName(StreamState state);
// Whether the stream is at work (connecting, connected or retrying): Stop applies to it.
// Idle, Stopped and Failed streams can only be started.
constexpr bool isRunning(StreamState state)
{
    return state != StreamState::Unknown && state != StreamState::Idle && state != StreamState::Stopped
        && state != StreamState::Failed;
}
QString venueName(Venue venue);
QString modeName(DecodeMode mode);
QString latencyUnitName(LatencyUnit unit);
Venue venueFromName(const QString &name);
DecodeMode modeFromName(const QString &name);
LatencyUnit latencyUnitFromName(const QString &name);

// Multiplier that turns a value in `unit` into microseconds (ns: divide by 1000).
inline double microsecondsPerUnit(LatencyUnit unit)
{
    switch (unit) {
    case LatencyUnit::Seconds: return 1e6;
    case LatencyUnit::Milliseconds: return 1e3;
    case LatencyUnit::Microseconds: return 1.0;
    case LatencyUnit::Nanoseconds: return 1e-3;
    case LatencyUnit::Unknown: break;
    }
    return 1e3;
}

} // namespace streamscope

Q_DECLARE_METATYPE(streamscope::StreamState)
