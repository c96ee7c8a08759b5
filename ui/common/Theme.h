#pragma once

// Light and dark themes. "System" keeps the platform's style and palette (and on Qt 6.5+
// follows its colour scheme); "Light" and "Dark" use Fusion with a fixed palette, "Dark" with
// its check boxes and radio buttons outlined (OutlinedIndicatorStyle).
// Applied application-wide, GUI thread only.

#include <QtCore/QString>

namespace streamscope::ui {

class Theme {
public:
    enum class Mode { Unknown = 0, System, Light, Dark };

    static Mode mode();
    // Applies `mode`; returns true when the resulting palette is dark.
    static bool apply(Mode mode);
    static QString modeName(Mode mode);
    static Mode modeFromName(const QString &name);
};

} // namespace streamscope::ui
