# cmake -P packaging/cmake/print-version.cmake
# Prints the version set in the top-level project() call (the single source of the
# version), without configuring. Used by the release workflow to check the pushed tag.
get_filename_component(_top "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
file(READ "${_top}/CMakeLists.txt" _cml)
if(NOT _cml MATCHES "project\\([ \t\r\n]*StreamScope[^)]*VERSION[ \t\r\n]+([0-9]+\\.[0-9]+\\.[0-9]+)")
    message(FATAL_ERROR "no project(StreamScope VERSION x.y.z) in ${_top}/CMakeLists.txt")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${CMAKE_MATCH_1}")
