#pragma once

// A loopback port on which nothing listens, kept so for this object's life: a TCP socket is
// bound to it and never listens. A connection to it is refused at once; no other process is
// given the port by a bind to port 0 meanwhile (a probe that listens and closes again leaves it
// free for any test running beside, whose server then answers, or stays silent, in its place);
// and no client connecting to it is given it as its own source port, which would connect the
// client to itself. release() frees it, for a test that starts a server there afterwards.
// Elsewhere than on Unix: a probe that listens and closes, as before.

#include <QtCore/QtGlobal>

#ifdef Q_OS_UNIX
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#else
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpServer>
#endif

namespace streamscope::testing {

class RefusingPort {
public:
    // port() is 0 when no port could be bound.
    RefusingPort()
    {
#ifdef Q_OS_UNIX
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (m_fd < 0)
            return;
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof address;
        if (::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &size) != 0) {
            release();
            return;
        }
        m_port = ntohs(address.sin_port);
#else
        QTcpServer probe;
        if (probe.listen(QHostAddress::LocalHost, 0))
            m_port = probe.serverPort();
#endif
    }
    ~RefusingPort()
    {
        release();
    }
    RefusingPort(const RefusingPort &) = delete;
    RefusingPort &operator=(const RefusingPort &) = delete;

    quint16 port() const
    {
        return m_port;
    }

    // Frees the port: a server may listen on it now (port() still says which it was).
    void release()
    {
#ifdef Q_OS_UNIX
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
#endif
    }

private:
    int m_fd = -1;
    quint16 m_port = 0;
};

} // namespace streamscope::testing
