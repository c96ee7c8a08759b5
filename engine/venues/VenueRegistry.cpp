#include "VenueRegistry.h"

#include "model/ChannelSubscription.h"

namespace streamscope {

// Each listed folder's entry() (VenueList.h).
#define STREAMSCOPE_VENUE(folder)                                                                                      \
    namespace folder {                                                                                                 \
    VenueEntry entry();                                                                                                \
    }
#include "VenueList.h"
#undef STREAMSCOPE_VENUE

namespace {

// A venue's name is its folder's.
VenueEntry named(VenueEntry entry, const char *folder)
{
    entry.venue = Venue(folder);
    Q_ASSERT(!entry.venue.isUnknown() && entry.createHandler && entry.decodeSpec && entry.presets);
    return entry;
}

} // namespace

QStringList channelStreamNames(const QStringList &instruments, const QStringList &channels)
{
    QStringList names;
    for (const QString &channel : channels) {
        for (const QString &instrument : instruments) {
            const QString name = ChannelSubscription{channel.trimmed(), instrument.trimmed()}.text();
            if (ChannelSubscription::parse(name) && !names.contains(name))
                names << name;
        }
    }
    return names;
}

const std::vector<VenueEntry> &VenueRegistry::entries()
{
    static const std::vector<VenueEntry> all = {
#define STREAMSCOPE_VENUE(folder) named(folder::entry(), #folder),
#include "VenueList.h"
#undef STREAMSCOPE_VENUE
    };
    return all;
}

const VenueEntry *VenueRegistry::find(Venue venue)
{
    for (const VenueEntry &entry : entries()) {
        if (entry.venue == venue)
            return &entry;
    }
    return nullptr;
}

const VenueEntry &VenueRegistry::entryOf(Venue venue)
{
    if (const VenueEntry *entry = find(venue))
        return *entry;
    const VenueEntry *generic = find(Venue::Generic);
    Q_ASSERT(generic); // VenueList.h lists it
    return *generic;
}

} // namespace streamscope
