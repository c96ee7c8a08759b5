#include "VenueScenarios.h"

namespace streamscope {

// Each listed folder's scenarios() and serverTimes() (VenueList.h).
#define STREAMSCOPE_VENUE(folder)                                                                                      \
    namespace folder {                                                                                                 \
    std::vector<scenario::ScenarioDefinition> scenarios();                                                             \
    std::vector<scenario::ServerTimeRoute> serverTimes();                                                              \
    }
#include "VenueList.h"
#undef STREAMSCOPE_VENUE

namespace scenario {

const std::vector<VenueScenarioSet> &VenueScenarios::sets()
{
    static const std::vector<VenueScenarioSet> all = {
#define STREAMSCOPE_VENUE(folder) VenueScenarioSet{#folder, folder::scenarios(), folder::serverTimes()},
#include "VenueList.h"
#undef STREAMSCOPE_VENUE
    };
    return all;
}

QStringList VenueScenarios::names()
{
    QStringList out;
    for (const VenueScenarioSet &set : sets()) {
        for (const ScenarioDefinition &s : set.scenarios)
            out << QString::fromLatin1(s.name);
    }
    return out;
}

const ScenarioDefinition *VenueScenarios::find(const QString &name)
{
    for (const VenueScenarioSet &set : sets()) {
        for (const ScenarioDefinition &s : set.scenarios) {
            if (name == QLatin1String(s.name))
                return &s;
        }
    }
    return nullptr;
}

const ServerTimeRoute *VenueScenarios::findServerTime(QByteArrayView path)
{
    for (const VenueScenarioSet &set : sets()) {
        for (const ServerTimeRoute &route : set.serverTimes) {
            if (path == QByteArrayView(route.path))
                return &route;
        }
    }
    return nullptr;
}

} // namespace scenario
} // namespace streamscope
