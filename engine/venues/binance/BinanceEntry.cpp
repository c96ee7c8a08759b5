// Binance's registry entry (VenueList.h): its handler, decode spec, presets and URL builder.

#include "BinancePresets.h"
#include "BinanceSpec.h"
#include "BinanceVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::binance {

VenueEntry entry()
{
    VenueEntry e = venueEntry<BinanceVenue, &decodeSpec>("Binance", &BinancePresets::presets);
    e.streamNames = &BinancePresets::streamNames;
    e.streamUrl = [](const QUrl &base, const QStringList &streams) {
        return BinancePresets::combinedUrl(base, streams);
    };
    return e;
}

} // namespace streamscope::binance
