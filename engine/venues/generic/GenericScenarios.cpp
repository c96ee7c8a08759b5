// The generic venue has no replay scenarios of its own: a generic stream is tested against
// any venue's scenario. Compiled into StreamScope::VenueScenarios (Qt Core only).

#include "ScenarioKit.h"

namespace streamscope::generic {

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {};
}

} // namespace streamscope::generic
