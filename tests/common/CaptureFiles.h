#pragma once

// What the capture tests read back from a recording folder: its one file, and a capture's
// messages without its events.

#include "CaptureFile.h"

#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QList>
#include <QtCore/QString>

namespace streamscope::testing {

// The folder's one file, or an empty string if it holds none or several.
inline QString onlyFile(const QString &dir)
{
    const QStringList files = QDir(dir).entryList(QDir::Files);
    return files.size() == 1 ? QDir(dir).filePath(files[0]) : QString();
}

// The payloads of the capture's messages, in order; its events left out.
inline QList<QByteArray> messagesOf(const replay::CaptureFile &f)
{
    QList<QByteArray> out;
    for (const auto &e : f.entries())
        if (e.kind != replay::CaptureFile::Kind::Event)
            out << e.payload;
    return out;
}

} // namespace streamscope::testing
