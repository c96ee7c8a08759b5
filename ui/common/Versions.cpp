#include "Versions.h"

#include "Engine.h"

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
    return Engine::simdjsonVersion();
}

} // namespace streamscope::ui
