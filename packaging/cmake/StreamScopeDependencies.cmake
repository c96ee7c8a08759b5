# Fallback for simdjson, qtkeychain and zstd where no system package exists (the Windows and
# macOS release builds, or a Linux box without libsimdjson-dev / qtkeychain-qt6-dev).
#
#   cmake -S . -B build \
#         -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=packaging/cmake/StreamScopeDependencies.cmake
#
# It installs a CMake dependency provider (CMake 3.24+) for find_package(simdjson),
# find_package(Qt6Keychain) and find_package(zstd). find_package() stays the primary path: the provider first
# calls the ordinary find_package(); only when that finds nothing does it download the
# pinned source archive (verified against its SHA-256), build it as a static library in
# the build tree and report the package as found. The project's CMakeLists.txt files are
# the same either way; other packages (Qt) are never touched.
# To update a pin: change the version in the URL and the SHA-256 of the new archive
# (docs/releasing.md). Both may be overridden with -D, e.g. to point at a local mirror.
# -DSTREAMSCOPE_FORCE_FETCH="simdjson;Qt6Keychain;zstd" skips the installed packages (to test
# this path on a machine that has them).

if(NOT DEFINED STREAMSCOPE_SIMDJSON_URL)
    set(STREAMSCOPE_SIMDJSON_URL
        "https://github.com/simdjson/simdjson/archive/refs/tags/v3.10.1.tar.gz")
    set(STREAMSCOPE_SIMDJSON_SHA256
        "1e8f881cb2c0f626c56cd3665832f1e97b9d4ffc648ad9e1067c134862bba060")
endif()
if(NOT DEFINED STREAMSCOPE_QTKEYCHAIN_URL)
    set(STREAMSCOPE_QTKEYCHAIN_URL
        "https://github.com/frankosterfeld/qtkeychain/archive/refs/tags/0.16.0.tar.gz")
    set(STREAMSCOPE_QTKEYCHAIN_SHA256
        "3be26ec4ae30eecf0c2ff7572ba83799791b157c76e15a05ef35f23dc25e4054")
endif()

if(NOT DEFINED STREAMSCOPE_ZSTD_URL)
    set(STREAMSCOPE_ZSTD_URL
        "https://github.com/facebook/zstd/releases/download/v1.5.6/zstd-1.5.6.tar.gz")
    set(STREAMSCOPE_ZSTD_SHA256
        "8c29e06cf42aacc1eafc4077ae2ec6c6fcb96a626157e0593d5e82a34fd403c1")
endif()

include(FetchContent)

function(streamscope_fetch_zstd)
    # The library only (build/cmake of the release archive), static, as zstd::libzstd_static.
    FetchContent_Declare(zstd
        URL "${STREAMSCOPE_ZSTD_URL}"
        URL_HASH SHA256=${STREAMSCOPE_ZSTD_SHA256}
        SOURCE_SUBDIR build/cmake
        DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
    set(ZSTD_BUILD_PROGRAMS OFF)
    set(ZSTD_BUILD_TESTS OFF)
    set(ZSTD_BUILD_CONTRIB OFF)
    set(ZSTD_BUILD_SHARED OFF)
    set(ZSTD_BUILD_STATIC ON)
    set(ZSTD_LEGACY_SUPPORT OFF)
    set(CMAKE_POLICY_DEFAULT_CMP0077 NEW) # its option()s take the values set here
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    FetchContent_MakeAvailable(zstd)
    if(NOT TARGET libzstd_static)
        message(FATAL_ERROR "zstd fallback: the source did not define `libzstd_static`")
    endif()
    target_include_directories(libzstd_static INTERFACE "$<BUILD_INTERFACE:${zstd_SOURCE_DIR}/lib>")
    if(NOT TARGET zstd::libzstd_static)
        add_library(zstd::libzstd_static ALIAS libzstd_static)
    endif()
endfunction()

function(streamscope_fetch_simdjson)
    FetchContent_Declare(simdjson
        URL "${STREAMSCOPE_SIMDJSON_URL}"
        URL_HASH SHA256=${STREAMSCOPE_SIMDJSON_SHA256}
        DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
    set(BUILD_SHARED_LIBS OFF)
    set(BUILD_TESTING OFF)
    set(SIMDJSON_DEVELOPER_MODE OFF)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    FetchContent_MakeAvailable(simdjson)
    if(TARGET simdjson AND NOT TARGET simdjson::simdjson)
        add_library(simdjson::simdjson ALIAS simdjson)
    endif()
endfunction()

function(streamscope_fetch_qt6keychain)
    FetchContent_Declare(Qt6Keychain
        URL "${STREAMSCOPE_QTKEYCHAIN_URL}"
        URL_HASH SHA256=${STREAMSCOPE_QTKEYCHAIN_SHA256}
        DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
    set(BUILD_SHARED_LIBS OFF)
    set(BUILD_TESTING OFF)
    set(BUILD_WITH_QT6 ON)
    set(BUILD_TEST_APPLICATION OFF)
    set(BUILD_TRANSLATIONS OFF)   # would need Qt LinguistTools
    set(QTKEYCHAIN_STATIC ON)     # older releases spell BUILD_SHARED_LIBS=OFF this way
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    FetchContent_MakeAvailable(Qt6Keychain)
    if(NOT TARGET qt6keychain)
        message(FATAL_ERROR "qtkeychain fallback: the source did not define `qt6keychain`")
    endif()
    if(NOT TARGET Qt6Keychain::Qt6Keychain)
        add_library(Qt6Keychain::Qt6Keychain ALIAS qt6keychain)
    endif()
    # Installed headers are <qt6keychain/keychain.h>; the source tree has
    # <qtkeychain/keychain.h>. A forwarding header serves the installed spelling.
    set(fwd "${CMAKE_BINARY_DIR}/_deps/qt6keychain-forward")
    file(CONFIGURE OUTPUT "${fwd}/qt6keychain/keychain.h"
         CONTENT "#include <qtkeychain/keychain.h>\n")
    target_include_directories(qt6keychain INTERFACE "$<BUILD_INTERFACE:${fwd}>")
    get_target_property(type qt6keychain TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
        # generate_export_header's switch for a static build (no dllimport on Windows).
        target_compile_definitions(qt6keychain PUBLIC QT6KEYCHAIN_STATIC_DEFINE)
    endif()
endfunction()

# A macro, so that <Package>_FOUND and the package's variables reach the caller.
macro(streamscope_provide_dependency method package_name)
    if("${package_name}" MATCHES "^(simdjson|Qt6Keychain|zstd)$")
        set(_streamscope_args ${ARGN})
        list(REMOVE_ITEM _streamscope_args REQUIRED)
        if(NOT "${package_name}" IN_LIST STREAMSCOPE_FORCE_FETCH)
            find_package(${package_name} ${_streamscope_args} QUIET BYPASS_PROVIDER)
        endif()
        if(NOT ${package_name}_FOUND)
            message(STATUS "${package_name}: no installed package, building the pinned source")
            string(TOLOWER "${package_name}" _streamscope_lower)
            cmake_language(CALL streamscope_fetch_${_streamscope_lower})
            set(${package_name}_FOUND TRUE)
        endif()
    else()
        # Not ours: leave it to the normal search. CMake treats a <Package>_FOUND still
        # true from an earlier find_package() (Qt6 is found twice, with different
        # components) as "provided" and would skip the search, so clear it first.
        unset(${package_name}_FOUND)
    endif()
endmacro()

cmake_language(SET_DEPENDENCY_PROVIDER streamscope_provide_dependency
               SUPPORTED_METHODS FIND_PACKAGE)
