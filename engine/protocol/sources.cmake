target_sources(streamscope_engine PRIVATE
    protocol/HeadScanner.h protocol/HeadScanner.cpp
    protocol/MessageDecoder.h protocol/MessageDecoder.cpp
    protocol/SequenceTracker.h protocol/SequenceTracker.cpp
)
