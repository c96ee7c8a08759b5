#include "Versions.h"

// The amalgamated header is the only one that defines SIMDJSON_VERSION; it is included in
// this file alone to keep its compile time out of the rest of the UI.
#include <simdjson.h>

#define STREAMSCOPE_STR2(x) #x
#define STREAMSCOPE_STR(x) STREAMSCOPE_STR2(x)

namespace streamscope::ui {

QString streamscopeVersion()
{
    return QStringLiteral(STREAMSCOPE_VERSION);
}

QString qtRuntimeVersion()
{
    const QString runtime = QString::fromLatin1(qVersion());
    const QString built = QStringLiteral(QT_VERSION_STR);
    return runtime == built ? runtime : QStringLiteral("%1 (built with %2)").arg(runtime, built);
}

QString simdjsonVersion()
{
    return QStringLiteral(STREAMSCOPE_STR(SIMDJSON_VERSION));
}

} // namespace streamscope::ui
