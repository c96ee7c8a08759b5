#include "ChannelVenueHandler.h"

#include "VenueHost.h"

#include <algorithm>

namespace streamscope {

bool ChannelVenueHandler::onConnected(int link, int shard, bool rollover, const QStringList &streams)
{
    Q_UNUSED(rollover);
    connectionUp(link);
    m_linkPairs.remove(link);
    bool sent = false;
    if (!streams.isEmpty()) {
        const std::vector<ChannelSubscription> pairs = channelPairs(streams, m_venue, opName(Op::Subscribe));
        track(link, Op::Subscribe, pairs);
        sent = !pairs.empty() && request(link, Op::Subscribe, pairs);
    }
    return sendConfiguredOnConnect(link, shard) || sent;
}

std::vector<std::pair<QString, QStringList>> ChannelVenueHandler::byChannel(
    const std::vector<ChannelSubscription> &pairs)
{
    std::vector<std::pair<QString, QStringList>> out;
    for (const ChannelSubscription &pair : pairs) {
        auto it = std::find_if(out.begin(), out.end(), [&pair](const auto &c) { return c.first == pair.channel; });
        if (it == out.end())
            it = out.insert(out.end(), {pair.channel, {}});
        it->second << pair.instrument;
    }
    return out;
}

void ChannelVenueHandler::sendControl(int link, const QString &method, const QStringList &params, qint64 requestId)
{
    Q_UNUSED(requestId); // these venues' public requests are answered by their arguments
    const bool subscribe = method == QLatin1String("SUBSCRIBE");
    if (!subscribe && method != QLatin1String("UNSUBSCRIBE")) {
        m_host.venueEvent(EventKind::Info, QStringLiteral("%1 has no %2 request").arg(QLatin1String(m_venue), method));
        return;
    }
    const Op op = subscribe ? Op::Subscribe : Op::Unsubscribe;
    const std::vector<ChannelSubscription> pairs = channelPairs(params, m_venue, opName(op));
    track(link, op, pairs);
    if (!pairs.empty())
        request(link, op, pairs);
}

void ChannelVenueHandler::track(int link, Op op, const std::vector<ChannelSubscription> &pairs)
{
    std::vector<ChannelSubscription> &mine = m_linkPairs[link];
    for (const ChannelSubscription &pair : pairs) {
        const auto same = [&pair](const ChannelSubscription &s) {
            return s.channel == pair.channel && s.instrument == pair.instrument;
        };
        mine.erase(std::remove_if(mine.begin(), mine.end(), same), mine.end());
        if (op == Op::Subscribe)
            mine.push_back(pair);
    }
}

bool ChannelVenueHandler::resubscribeBook(const QString &instrument)
{
    bool sent = false;
    for (auto it = m_linkPairs.cbegin(); it != m_linkPairs.cend(); ++it) {
        for (const ChannelSubscription &pair : it.value()) {
            if (pair.instrument != instrument || !isBookChannel(pair.channel))
                continue;
            const std::vector<ChannelSubscription> one{pair};
            request(it.key(), Op::Unsubscribe, one);
            request(it.key(), Op::Subscribe, one);
            sent = true;
        }
    }
    return sent;
}

} // namespace streamscope
