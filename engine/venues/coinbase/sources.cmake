# Coinbase Advanced Trade (docs/venues.md): handler, order-book rules, decode spec and its
# field slots, registry entry with presets; scenarios.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/CoinbaseVenue.h ${CMAKE_CURRENT_LIST_DIR}/CoinbaseVenue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/CoinbaseBookRules.h ${CMAKE_CURRENT_LIST_DIR}/CoinbaseBookRules.cpp
    ${CMAKE_CURRENT_LIST_DIR}/CoinbaseFields.h
    ${CMAKE_CURRENT_LIST_DIR}/CoinbaseSpec.h ${CMAKE_CURRENT_LIST_DIR}/CoinbaseSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/CoinbaseEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/CoinbaseScenarios.cpp)
