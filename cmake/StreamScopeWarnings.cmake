# Warnings and sanitizers for StreamScope's own targets (never for third-party code).
function(streamscope_target_defaults target)
    if(MSVC)
        target_compile_options(${target} PRIVATE /W4 /permissive-)
        if(STREAMSCOPE_WERROR)
            target_compile_options(${target} PRIVATE /WX)
        endif()
    else()
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Wcast-align)
        # GCC's -Wshadow=local; clang (the fuzz build) has no such level: its -Wshadow checks
        # locals too, and also names a local that hides a global.
        if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
            target_compile_options(${target} PRIVATE -Wshadow)
        else()
            target_compile_options(${target} PRIVATE -Wshadow=local)
        endif()
        if(STREAMSCOPE_WERROR)
            target_compile_options(${target} PRIVATE -Werror)
        endif()
    endif()
    target_compile_definitions(${target} PRIVATE
        QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
        QT_NO_NARROWING_CONVERSIONS_IN_CONNECT QT_STRICT_ITERATORS
        STREAMSCOPE_VERSION="${PROJECT_VERSION}")
    # A unity build (STREAMSCOPE_UNITY_BUILD, on in the checks presets) compiles a target's
    # sources sixteen to a translation unit: Qt's precompiled headers are loaded, and the inline
    # code the sources share is compiled, once per sixteen (a library builds 2-5x faster). A
    # target of one source (a fuzzer) is left alone: wrapping it would gain nothing. A test
    # folder's executable is batched by streamscope_add_test (tests/CMakeLists.txt).
    # File-local names must therefore be unique within a target.
    if(STREAMSCOPE_UNITY_BUILD)
        get_target_property(_sources ${target} SOURCES)
        list(FILTER _sources INCLUDE REGEX "\\.cpp$")
        list(LENGTH _sources _count)
        if(_count GREATER 1)
            set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
        endif()
    endif()
    # Once every link of the target is known, it reuses one of the precompiled Qt headers
    # (cmake/StreamScopePrecompiledHeaders.cmake). EVAL: the deferred call gets the name now.
    if(STREAMSCOPE_PRECOMPILED_HEADERS)
        cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${PROJECT_SOURCE_DIR}]] CALL streamscope_reuse_precompiled_headers [[${target}]])")
    endif()
endfunction()

# The fuzz build (fuzz/, preset "fuzz") is an ASan+UBSan build whose code also carries
# libFuzzer's coverage instrumentation, so that the fuzzers' coverage reaches the engine, the
# replay server and the app they link; the fuzzers themselves add -fsanitize=fuzzer.
if(STREAMSCOPE_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "STREAMSCOPE_FUZZ needs clang and libFuzzer: cmake --preset fuzz")
    endif()
    if(NOT STREAMSCOPE_SANITIZE)
        set(STREAMSCOPE_SANITIZE "address;undefined")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(STREAMSCOPE_SANITIZE)
    string(REPLACE ";" "," _san "${STREAMSCOPE_SANITIZE}")
    add_compile_options(-fsanitize=${_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${_san})
endif()
