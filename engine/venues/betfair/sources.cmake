# Betfair (docs/venues.md): handler, its images and session keep-alive, decode spec and its field slots,
# registry entry, the price ladders' book rules; scenarios.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/BetfairVenue.h ${CMAKE_CURRENT_LIST_DIR}/BetfairVenue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BetfairVenueBooks.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BetfairBookRules.h ${CMAKE_CURRENT_LIST_DIR}/BetfairBookRules.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BetfairImages.h ${CMAKE_CURRENT_LIST_DIR}/BetfairImages.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BetfairKeepAlive.h ${CMAKE_CURRENT_LIST_DIR}/BetfairKeepAlive.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BetfairFields.h
    ${CMAKE_CURRENT_LIST_DIR}/BetfairSpec.h ${CMAKE_CURRENT_LIST_DIR}/BetfairSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BetfairEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/BetfairScenarios.cpp)
