#pragma once

// A file's bytes, for the tests that check what was written.

#include <QtCore/QByteArray>
#include <QtCore/QFile>
#include <QtCore/QString>

namespace streamscope::testing {

// The file's whole content; empty if it cannot be opened.
inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace streamscope::testing
