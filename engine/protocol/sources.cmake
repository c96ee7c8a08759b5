target_sources(streamscope_engine PRIVATE
    protocol/HeadScanner.h protocol/HeadScanner.cpp
    protocol/MessageDecoder.h protocol/MessageDecoder.cpp
    protocol/SequenceTracker.h protocol/SequenceTracker.cpp
)

# simdjson's ondemand kernel is chosen at compile time: give its one translation unit
# SSE4.2 + CLMUL (every x86-64 CPU since 2010) so it runs the SIMD "westmere" kernel.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64" AND NOT MSVC)
    set_source_files_properties(protocol/MessageDecoder.cpp PROPERTIES
        COMPILE_OPTIONS "-msse4.2;-mpclmul;-mpopcnt")
endif()
