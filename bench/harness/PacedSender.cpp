#include "PacedSender.h"

#include "BenchClock.h"

#include "FrameSet.h"

#include <QtCore/QByteArray>
#include <QtCore/QCryptographicHash>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace streamscope::bench {

namespace {

bool sendAll(int fd, const char *data, std::size_t len)
{
    while (len) {
        const ssize_t n = ::send(fd, data, len, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        data += n;
        len -= std::size_t(n);
    }
    return true;
}

void writeStamp(char *p, std::int64_t ns)
{
    for (int i = 18; i >= 0; --i) {
        p[i] = char('0' + ns % 10);
        ns /= 10;
    }
}

} // namespace

int PacedSender::run(std::uint64_t sizeBytes, double rate, std::uint64_t count)
{
    sizeBytes = std::max(sizeBytes, kMinSizeBytes);
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(listener, 4) != 0) {
        std::perror("sender: listen");
        return 1;
    }
    socklen_t alen = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &alen);
    std::printf("port %d\n", int(ntohs(addr.sin_port)));
    std::fflush(stdout);

    const int fd = ::accept(listener, nullptr, nullptr);
    ::close(listener);
    if (fd < 0)
        return 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::string request;
    char tmp[4096];
    while (request.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
        if (n <= 0)
            return 1;
        request.append(tmp, std::size_t(n));
    }
    std::string key;
    for (const char *name : {"Sec-WebSocket-Key: ", "sec-websocket-key: "}) {
        const std::size_t k = request.find(name);
        if (k != std::string::npos) {
            const std::size_t start = k + std::strlen(name);
            key = request.substr(start, request.find("\r\n", start) - start);
        }
    }
    const QByteArray accept =
        QCryptographicHash::hash(QByteArray::fromStdString(key) + replay::kHandshakeGuid, QCryptographicHash::Sha1)
            .toBase64();
    const std::string response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                 "Sec-WebSocket-Accept: "
        + accept.toStdString() + "\r\n\r\n";
    if (!sendAll(fd, response.data(), response.size()))
        return 1;

    // One frame, reused: header, then {"ts":<stamp>,"p":"xxxx"} padded to sizeBytes.
    std::string payload = "{\"ts\":0000000000000000000";
    if (sizeBytes >= 34) {
        payload += ",\"p\":\"";
        payload.append(sizeBytes - payload.size() - 2, 'x');
        payload += "\"}";
    } else {
        payload.append(sizeBytes - payload.size() - 1, ' ');
        payload += '}';
    }
    const QByteArray header = replay::FrameSet::webSocketHeader(payload.size());
    std::string frame(header.constData(), std::size_t(header.size()));
    const std::size_t stampAt = frame.size() + 6;
    frame += payload;

    const std::int64_t periodNs = std::int64_t(1e9 / rate);
    const std::int64_t start = monotonicNs() + 100000000; // let the client settle
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::int64_t due = start + std::int64_t(i) * periodNs;
        timespec ts{time_t(due / 1000000000), long(due % 1000000000)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
        writeStamp(frame.data() + stampAt, wallNs());
        if (!sendAll(fd, frame.data(), frame.size()))
            break;
    }
    // Wait for the client to hang up (it does once it has counted everything).
    while (::recv(fd, tmp, sizeof tmp, 0) > 0) {
    }
    ::close(fd);
    return 0;
}

} // namespace streamscope::bench
