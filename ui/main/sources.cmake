# ui/main: the main window, its commands and the controllers it composes.
target_sources(streamscope_ui PRIVATE
    main/AlertsController.h main/AlertsController.cpp
    main/CaptureController.h main/CaptureController.cpp
    main/ExportController.h main/ExportController.cpp
    main/FlightRecorderController.h main/FlightRecorderController.cpp
    main/MainActions.h main/MainActions.cpp
    main/MainWindow.h main/MainWindow.cpp main/MainWindow_Layout.cpp main/MainWindow_Streams.cpp
    main/SelectionController.h main/SelectionController.cpp
    main/StatusBarController.h main/StatusBarController.cpp
    main/StreamColumnWidths.h main/StreamColumnWidths.cpp
    main/WorkspaceController.h main/WorkspaceController.cpp
)
