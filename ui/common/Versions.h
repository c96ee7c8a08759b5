#pragma once

// Version strings for the About dialog. Any thread.

#include <QtCore/QString>

namespace streamscope::ui {

QString streamscopeVersion(); // STREAMSCOPE_VERSION
QString qtRuntimeVersion();   // the Qt loaded at run time, and the one built against if different
QString simdjsonVersion();    // the simdjson the engine is built with

} // namespace streamscope::ui
