#pragma once

// The venues the engine knows, for its users: their names, what the add-stream dialog offers
// for each (VenuePresets: markets, endpoints, channels and their values, as data from the
// venue's folder), and the venue's own stream names and URLs built from a user's choices. It
// reads the engine's venue registry (engine/venues/VenueList.h): a venue added there appears
// here with nothing else changed.
//
// Thread contract: pure functions over immutable data, callable from any thread.

#include "StreamTypes.h"
#include "VenuePresets.h"

#include <QtCore/QList>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

namespace streamscope {

struct StreamConfig;

class VenueCatalog {
public:
    // Every venue, in the registry's order ("binance", "betfair", "generic").
    static QList<Venue> venues();
    static bool isKnown(Venue venue);
    // "Binance"; the venue's name for one the registry does not know.
    static QString title(Venue venue);
    // Its streams are CRLF lines over tcp/tls, never websockets (Betfair).
    static bool isLineProtocol(Venue venue);
    // Its `subscribe` entries are "channel:instrument" pairs (ChannelSubscription.h: OKX).
    static bool channelSubscriptions(Venue venue);
    // What the dialog offers; venue Unknown when the registry does not know it.
    static VenuePresets presets(Venue venue);
    // The venue's stream names for instruments × channels ("btcusdt@aggTrade"), in the venue's
    // order; empty when the venue names no streams.
    static QStringList streamNames(Venue venue, const QStringList &instruments, const QStringList &channels);
    // The URL that opens `streams` on `base` (its scheme, host and port); `base` itself when
    // the venue names no streams in its URL.
    static QUrl streamUrl(Venue venue, const QUrl &base, const QStringList &streams);

    // What the stream's connections send when they come up, as its venue's handler would send
    // them (its subscribe requests, then send_on_connect on the first): the texts of each
    // connection, in order. For the add-stream dialog's preview; nothing is sent anywhere.
    static QList<QStringList> openingMessages(const StreamConfig &config);
};

} // namespace streamscope
