# Fallback for simdjson and qtkeychain where no system package exists (the Windows and
# macOS release builds, or a Linux box without libsimdjson-dev / qtkeychain-qt6-dev).
#
#   cmake -S . -B build -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=packaging/cmake/StreamScopeDependencies.cmake
#
# CMake (3.24+) runs this file right after the top-level project(). find_package() stays
# the primary path: each dependency is first looked up with find_package(); only when that
# fails is the pinned source archive downloaded (checked against its SHA-256) and built as
# a static library. FetchContent then redirects the project's own later
# find_package(simdjson) / find_package(Qt6Keychain) calls to the built targets, so the
# project's CMakeLists.txt files are the same in both cases.
# To update a pin: change the version in the URL and the SHA-256 of the new archive
# (docs/releasing.md).

cmake_minimum_required(VERSION 3.24)
include(FetchContent)

set(STREAMSCOPE_SIMDJSON_URL
    "https://github.com/simdjson/simdjson/archive/refs/tags/v3.10.1.tar.gz")
set(STREAMSCOPE_SIMDJSON_SHA256
    "1e8f881cb2c0f626c56cd3665832f1e97b9d4ffc648ad9e1067c134862bba060")
set(STREAMSCOPE_QTKEYCHAIN_URL
    "https://github.com/frankosterfeld/qtkeychain/archive/refs/tags/0.16.0.tar.gz")
set(STREAMSCOPE_QTKEYCHAIN_SHA256
    "3be26ec4ae30eecf0c2ff7572ba83799791b157c76e15a05ef35f23dc25e4054")

FetchContent_Declare(simdjson
    URL "${STREAMSCOPE_SIMDJSON_URL}"
    URL_HASH SHA256=${STREAMSCOPE_SIMDJSON_SHA256}
    DOWNLOAD_EXTRACT_TIMESTAMP TRUE
    FIND_PACKAGE_ARGS CONFIG)
FetchContent_Declare(Qt6Keychain
    URL "${STREAMSCOPE_QTKEYCHAIN_URL}"
    URL_HASH SHA256=${STREAMSCOPE_QTKEYCHAIN_SHA256}
    DOWNLOAD_EXTRACT_TIMESTAMP TRUE
    FIND_PACKAGE_ARGS CONFIG)

block()
    # Static, no tests, no translations, no install rules in our packages' component.
    set(BUILD_SHARED_LIBS OFF)
    set(BUILD_TESTING OFF)
    set(SIMDJSON_DEVELOPER_MODE OFF)
    set(BUILD_WITH_QT6 ON)
    set(BUILD_TEST_APPLICATION OFF)
    set(BUILD_TRANSLATIONS OFF)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    # qtkeychain's own CMakeLists needs Qt before it is added.
    find_package(Qt6 REQUIRED COMPONENTS Core)
    if(UNIX AND NOT APPLE)
        find_package(Qt6 REQUIRED COMPONENTS DBus)
    endif()
    FetchContent_MakeAvailable(simdjson Qt6Keychain)
endblock()

# Give the in-tree builds the names and include paths of the installed packages.
if(TARGET simdjson AND NOT TARGET simdjson::simdjson)
    add_library(simdjson::simdjson ALIAS simdjson)
endif()
if(TARGET qt6keychain)
    get_target_property(_qtk_imported qt6keychain IMPORTED)
    if(NOT _qtk_imported)
        if(NOT TARGET Qt6Keychain::Qt6Keychain)
            add_library(Qt6Keychain::Qt6Keychain ALIAS qt6keychain)
        endif()
        # Installed headers live in <qt6keychain/keychain.h>; the source tree has
        # <qtkeychain/keychain.h>. A forwarding header serves the installed spelling.
        set(_fwd "${CMAKE_BINARY_DIR}/_deps/qt6keychain-forward")
        file(WRITE "${_fwd}/qt6keychain/keychain.h" "#include <qtkeychain/keychain.h>\n")
        target_include_directories(qt6keychain INTERFACE "$<BUILD_INTERFACE:${_fwd}>")
        get_target_property(_qtk_type qt6keychain TYPE)
        if(_qtk_type STREQUAL "STATIC_LIBRARY")
            # generate_export_header's macro for a static build (no dllimport on Windows).
            target_compile_definitions(qt6keychain PUBLIC QT6KEYCHAIN_STATIC_DEFINE)
        endif()
    endif()
endif()
