#include "SocketBacklog.h"

#include "LineTransport.h"
#include "NativeWebSocketTransport.h"
#include "WebSocketTransport.h"

#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>

#if defined(Q_OS_UNIX)
#include <sys/ioctl.h>
#elif defined(Q_OS_WIN)
#include <winsock2.h>
#endif

namespace streamscope {

qint64 socketUnreadBytes(const QAbstractSocket *socket)
{
    if (!socket)
        return -1;
    qint64 total = socket->bytesAvailable();
    const qintptr fd = socket->socketDescriptor();
    // An unbuffered socket's count is the kernel's already.
    if (fd == -1 || socket->openMode().testFlag(QIODevice::Unbuffered))
        return total;
#if defined(Q_OS_UNIX)
    int queued = 0;
    if (::ioctl(int(fd), FIONREAD, &queued) == 0 && queued > 0)
        total += queued;
#elif defined(Q_OS_WIN)
    u_long queued = 0;
    if (::ioctlsocket(SOCKET(fd), FIONREAD, &queued) == 0)
        total += qint64(queued);
#endif
    return total;
}

// The transports' backpressure figure lives here with the rest of it.
qint64 WebSocketTransport::unreadBytes() const
{
    return socketUnreadBytes(m_tcp.data());
}

// What the reader keeps of a cut frame or message was received and is not handed on yet.
qint64 NativeWebSocketTransport::unreadBytes() const
{
    if (!m_socket)
        return -1;
    return socketUnreadBytes(m_socket) + m_reader.pendingBytes();
}

qint64 LineTransport::unreadBytes() const
{
    return socketUnreadBytes(m_socket);
}

} // namespace streamscope
