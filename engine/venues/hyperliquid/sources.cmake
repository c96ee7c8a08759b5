# Hyperliquid (docs/venues.md): handler, decode spec, registry entry with presets; scenarios.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/HyperliquidVenue.h ${CMAKE_CURRENT_LIST_DIR}/HyperliquidVenue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/HyperliquidSpec.h ${CMAKE_CURRENT_LIST_DIR}/HyperliquidSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/HyperliquidEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/HyperliquidScenarios.cpp)
