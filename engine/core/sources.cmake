target_sources(streamscope_engine PRIVATE
    core/Engine.h core/Engine.cpp
    core/EngineWorker.h core/EngineWorker.cpp
    core/SecretStore.h core/SecretStore.cpp
    core/StreamConfig.h
    core/StreamRecords.h
    core/StreamSession.h core/StreamSession.cpp
    core/StreamShared.h core/StreamShared.cpp
    core/StreamSnapshot.h
    core/StreamTypes.h core/StreamTypes.cpp
    core/Backoff.h core/Backoff.cpp
    core/ThreadHandOff.h
)

# Worker threads run an epoll event loop on Linux (EpollEventDispatcher.h says why).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_sources(streamscope_engine PRIVATE core/EpollEventDispatcher.h core/EpollEventDispatcher.cpp)
endif()
