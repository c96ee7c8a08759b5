#pragma once

// What a failed connection says to a user: Qt's text for the socket's error, except where
// that text hides the cause. Qt says "Out of resources" when no socket could be created at
// all (socket() failed with EMFILE, ENFILE, ENOBUFS or ENOMEM): the process or the system is
// out of file descriptors, or the kernel out of memory.
//
// Thread contract: a pure function, any thread.

#include <QtNetwork/QAbstractSocket>

namespace streamscope {

inline QString socketErrorText(QAbstractSocket::SocketError error, const QString &qtText)
{
    if (error == QAbstractSocket::SocketResourceError)
        return QStringLiteral("cannot create a socket: too many open files, or out of memory (%1)").arg(qtText);
    return qtText;
}

} // namespace streamscope
