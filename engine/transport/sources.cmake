target_sources(streamscope_engine PRIVATE
    transport/LineFramer.h
    transport/Transport.h transport/Transport.cpp
    transport/Utf8Encode.h transport/Utf8Encode.cpp
    transport/WebSocketTransport.h transport/WebSocketTransport.cpp
    transport/LineTransport.h transport/LineTransport.cpp
)
