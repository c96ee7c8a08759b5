#pragma once

// Bytes received on a socket but not read by the application yet: the socket's own buffer
// (QAbstractSocket::bytesAvailable()) plus the kernel's receive queue (ioctl FIONREAD on the
// native descriptor, where the system has it). Called on the housekeeping tick, never per
// message. Any thread that owns the socket.

#include <QtCore/QtGlobal>

class QAbstractSocket;

namespace streamscope {

// -1 without a socket.
qint64 socketUnreadBytes(const QAbstractSocket *socket);

} // namespace streamscope
