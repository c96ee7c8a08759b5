#include "StreamTypes.h"

namespace streamscope {

QString stateName(StreamState state)
{
    switch (state) {
    case StreamState::Idle: return QStringLiteral("idle");
    case StreamState::Connecting: return QStringLiteral("connecting");
    case StreamState::Subscribing: return QStringLiteral("subscribing");
    case StreamState::Live: return QStringLiteral("live");
    case StreamState::Stalled: return QStringLiteral("stalled");
    case StreamState::Reconnecting: return QStringLiteral("reconnecting");
    case StreamState::Stopped: return QStringLiteral("stopped");
    case StreamState::Failed: return QStringLiteral("failed");
    case StreamState::Degraded: return QStringLiteral("degraded");
    case StreamState::Unknown: break;
    }
    return QStringLiteral("unknown");
}

QString venueName(Venue venue)
{
    switch (venue) {
    case Venue::Generic: return QStringLiteral("generic");
    case Venue::Binance: return QStringLiteral("binance");
    case Venue::Betfair: return QStringLiteral("betfair");
    case Venue::Unknown: break;
    }
    return QStringLiteral("unknown");
}

QString modeName(DecodeMode mode)
{
    switch (mode) {
    case DecodeMode::Parsed: return QStringLiteral("parsed");
    case DecodeMode::Raw: return QStringLiteral("raw");
    case DecodeMode::Unknown: break;
    }
    return QStringLiteral("unknown");
}

QString latencyUnitName(LatencyUnit unit)
{
    switch (unit) {
    case LatencyUnit::Seconds: return QStringLiteral("s");
    case LatencyUnit::Milliseconds: return QStringLiteral("ms");
    case LatencyUnit::Microseconds: return QStringLiteral("us");
    case LatencyUnit::Nanoseconds: return QStringLiteral("ns");
    case LatencyUnit::Unknown: break;
    }
    return QStringLiteral("unknown");
}

Venue venueFromName(const QString &name)
{
    for (Venue v : {Venue::Generic, Venue::Binance, Venue::Betfair})
        if (venueName(v) == name)
            return v;
    return Venue::Unknown;
}

DecodeMode modeFromName(const QString &name)
{
    for (DecodeMode m : {DecodeMode::Parsed, DecodeMode::Raw})
        if (modeName(m) == name)
            return m;
    return DecodeMode::Unknown;
}

LatencyUnit latencyUnitFromName(const QString &name)
{
    for (LatencyUnit u :
         {LatencyUnit::Seconds, LatencyUnit::Milliseconds, LatencyUnit::Microseconds, LatencyUnit::Nanoseconds})
        if (latencyUnitName(u) == name)
            return u;
    return LatencyUnit::Unknown;
}

} // namespace streamscope
