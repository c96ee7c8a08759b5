# The venues of VenueList.h, one folder each: every listed folder's sources.cmake adds its
# engine sources (handler, decode spec, presets, registry entry) to
# STREAMSCOPE_VENUE_ENGINE_SOURCES and its replay scenarios (Qt Core only) to
# STREAMSCOPE_VENUE_SCENARIO_SOURCES. Adding a venue adds its folder and one line to
# VenueList.h; nothing here changes (docs/architecture.md, "Adding a venue").
set(STREAMSCOPE_VENUE_ENGINE_SOURCES)
set(STREAMSCOPE_VENUE_SCENARIO_SOURCES)
set(STREAMSCOPE_VENUES)
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/VenueList.h _streamscope_venue_lines REGEX "^STREAMSCOPE_VENUE\\(")
foreach(_line IN LISTS _streamscope_venue_lines)
    string(REGEX REPLACE "^STREAMSCOPE_VENUE\\(([a-z0-9_]+)\\).*" "\\1" _venue "${_line}")
    list(APPEND STREAMSCOPE_VENUES ${_venue})
    include(${CMAKE_CURRENT_LIST_DIR}/${_venue}/sources.cmake)
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/VenueList.h)
