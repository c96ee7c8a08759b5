# The generic venue (any JSON feed): its decode spec and registry entry (the base
# VenueHandler is its handler); no scenarios of its own.
list(APPEND STREAMSCOPE_VENUE_ENGINE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/GenericSpec.h ${CMAKE_CURRENT_LIST_DIR}/GenericSpec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/GenericEntry.cpp)
list(APPEND STREAMSCOPE_VENUE_SCENARIO_SOURCES ${CMAKE_CURRENT_LIST_DIR}/GenericScenarios.cpp)
