target_sources(streamscope_engine PRIVATE
    venues/VenueHost.h
    venues/VenueHandler.h venues/VenueHandler.cpp
    venues/BinanceVenue.h venues/BinanceVenue.cpp
    venues/BetfairVenue.h venues/BetfairVenue.cpp
    venues/OverlapDeduper.h venues/OverlapDeduper.cpp
    venues/BinancePresets.h venues/BinancePresets.cpp
)
