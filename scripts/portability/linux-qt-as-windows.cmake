# Included after project() by windows-toolchain.cmake. A Windows generator wants an import
# library (IMPORTED_IMPLIB) for every shared library it links; the Linux Qt, qtkeychain and
# simdjson have none. Once every CMakeLists.txt has been read, point each imported shared
# library at one empty placeholder: enough to generate the build files, which are only used
# for their compile commands and moc, never to link.

# Imported targets global, so that the deferred call below may change those found in ui/.
set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ON)

function(_streamscope_fake_import_libraries dir)
    set(placeholder "${CMAKE_BINARY_DIR}/no-import-library.lib")
    file(TOUCH "${placeholder}")
    get_property(targets DIRECTORY "${dir}" PROPERTY IMPORTED_TARGETS)
    foreach(target IN LISTS targets)
        get_target_property(type ${target} TYPE)
        if(type STREQUAL "SHARED_LIBRARY")
            set_target_properties(${target} PROPERTIES IMPORTED_IMPLIB "${placeholder}")
        endif()
    endforeach()
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    foreach(subdir IN LISTS subdirs)
        _streamscope_fake_import_libraries("${subdir}")
    endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _streamscope_fake_import_libraries "${CMAKE_SOURCE_DIR}")
