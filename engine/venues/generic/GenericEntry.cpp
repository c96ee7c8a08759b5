// The generic venue's registry entry (VenueList.h): the base VenueHandler, the generic decode
// spec, and no presets beyond its name (the dialog's generic page takes any URL).

#include "GenericSpec.h"
#include "venues/VenueHandler.h"
#include "venues/VenueRegistry.h"

namespace streamscope::generic {

VenueEntry entry()
{
    return venueEntry<VenueHandler, &decodeSpec>("Generic", [] { return VenuePresets{}; });
}

} // namespace streamscope::generic
