# ui/common: formatting, theme, icons, versions, the export writers, the keychain and small widget
# helpers that every area of the desktop app uses.
target_sources(streamscope_ui PRIVATE
    common/ControlIcons.h common/ControlIcons.cpp
    common/ElidedLabel.h common/ElidedLabel.cpp
    common/ElidingStatusBar.h common/ElidingStatusBar.cpp
    common/Export.h common/Export.cpp
    common/Format.h common/Format.cpp
    common/KeychainStore.h common/KeychainStore.cpp
    common/OutlinedIndicatorStyle.h common/OutlinedIndicatorStyle.cpp
    common/Theme.h common/Theme.cpp
    common/Versions.h common/Versions.cpp
    common/WidgetHelpers.h common/WidgetHelpers.cpp
)
