#include "PacedSender.h"

#include "BenchClock.h"
#include "BenchSocket.h"

#include "FrameSet.h"

#include <QtCore/QByteArray>
#include <QtCore/QCryptographicHash>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

namespace streamscope::bench {

namespace {

bool sendAll(SocketHandle fd, const char *data, std::size_t len)
{
    while (len) {
        const long long n = sendSome(fd, data, len);
        if (n <= 0)
            return false;
        data += n;
        len -= std::size_t(n);
    }
    return true;
}

// Sleeps until monotonicNs() reaches dueNs: an absolute deadline, so that the rate does not
// drift with the time each send takes.
void sleepUntilNs(std::int64_t dueNs)
{
#ifdef Q_OS_LINUX
    timespec ts{time_t(dueNs / 1000000000), long(dueNs % 1000000000)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
#else
    // macOS has no clock_nanosleep; on Windows monotonicNs() is the steady clock.
    const std::int64_t left = dueNs - monotonicNs();
    if (left > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(left));
#endif
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
    if (!startSockets())
        return 1;
    const SocketHandle listener = ::socket(AF_INET, SOCK_STREAM, 0);
    setReuseAddress(listener);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(listener, 4) != 0) {
        std::perror("sender: listen");
        return 1;
    }
    SocketLength alen = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &alen);
    std::printf("port %d\n", int(ntohs(addr.sin_port)));
    std::fflush(stdout);

    const SocketHandle fd = ::accept(listener, nullptr, nullptr);
    closeSocket(listener);
    if (fd == kNoSocket)
        return 1;
    setNoDelay(fd);
    std::string request;
    char tmp[4096];
    while (request.find("\r\n\r\n") == std::string::npos) {
        const long long n = receiveSome(fd, tmp, sizeof tmp);
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
        sleepUntilNs(due);
        writeStamp(frame.data() + stampAt, wallNs());
        if (!sendAll(fd, frame.data(), frame.size()))
            break;
    }
    // Wait for the client to hang up (it does once it has counted everything).
    while (receiveSome(fd, tmp, sizeof tmp) > 0) {
    }
    closeSocket(fd);
    return 0;
}

} // namespace streamscope::bench
