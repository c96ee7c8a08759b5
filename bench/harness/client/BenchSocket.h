#pragma once

// The few socket calls the `wire` client (WireReader) and the latency runs' sender
// (PacedSender) make, over BSD sockets on Linux and macOS and Winsock on Windows. Blocking
// sockets, no Qt: these two measure below Qt's socket layer on purpose.
//
// Thread contract: plain functions, callable from any thread; startSockets() once per process
// before the first socket (Winsock's WSAStartup; nothing elsewhere).

#include <QtCore/qsystemdetection.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>

#ifdef Q_OS_WIN
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <winsock2.h>
// After winsock2.h, which it needs.
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace streamscope::bench {

#ifdef Q_OS_WIN
using SocketHandle = SOCKET;
inline constexpr SocketHandle kNoSocket = INVALID_SOCKET;
using SocketLength = int;

inline bool startSockets()
{
    WSADATA data{};
    return WSAStartup(MAKEWORD(2, 2), &data) == 0;
}

inline void closeSocket(SocketHandle s)
{
    ::closesocket(s);
}

inline int pollSocket(SocketHandle s, short events, int timeoutMs)
{
    WSAPOLLFD p{};
    p.fd = s;
    p.events = events;
    return WSAPoll(&p, 1, timeoutMs);
}

inline std::string socketErrorText()
{
    return "Winsock error " + std::to_string(WSAGetLastError());
}
#else
using SocketHandle = int;
inline constexpr SocketHandle kNoSocket = -1;
using SocketLength = socklen_t;

inline bool startSockets()
{
    return true;
}

inline void closeSocket(SocketHandle s)
{
    ::close(s);
}

inline int pollSocket(SocketHandle s, short events, int timeoutMs)
{
    pollfd p{s, events, 0};
    return ::poll(&p, 1, timeoutMs);
}

inline std::string socketErrorText()
{
    return std::strerror(errno);
}
#endif

// A closed peer is an error return, never SIGPIPE: MSG_NOSIGNAL on Linux, SO_NOSIGPIPE on the
// socket on macOS (setNoDelay), and Windows has no SIGPIPE.
#ifdef Q_OS_LINUX
inline constexpr int kSendFlags = MSG_NOSIGNAL;
#else
inline constexpr int kSendFlags = 0;
#endif

// Turns Nagle off (and SIGPIPE, where that is a socket option).
inline void setNoDelay(SocketHandle s)
{
    const int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char *>(&one), sizeof one);
#ifdef SO_NOSIGPIPE
    setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, reinterpret_cast<const char *>(&one), sizeof one);
#endif
}

inline void setReuseAddress(SocketHandle s)
{
    const int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const char *>(&one), sizeof one);
}

// Bytes sent or received, 0 when the peer closed, negative on an error.
inline long long sendSome(SocketHandle s, const char *data, std::size_t len)
{
#ifdef Q_OS_WIN
    return ::send(s, data, int(len), kSendFlags); // Winsock counts in int
#else
    return ::send(s, data, len, kSendFlags);
#endif
}

inline long long receiveSome(SocketHandle s, char *data, std::size_t len)
{
#ifdef Q_OS_WIN
    return ::recv(s, data, int(len), 0);
#else
    return ::recv(s, data, len, 0);
#endif
}

} // namespace streamscope::bench
