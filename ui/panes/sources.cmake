# ui/panes: the dock panes' widgets (message inspector, stream details, event log) and the
# table's delegates.
target_sources(streamscope_ui PRIVATE
    panes/CrossVenuePane.h panes/CrossVenuePane.cpp
    panes/DepthBarDelegate.h panes/DepthBarDelegate.cpp
    panes/DepthLadder.h panes/DepthLadder.cpp
    panes/EventLogPane.h panes/EventLogPane.cpp
    panes/FrozenColumnsView.h panes/FrozenColumnsView.cpp
    panes/InstrumentList.h panes/InstrumentList.cpp
    panes/MatchHighlightDelegate.h panes/MatchHighlightDelegate.cpp
    panes/MessageInspector.h panes/MessageInspector.cpp
    panes/StreamActionDelegate.h panes/StreamActionDelegate.cpp
    panes/StreamDetails.h panes/StreamDetails.cpp
)
