#include "WorkspaceReader.h"

#include "InputFile.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>

namespace streamscope::workspace_detail {

bool readTls(ObjectReader &r, const QString &file, QString &caFile)
{
    const auto v = r.object(QStringLiteral("tls"));
    if (!v)
        return r.ok();
    ObjectReader tls(*v, r.keyPath(QStringLiteral("tls")), r.result(), file);
    if (auto s = tls.string(QStringLiteral("ca_file"))) {
        QString ca = *s;
        if (QFileInfo(ca).isRelative() && !file.isEmpty())
            ca = QFileInfo(file).absoluteDir().filePath(ca);
        // Opened as every connection will open it: a regular file within the PEM bound.
        InputFile::Limits limits;
        limits.maxBytes = InputFile::kMaxPemBytes;
        limits.timeout = InputFile::kSmallFileTimeout;
        QString why;
        if (!InputFile::readAll(ca, limits, &why))
            return tls.error(QStringLiteral("ca_file"), QStringLiteral("expected a readable PEM file, %1").arg(why));
        caFile = ca;
    }
    if (!tls.ok())
        return false;
    tls.warnUnknownKeys();
    return true;
}

} // namespace streamscope::workspace_detail
