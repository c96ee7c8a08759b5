target_sources(streamscope_engine PRIVATE
    workspace/Workspace.h workspace/Workspace.cpp
)
