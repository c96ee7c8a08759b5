// Binance's registry entry (VenueList.h): its handler, decode spec, presets and URL builder.

#include "BinancePresets.h"
#include "BinanceSpec.h"
#include "BinanceVenue.h"
#include "venues/VenueRegistry.h"

namespace streamscope::binance {

VenueEntry entry()
{
    VenueEntry e;
    e.title = "Binance";
    e.createHandler = [](const StreamConfig &config, VenueHost &host) -> std::unique_ptr<VenueHandler> {
        return std::make_unique<BinanceVenue>(config, host, decodeSpec());
    };
    e.decodeSpec = &decodeSpec;
    e.presets = &BinancePresets::presets;
    e.streamNames = &BinancePresets::streamNames;
    e.streamUrl = [](const QUrl &base, const QStringList &streams) {
        return BinancePresets::combinedUrl(base, streams);
    };
    return e;
}

} // namespace streamscope::binance
