#include "VenueCatalog.h"

#include "model/StreamConfig.h"
#include "session/ShardPlan.h"
#include "stats/StreamShared.h"
#include "venues/VenueHandler.h"
#include "venues/VenueHost.h"
#include "venues/VenueRegistry.h"

#include <memory>

namespace streamscope {

namespace {

// A host that keeps what a handler sends on each connection; nothing goes anywhere.
class PreviewHost final : public InertVenueHost {
public:
    explicit PreviewHost(const StreamConfig &config)
        : m_shared(0, config)
    {
    }
    void sendOn(int link, const QString &text, const QString &, const QString &) override
    {
        if (link >= 0 && link < int(sent.size()))
            sent[link] << text;
    }
    StreamShared &shared() override { return m_shared; }
    qint64 monotonicMs() const override { return 0; }
    qint64 wallMs() const override { return 0; }

    QList<QStringList> sent;

private:
    StreamShared m_shared;
};

} // namespace

QList<QStringList> VenueCatalog::openingMessages(const StreamConfig &config)
{
    PreviewHost host(config);
    const std::unique_ptr<VenueHandler> handler = VenueHandler::create(config, host);
    const QList<QStringList> shards =
        ShardPlan::split(config.subscribe, handler->maxStreamsPerConnection(), handler->streamsNamedInUrl(config.url));
    host.sent.resize(shards.size());
    for (int i = 0; i < int(shards.size()); ++i)
        handler->onConnected(i, i, false, shards[i]);
    return host.sent;
}

QList<Venue> VenueCatalog::venues()
{
    QList<Venue> out;
    for (const VenueEntry &entry : VenueRegistry::entries())
        out << entry.venue;
    return out;
}

bool VenueCatalog::isKnown(Venue venue)
{
    return VenueRegistry::find(venue) != nullptr;
}

QString VenueCatalog::title(Venue venue)
{
    const VenueEntry *entry = VenueRegistry::find(venue);
    return entry ? QString::fromUtf8(entry->title) : venueName(venue);
}

bool VenueCatalog::isLineProtocol(Venue venue)
{
    const VenueEntry *entry = VenueRegistry::find(venue);
    return entry && entry->lineProtocol;
}

bool VenueCatalog::channelSubscriptions(Venue venue)
{
    const VenueEntry *entry = VenueRegistry::find(venue);
    return entry && entry->channelSubscriptions;
}

VenuePresets VenueCatalog::presets(Venue venue)
{
    const VenueEntry *entry = VenueRegistry::find(venue);
    if (!entry)
        return {};
    VenuePresets p = entry->presets ? entry->presets() : VenuePresets{};
    p.venue = entry->venue;
    p.title = QString::fromUtf8(entry->title);
    p.lineProtocol = entry->lineProtocol;
    return p;
}

QStringList VenueCatalog::streamNames(Venue venue, const QStringList &instruments, const QStringList &channels)
{
    const VenueEntry *entry = VenueRegistry::find(venue);
    return entry && entry->streamNames ? entry->streamNames(instruments, channels) : QStringList();
}

QUrl VenueCatalog::streamUrl(Venue venue, const QUrl &base, const QStringList &streams)
{
    const VenueEntry *entry = VenueRegistry::find(venue);
    return entry && entry->streamUrl ? entry->streamUrl(base, streams) : base;
}

} // namespace streamscope
