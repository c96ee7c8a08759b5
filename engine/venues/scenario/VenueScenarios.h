#pragma once

// Every venue's replay scenarios, from the one-line-per-venue list engine/venues/VenueList.h:
// each listed folder's scenarios() and serverTimes() (its <Venue>Scenarios.cpp). Read by the replay server
// (replay/ScenarioPool), which links this library and not the engine.
//
// Thread contract: built once on first use (thread-safe), immutable after; any thread.

#include "ScenarioKit.h"

#include <QtCore/QByteArrayView>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <vector>

namespace streamscope::scenario {

struct VenueScenarioSet {
    const char *venue; // the venue's folder and name ("binance")
    std::vector<ScenarioDefinition> scenarios;
    std::vector<ServerTimeRoute> serverTimes; // its REST server-time endpoints (none: it has none)
};

class VenueScenarios {
public:
    // In the order of VenueList.h; a venue without scenarios has an empty set.
    static const std::vector<VenueScenarioSet> &sets();
    // Every scenario's name, venue by venue.
    static QStringList names();
    // The scenario of that name, or null.
    static const ScenarioDefinition *find(const QString &name);
    // The server-time endpoint of that path (a venue's, exactly: "/api/v5/public/time"), or null.
    static const ServerTimeRoute *findServerTime(QByteArrayView path);
};

} // namespace streamscope::scenario
