#pragma once

// Every venue the engine knows, one VenueEntry each, built from the one-line-per-venue list
// engine/venues/VenueList.h: a venue's folder provides its entry (name, handler, decode spec,
// presets) and nothing outside the folder names the venue. The session creates handlers
// through it (VenueHandler::create), the workspace checks names and transports against it,
// the public VenueCatalog (engine/api/) reads presets from it.
//
// Thread contract: the entries are built once, on first use (thread-safe), and immutable
// after; any thread may read them.

#include "model/StreamConfig.h"
#include "model/StreamTypes.h"
#include "model/VenuePresets.h"

#include <QtCore/QStringList>
#include <QtCore/QUrl>

#include <memory>
#include <vector>

namespace streamscope {

class DecodeSpec;
class VenueHandler;
class VenueHost;

// What one venue's folder registers.
struct VenueEntry {
    Venue venue;               // its folder's name, as workspaces and reports write it (set by the registry)
    const char *title = "";    // as shown to people ("Binance")
    bool lineProtocol = false; // its streams are CRLF lines over tcp/tls, never websockets
    // Its `subscribe` entries are "channel:instrument" pairs (model/ChannelSubscription.h), the
    // one shape of the venues that name subscriptions so; the workspace refuses other entries.
    bool channelSubscriptions = false;
    // A handler for a stream of this venue; it keeps a reference to the config and the host.
    std::unique_ptr<VenueHandler> (*createHandler)(const StreamConfig &config, VenueHost &host) = nullptr;
    // What the head scan and the decoder find in its messages (a static of the folder).
    const DecodeSpec &(*decodeSpec)() = nullptr;
    // What the add-stream dialog offers (VenuePresets.h).
    VenuePresets (*presets)() = nullptr;
    // Optional: the venue's stream names for instruments × channels ("btcusdt@aggTrade"), and
    // the URL that opens `streams` on a base URL (scheme, host, port). Null: the venue names
    // no streams, or not in its URL.
    QStringList (*streamNames)(const QStringList &instruments, const QStringList &channels) = nullptr;
    QUrl (*streamUrl)(const QUrl &base, const QStringList &streams) = nullptr;
};

// A folder's entry with its handler `Handler` (constructed from the config, the host and the
// spec) and decode spec `Spec`; the folder adds what else it has (presets, stream names).
template<typename Handler, const DecodeSpec &(*Spec)()>
VenueEntry venueEntry(const char *title, VenuePresets (*presets)())
{
    VenueEntry e;
    e.title = title;
    e.createHandler = [](const StreamConfig &config, VenueHost &host) -> std::unique_ptr<VenueHandler> {
        return std::make_unique<Handler>(config, host, Spec());
    };
    e.decodeSpec = Spec;
    e.presets = presets;
    return e;
}

// "channel:instrument" for every pair of `channels` × `instruments`, in that order, without
// repeats or entries that are no pair (model/ChannelSubscription.h): the streamNames of the
// venues with channelSubscriptions.
QStringList channelStreamNames(const QStringList &instruments, const QStringList &channels);

// venueEntry() for a venue whose subscriptions are "channel:instrument" pairs
// (channelSubscriptions, channelStreamNames).
template<typename Handler, const DecodeSpec &(*Spec)()>
VenueEntry channelVenueEntry(const char *title, VenuePresets (*presets)())
{
    VenueEntry e = venueEntry<Handler, Spec>(title, presets);
    e.channelSubscriptions = true;
    e.streamNames = &channelStreamNames;
    return e;
}

class VenueRegistry {
public:
    // In the order of VenueList.h.
    static const std::vector<VenueEntry> &entries();
    // The entry of `venue`, or null when no folder registers it.
    static const VenueEntry *find(Venue venue);
    // The entry of `venue`, the generic venue's when no folder registers it.
    static const VenueEntry &entryOf(Venue venue);
};

} // namespace streamscope
