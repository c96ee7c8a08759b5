target_sources(streamscope_ui PRIVATE
    BetfairPage.h BetfairPage.cpp
    BinancePage.h BinancePage.cpp
    BinanceStreamBuilder.h BinanceStreamBuilder.cpp
    CaptureList.h CaptureList.cpp
    ChartStyle.h
    ConnectAgentDialog.h ConnectAgentDialog.cpp
    ControlIcons.h ControlIcons.cpp
    CpuMeter.h CpuMeter.cpp
    EventLogModel.h EventLogModel.cpp
    Export.h Export.cpp
    Format.h Format.cpp
    GenericPage.h GenericPage.cpp
    InspectorModel.h InspectorModel.cpp
    KeychainStore.h KeychainStore.cpp
    LatencyChart.h LatencyChart.cpp
    LatencyWindows.h LatencyWindows.cpp
    MainActions.h MainActions.cpp
    MainWindow.h MainWindow.cpp MainWindow_Capture.cpp MainWindow_Export.cpp MainWindow_Flight.cpp
    MainWindow_Streams.cpp MainWindow_Workspace.cpp
    MatchHighlightDelegate.h MatchHighlightDelegate.cpp
    MessageInspector.h MessageInspector.cpp
    NotifyDialog.h NotifyDialog.cpp
    RateChart.h RateChart.cpp
    RemoteAgent.h RemoteAgent.cpp
    ResponseModel.h ResponseModel.cpp
    Sparkline.h Sparkline.cpp
    StreamActionDelegate.h StreamActionDelegate.cpp
    StreamDetails.h StreamDetails.cpp
    StreamDialog.h StreamDialog.cpp
    StreamHistory.h StreamHistory.cpp
    StreamSortProxy.h StreamSortProxy.cpp
    StreamTableModel.h StreamTableModel.cpp
    Theme.h Theme.cpp
    Versions.h Versions.cpp
    WidgetHelpers.h WidgetHelpers.cpp
    WorkspaceController.h WorkspaceController.cpp
)
