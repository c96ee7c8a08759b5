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
    if (venue.isUnknown())
        return QStringLiteral("unknown");
    const std::string_view name = venue.name();
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
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
    if (name.size() > qsizetype(Venue::kMaxNameBytes))
        return Venue::Unknown;
    const QByteArray latin1 = name.toLatin1(); // a character beyond Latin-1 becomes '?': no name
    return Venue(std::string_view(latin1.constData(), std::size_t(latin1.size())));
}

QString webSocketClientName(WebSocketClient client)
{
    switch (client) {
    case WebSocketClient::Qt: return QStringLiteral("qt");
    case WebSocketClient::Native: return QStringLiteral("native");
    case WebSocketClient::Unknown: break;
    }
    return QStringLiteral("unknown");
}

WebSocketClient webSocketClientFromName(const QString &name)
{
    for (WebSocketClient c : {WebSocketClient::Qt, WebSocketClient::Native})
        if (webSocketClientName(c) == name)
            return c;
    return WebSocketClient::Unknown;
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
