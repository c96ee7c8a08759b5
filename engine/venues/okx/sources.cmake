# OKX (docs/venues.md): handler, order-book continuity and rules, decode spec and its field slots,
# registry entry with presets; scenarios.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/OkxVenue.h ${CMAKE_CURRENT_LIST_DIR}/OkxVenue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/OkxSequence.h ${CMAKE_CURRENT_LIST_DIR}/OkxSequence.cpp
    ${CMAKE_CURRENT_LIST_DIR}/OkxBookRules.h ${CMAKE_CURRENT_LIST_DIR}/OkxBookRules.cpp
    ${CMAKE_CURRENT_LIST_DIR}/OkxFields.h
    ${CMAKE_CURRENT_LIST_DIR}/OkxSpec.h ${CMAKE_CURRENT_LIST_DIR}/OkxSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/OkxEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/OkxScenarios.cpp)
