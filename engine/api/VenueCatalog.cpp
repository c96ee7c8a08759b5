#include "VenueCatalog.h"

#include "venues/VenueRegistry.h"

namespace streamscope {

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
