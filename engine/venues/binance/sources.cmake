# Binance (docs/venues.md): handler, decode spec, URLs and presets, registry entry; scenarios.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/BinanceVenue.h ${CMAKE_CURRENT_LIST_DIR}/BinanceVenue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BinanceBookRules.h ${CMAKE_CURRENT_LIST_DIR}/BinanceBookRules.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BinanceSpec.h ${CMAKE_CURRENT_LIST_DIR}/BinanceSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BinancePresets.h ${CMAKE_CURRENT_LIST_DIR}/BinancePresets.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BinanceEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/BinanceScenarios.cpp)
