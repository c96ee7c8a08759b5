# Kraken (docs/venues.md): handler, order-book rules, decode spec and its field slots,
# registry entry with presets; scenarios.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/KrakenVenue.h ${CMAKE_CURRENT_LIST_DIR}/KrakenVenue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/KrakenBookRules.h ${CMAKE_CURRENT_LIST_DIR}/KrakenBookRules.cpp
    ${CMAKE_CURRENT_LIST_DIR}/KrakenFields.h
    ${CMAKE_CURRENT_LIST_DIR}/KrakenSpec.h ${CMAKE_CURRENT_LIST_DIR}/KrakenSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/KrakenEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/KrakenScenarios.cpp)
