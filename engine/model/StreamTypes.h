#pragma once

// Small value types shared by every part of the engine and by its users.
// Plain data, no thread affinity.

#include <QtCore/QMetaType>
#include <QtCore/QString>

#include <string_view>

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

// Which venue a stream speaks to, by the name its folder registers (engine/venues/VenueList.h,
// docs/architecture.md "Adding a venue"): "binance", "betfair", "generic" (any other feed). A
// value, so that a venue added to the registry needs nothing here; whether a name is a known
// venue is the registry's answer (VenueCatalog). Unknown (no name) when unset or when the name
// is not 1..kMaxNameBytes of a-z, 0-9, '_' or '-'.
class Venue {
public:
    static constexpr std::size_t kMaxNameBytes = 15;
    static const Venue Unknown;
    static const Venue Generic;

    constexpr Venue() = default;
    constexpr explicit Venue(std::string_view name)
    {
        if (name.empty() || name.size() > kMaxNameBytes)
            return;
        for (const char c : name) {
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
                return;
        }
        for (std::size_t i = 0; i < name.size(); ++i)
            m_name[i] = name[i];
    }

    constexpr std::string_view name() const
    {
        std::size_t n = 0;
        while (n < kMaxNameBytes && m_name[n] != '\0')
            ++n;
        return {m_name, n};
    }
    constexpr bool isUnknown() const { return m_name[0] == '\0'; }
    friend constexpr bool operator==(const Venue &a, const Venue &b) = default;

private:
    char m_name[kMaxNameBytes + 1] = {};
};
inline constexpr Venue Venue::Unknown{};
inline constexpr Venue Venue::Generic{"generic"};

enum class DecodeMode : quint8 { Unknown = 0, Parsed, Raw };
enum class LatencyUnit : quint8 { Unknown = 0, Seconds, Milliseconds, Microseconds, Nanoseconds };
// Which websocket client a ws/wss stream uses: QtWebSockets ("qt") or our own RFC 6455 framing
// over Qt's sockets ("native", docs/architecture.md, "Transports").
enum class WebSocketClient : quint8 { Unknown = 0, Qt, Native };

// Lower-case names as used in workspace files and reports ("live", "binance", "ms").
QString stateName(StreamState state);
// Whether the stream is at work (connecting, connected or retrying): Stop applies to it.
// Idle, Stopped and Failed streams can only be started.
constexpr bool isRunning(StreamState state)
{
    return state != StreamState::Unknown && state != StreamState::Idle && state != StreamState::Stopped
        && state != StreamState::Failed;
}
// The venue's name; "unknown" for Venue::Unknown.
QString venueName(Venue venue);
QString modeName(DecodeMode mode);
QString latencyUnitName(LatencyUnit unit);
QString webSocketClientName(WebSocketClient client);
// The venue of that name, known to the registry or not; Unknown if the name cannot be one.
Venue venueFromName(const QString &name);
DecodeMode modeFromName(const QString &name);
LatencyUnit latencyUnitFromName(const QString &name);
WebSocketClient webSocketClientFromName(const QString &name);

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
