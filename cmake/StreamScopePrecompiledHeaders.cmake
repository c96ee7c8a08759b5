# Precompiled Qt headers for the presets scripts/test.sh builds (STREAMSCOPE_PRECOMPILED_HEADERS,
# on in CMakePresets.json's "checks"). Parsing Qt's headers is most of what a translation unit
# costs here: <QtCore/QString> alone takes 1.5 s of CPU, <QtTest/QtTest> 4.5 s, <QtWidgets>
# 7.5 s, against 1-2 s for the code of a typical source and 0.5 s to load a precompiled header.
# Two headers are compiled once per build and every target of ours reuses one of them
# (REUSE_FROM), so about 300 translation units stop parsing Qt each on their own.
#
# GCC uses a precompiled header only if every macro defined when it was built is defined the
# same way where it is used (a macro the header never tests may be added). So each is built by
# a target of its own that defines only what all its users define: streamscope_target_defaults'
# macros and those of Qt6::Core (the "core" header), plus Gui, Widgets and Charts (the
# "widgets" header, for targets that link Qt Widgets and Charts). A target whose macros do not
# fit gets GCC's -Winvalid-pch warning (not an error: scripts/build.sh prints it) and parses
# the headers itself; nothing else changes.
#
# Builds without it (the release workflow's, a plain `cmake -S .`) compile every source on its
# own headers, so a missing #include is caught there; scripts/check-portability.sh batches its
# sources and catches one only with PORTABILITY_BATCH=1.
option(STREAMSCOPE_PRECOMPILED_HEADERS "Build Qt's headers once and reuse them in every target" OFF)

if(STREAMSCOPE_PRECOMPILED_HEADERS)
    # Sources with options of their own (engine/protocol/MessageDecoder.cpp's -msse4.2) and
    # targets with code generation options of their own (the fuzzers' -fsanitize=fuzzer)
    # cannot use a header built without them: they are left out below.
    set(_pch_dir ${CMAKE_CURRENT_LIST_DIR}/pch)
    add_library(streamscope_pch_core OBJECT ${_pch_dir}/PchCore.cpp)
    target_link_libraries(streamscope_pch_core PRIVATE Qt6::Core)
    # Network and WebSockets: their headers only, not their macros (QT_NETWORK_LIB...), which
    # not every user defines.
    target_include_directories(streamscope_pch_core SYSTEM PRIVATE
        $<TARGET_PROPERTY:Qt6::Network,INTERFACE_INCLUDE_DIRECTORIES>
        $<TARGET_PROPERTY:Qt6::WebSockets,INTERFACE_INCLUDE_DIRECTORIES>)
    target_precompile_headers(streamscope_pch_core PRIVATE
        <QtCore/QtCore> <QtNetwork/QtNetwork> <QtWebSockets/QtWebSockets>)
    streamscope_target_defaults(streamscope_pch_core)

    if(STREAMSCOPE_BUILD_GUI)
        add_library(streamscope_pch_widgets OBJECT ${_pch_dir}/PchCore.cpp)
        target_link_libraries(streamscope_pch_widgets PRIVATE Qt6::Widgets Qt6::Charts)
        target_include_directories(streamscope_pch_widgets SYSTEM PRIVATE
            $<TARGET_PROPERTY:Qt6::Network,INTERFACE_INCLUDE_DIRECTORIES>
            $<TARGET_PROPERTY:Qt6::WebSockets,INTERFACE_INCLUDE_DIRECTORIES>)
        target_precompile_headers(streamscope_pch_widgets PRIVATE
            <QtCore/QtCore> <QtNetwork/QtNetwork> <QtWebSockets/QtWebSockets>
            <QtGui/QtGui> <QtWidgets/QtWidgets> <QtCharts/QtCharts>)
        streamscope_target_defaults(streamscope_pch_widgets)
    endif()
endif()

# Whether `target` is compiled with the macros of Qt Widgets and Qt Charts: it links them, or
# links a library of ours that passes them on (PUBLIC or INTERFACE).
function(_streamscope_links_widgets target out)
    set(_seen)
    set(_todo ${target})
    set(_widgets FALSE)
    set(_charts FALSE)
    set(_first TRUE)
    while(_todo)
        list(POP_FRONT _todo _t)
        if(_t IN_LIST _seen OR NOT TARGET ${_t})
            continue()
        endif()
        list(APPEND _seen ${_t})
        get_target_property(_aliased ${_t} ALIASED_TARGET)
        if(_aliased)
            set(_t ${_aliased})
        endif()
        if(_t STREQUAL "Qt6::Widgets")
            set(_widgets TRUE)
        elseif(_t STREQUAL "Qt6::Charts")
            set(_charts TRUE)
        endif()
        get_target_property(_imported ${_t} IMPORTED)
        if(_imported)
            continue()
        endif()
        # The target's own links all give it their macros; a library's PRIVATE links
        # ($<LINK_ONLY:...> in its interface) give its users none.
        if(_first)
            get_target_property(_links ${_t} LINK_LIBRARIES)
            set(_first FALSE)
        else()
            get_target_property(_links ${_t} INTERFACE_LINK_LIBRARIES)
        endif()
        foreach(_l IN LISTS _links)
            if(NOT _l MATCHES "^\\$<LINK_ONLY:" AND TARGET "${_l}")
                list(APPEND _todo ${_l})
            endif()
        endforeach()
    endwhile()
    if(_widgets AND _charts)
        set(${out} TRUE PARENT_SCOPE)
    else()
        set(${out} FALSE PARENT_SCOPE)
    endif()
endfunction()

# Called (deferred to the end of the configuration, when every link is known) for each target
# that streamscope_target_defaults set up.
function(streamscope_reuse_precompiled_headers target)
    if(target MATCHES "^streamscope_pch_")
        return()
    endif()
    _streamscope_links_widgets(${target} _widgets)
    if(_widgets AND TARGET streamscope_pch_widgets)
        set(_owner streamscope_pch_widgets)
    else()
        set(_owner streamscope_pch_core)
    endif()
    # Code generation options (-f..., -m...) of the target's own, beyond those every target
    # gets from the directory (the sanitizers): the header was not built with them.
    get_target_property(_options ${target} COMPILE_OPTIONS)
    get_target_property(_owner_options ${_owner} COMPILE_OPTIONS)
    foreach(_o IN LISTS _options)
        if(_o MATCHES "^-[fm]" AND NOT _o IN_LIST _owner_options)
            return()
        endif()
    endforeach()
    target_precompile_headers(${target} REUSE_FROM ${_owner})
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-error=invalid-pch>)
    # An executable's moc file (AUTOMOC's mocs_compilation.cpp) is empty when its sources
    # include their own moc output, as every test does: loading the header for it costs more
    # CPU (1.8 s for the widgets header) than compiling it without (0.0 s), once per test.
    get_target_property(_type ${target} TYPE)
    get_target_property(_automoc ${target} AUTOMOC)
    if(_type STREQUAL "EXECUTABLE" AND _automoc)
        get_target_property(_binary_dir ${target} BINARY_DIR)
        set_source_files_properties(${_binary_dir}/${target}_autogen/mocs_compilation.cpp TARGET_DIRECTORY ${target}
            PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
    get_target_property(_sources ${target} SOURCES)
    get_target_property(_source_dir ${target} SOURCE_DIR)
    foreach(_s IN LISTS _sources)
        if(NOT IS_ABSOLUTE "${_s}")
            set(_s "${_source_dir}/${_s}")
        endif()
        get_source_file_property(_source_options ${_s} TARGET_DIRECTORY ${target} COMPILE_OPTIONS)
        get_source_file_property(_source_defs ${_s} TARGET_DIRECTORY ${target} COMPILE_DEFINITIONS)
        if(_source_options OR _source_defs)
            set_source_files_properties(${_s} TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
        endif()
    endforeach()
endfunction()
