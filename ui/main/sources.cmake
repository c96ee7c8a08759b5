# ui/main: the main window, its commands and the controllers it composes.
target_sources(streamscope_ui PRIVATE
    main/MainActions.h main/MainActions.cpp
    main/MainWindow.h main/MainWindow.cpp main/MainWindow_Capture.cpp main/MainWindow_Export.cpp main/MainWindow_Flight.cpp
    main/MainWindow_Streams.cpp main/MainWindow_Workspace.cpp
    main/WorkspaceController.h main/WorkspaceController.cpp
)
