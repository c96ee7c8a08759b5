# Bybit (docs/venues.md): handler, order-book continuity and rules, decode spec and its field
# slots, registry entry with presets; scenarios.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/BybitVenue.h ${CMAKE_CURRENT_LIST_DIR}/BybitVenue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BybitSequence.h ${CMAKE_CURRENT_LIST_DIR}/BybitSequence.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BybitBookRules.h ${CMAKE_CURRENT_LIST_DIR}/BybitBookRules.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BybitFields.h
    ${CMAKE_CURRENT_LIST_DIR}/BybitSpec.h ${CMAKE_CURRENT_LIST_DIR}/BybitSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/BybitEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/BybitScenarios.cpp)
