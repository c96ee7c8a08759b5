# ui/sources: where the window's rows come from (SnapshotHub: the engine, remote agents, opened
# captures) and the process's CPU reading.
target_sources(streamscope_ui PRIVATE
    sources/CaptureList.h sources/CaptureList.cpp
    sources/CpuMeter.h sources/CpuMeter.cpp
    sources/RemoteAgent.h sources/RemoteAgent.cpp
    sources/SnapshotHub.h sources/SnapshotHub.cpp
)
