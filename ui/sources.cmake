target_sources(streamscope_ui PRIVATE
    AlertMonitor.h AlertMonitor.cpp
    AlertRule.h AlertRule.cpp
    BinanceStreamBuilder.h BinanceStreamBuilder.cpp
    ChartStyle.h
    CpuMeter.h CpuMeter.cpp
    EventLogModel.h EventLogModel.cpp
    Format.h Format.cpp
    InspectorModel.h InspectorModel.cpp
    KeychainStore.h KeychainStore.cpp
    LatencyChart.h LatencyChart.cpp
    LatencyWindows.h LatencyWindows.cpp
    MainWindow.h MainWindow.cpp
    MessageInspector.h MessageInspector.cpp
    RateChart.h RateChart.cpp
    RateHistory.h RateHistory.cpp
    ResponseModel.h ResponseModel.cpp
    StreamActionDelegate.h StreamActionDelegate.cpp
    StreamDialog.h StreamDialog.cpp
    StreamTableModel.h StreamTableModel.cpp
    Theme.h Theme.cpp
    Versions.h Versions.cpp
)
