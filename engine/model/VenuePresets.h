#pragma once

// What the add-stream dialog offers for one venue, given as data by the venue's folder
// (engine/venues/<venue>/) and read through the engine's VenueCatalog: its markets, each
// with its endpoints, the channels it offers and the values their parameters take (a kline
// interval, an update speed, a book depth, a field list), example instruments, and how many
// streams one URL may name.
//
// Thread contract: plain values, no thread affinity.

#include "StreamTypes.h"

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

namespace streamscope {

// The values one parameter takes.
struct VenueChoice {
    QString name; // "interval", "speed", "levels", "fields"
    QStringList values;
    QString defaultValue; // empty: the first value
};

struct VenueMarket {
    QString id;    // "spot", "usdm"
    QString title; // "Spot", "USD-M futures"
    // The first is the default; the others are alternatives (market data only, a testnet).
    QList<QUrl> endpoints;
    // What this market offers, by the venue's channel names ("trade", "aggTrade", "kline").
    QStringList channels;
    QList<VenueChoice> choices;

    // The values of choice `name`; empty when the market has none.
    QStringList values(const QString &name) const
    {
        const VenueChoice *c = choice(name);
        return c ? c->values : QStringList();
    }
    // Its default value; empty when the market has no such choice.
    QString defaultValue(const QString &name) const
    {
        const VenueChoice *c = choice(name);
        return !c ? QString() : !c->defaultValue.isEmpty() ? c->defaultValue : c->values.value(0);
    }
    const VenueChoice *choice(const QString &name) const
    {
        for (const VenueChoice &c : choices)
            if (c.name == name)
                return &c;
        return nullptr;
    }
};

struct VenuePresets {
    Venue venue;               // Unknown: no such venue
    QString title;             // "Binance"
    bool lineProtocol = false; // streams are tcp/tls lines
    QList<VenueMarket> markets;
    QStringList exampleInstruments;
    // Streams one URL may name (the rest are subscribed after connect); 0: the URL names none.
    int maxStreamsInUrl = 0;

    // The market `id`, or null.
    const VenueMarket *market(const QString &id) const
    {
        for (const VenueMarket &m : markets)
            if (m.id == id)
                return &m;
        return nullptr;
    }
};

} // namespace streamscope
