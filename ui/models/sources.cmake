# ui/models: the item models behind the stream table, the inspector, the event log and the results /
# errors lists, and the per-second history.
target_sources(streamscope_ui PRIVATE
    models/CrossVenueModel.h models/CrossVenueModel.cpp
    models/DepthLadderModel.h models/DepthLadderModel.cpp
    models/EventLogModel.h models/EventLogModel.cpp
    models/InspectorModel.h models/InspectorModel.cpp
    models/ResponseModel.h models/ResponseModel.cpp
    models/StreamHistory.h models/StreamHistory.cpp
    models/StreamSortProxy.h models/StreamSortProxy.cpp
    models/StreamCells.h models/StreamCells.cpp
    models/StreamTableModel.h models/StreamTableModel.cpp
)
