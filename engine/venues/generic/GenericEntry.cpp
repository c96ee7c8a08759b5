// The generic venue's registry entry (VenueList.h): the base VenueHandler, the generic decode
// spec, and no presets beyond its name (the dialog's generic page takes any URL).

#include "GenericSpec.h"
#include "venues/VenueHandler.h"
#include "venues/VenueRegistry.h"

namespace streamscope::generic {

VenueEntry entry()
{
    VenueEntry e;
    e.title = "Generic";
    e.createHandler = [](const StreamConfig &config, VenueHost &host) {
        return std::make_unique<VenueHandler>(config, host, decodeSpec());
    };
    e.decodeSpec = &decodeSpec;
    e.presets = [] { return VenuePresets{}; };
    return e;
}

} // namespace streamscope::generic
