// The generic venue has no replay scenarios of its own: a generic stream is tested against
// any venue's scenario. Compiled into StreamScope::VenueScenarios (Qt Core only).

#include "ScenarioKit.h"

namespace streamscope::generic {

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {};
}

// No server time of its own (a generic stream names its server_time_url).
std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {};
}

} // namespace streamscope::generic
