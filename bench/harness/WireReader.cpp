#include "WireReader.h"

#include "BenchClock.h"
#include "BenchSocket.h"

#include "WebSocketWire.h"

#include <cstring>

namespace streamscope::bench {

using replay::kFin;
using replay::kLength16Marker;
using replay::kLength64Marker;
using replay::kLengthBits;
using replay::kMask;
using replay::kMaskKeySize;
using replay::kOpBinary;
using replay::kOpClose;
using replay::kOpcodeBits;
using replay::kOpContinuation;

namespace {

struct Url {
    std::string host;
    int port = 0;
    std::string target; // path and query
};

bool parseUrl(const std::string &url, Url &out)
{
    const std::string scheme = "ws://";
    if (url.compare(0, scheme.size(), scheme) != 0)
        return false;
    const std::size_t hostStart = scheme.size();
    const std::size_t slash = url.find('/', hostStart);
    const std::string hostPort =
        url.substr(hostStart, slash == std::string::npos ? std::string::npos : slash - hostStart);
    const std::size_t colon = hostPort.rfind(':');
    if (colon == std::string::npos)
        return false;
    out.host = hostPort.substr(0, colon);
    out.port = std::atoi(hostPort.c_str() + colon + 1);
    out.target = slash == std::string::npos ? std::string("/") : url.substr(slash);
    return out.port > 0;
}

std::int64_t parseStamp(const char *p, std::uint64_t len)
{
    // {"ts":1234567890123456789,
    if (len < 25 || std::memcmp(p, "{\"ts\":", 6) != 0)
        return -1;
    std::int64_t v = 0;
    for (int i = 6; i < 25; ++i)
        v = v * 10 + (p[i] - '0');
    return v;
}

} // namespace

WireReader::Result WireReader::run(const std::string &url, std::uint64_t count, bool stamped, double timeoutS)
{
    Result r;
    Url u;
    if (!parseUrl(url, u)) {
        r.error = "bad url " + url;
        return r;
    }
    if (!startSockets()) {
        r.error = "sockets: " + socketErrorText();
        return r;
    }
    const SocketHandle fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(u.port));
    inet_pton(AF_INET, u.host == "localhost" ? "127.0.0.1" : u.host.c_str(), &addr.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        r.error = "connect: " + socketErrorText();
        closeSocket(fd);
        return r;
    }
    setNoDelay(fd);
    const std::string request = "GET " + u.target + " HTTP/1.1\r\nHost: " + u.host + ":" + std::to_string(u.port)
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          "Sec-WebSocket-Version: 13\r\n\r\n";
    if (sendSome(fd, request.data(), request.size()) != static_cast<long long>(request.size())) {
        r.error = "send handshake failed";
        closeSocket(fd);
        return r;
    }

    std::vector<char> buf(1 << 20);
    std::size_t have = 0;
    const std::int64_t deadline = monotonicNs() + std::int64_t(timeoutS * 1e9);
    auto readSome = [&]() -> bool {
        for (;;) {
            const std::int64_t left = deadline - monotonicNs();
            if (left <= 0) {
                r.error = "timeout";
                return false;
            }
            // Latency runs wake every millisecond, as the engine clients' 1 ms observer tick does,
            // so that both see the same idle-CPU wake-up cost (large on this VM).
            const int pr = pollSocket(fd, POLLIN, int(std::min<std::int64_t>(left / 1000000 + 1, stamped ? 1 : 1000)));
            if (pr <= 0)
                continue;
            const long long n = receiveSome(fd, buf.data() + have, buf.size() - have);
            if (n <= 0) {
                r.error = n == 0 ? "peer closed" : "recv: " + socketErrorText();
                return false;
            }
            have += std::size_t(n);
            return true;
        }
    };

    // Handshake response.
    std::size_t headerEnd = std::string::npos;
    while (headerEnd == std::string::npos) {
        if (!readSome()) {
            closeSocket(fd);
            return r;
        }
        const std::string_view view(buf.data(), have);
        const std::size_t e = view.find("\r\n\r\n");
        if (e != std::string_view::npos)
            headerEnd = e + 4;
    }
    if (std::memcmp(buf.data(), "HTTP/1.1 101", 12) != 0) {
        r.error = "handshake refused: " + std::string(buf.data(), std::min<std::size_t>(have, 80));
        closeSocket(fd);
        return r;
    }
    std::memmove(buf.data(), buf.data() + headerEnd, have - headerEnd);
    have -= headerEnd;

    r.sizes.reserve(std::size_t(count));
    if (stamped)
        r.latencyNs.reserve(std::size_t(count));
    std::uint64_t skip = 0;         // payload bytes of the current frame still to pass over
    std::uint64_t messageBytes = 0; // of the current (possibly fragmented) message
    bool endsMessage = false;
    bool done = false;
    auto onMessage = [&] {
        const std::int64_t now = monotonicNs();
        if (r.received == 0) {
            r.firstNs = now;
            r.cpuFirstUs = processCpuUs();
            r.receivedAtFirst = 1;
        }
        ++r.received;
        r.sizes.push_back(std::uint32_t(messageBytes));
        messageBytes = 0;
        if (r.received >= count) {
            r.lastNs = now;
            r.cpuLastUs = processCpuUs();
            done = true;
        }
    };
    while (!done) {
        std::size_t pos = 0;
        while (!done) {
            if (skip) {
                const std::uint64_t take = std::min<std::uint64_t>(skip, have - pos);
                pos += std::size_t(take);
                skip -= take;
                if (skip)
                    break;
                if (endsMessage)
                    onMessage();
                continue;
            }
            if (have - pos < 2)
                break;
            const auto b0 = std::uint8_t(buf[pos]);
            const auto b1 = std::uint8_t(buf[pos + 1]);
            const unsigned len7 = b1 & kLengthBits;
            const std::size_t hlen = 2
                + (len7 == kLength16Marker       ? 2
                       : len7 == kLength64Marker ? 8
                                                 : 0)
                + ((b1 & kMask) ? kMaskKeySize : 0);
            if (have - pos < hlen)
                break;
            std::uint64_t len = len7;
            if (len7 == kLength16Marker) {
                len = (std::uint64_t(std::uint8_t(buf[pos + 2])) << 8) | std::uint8_t(buf[pos + 3]);
            } else if (len7 == kLength64Marker) {
                len = 0;
                for (int i = 0; i < 8; ++i)
                    len = (len << 8) | std::uint8_t(buf[pos + 2 + std::size_t(i)]);
            }
            const unsigned opcode = b0 & kOpcodeBits;
            const bool data = opcode <= kOpBinary;
            const bool firstFrame = data && opcode != kOpContinuation;
            if (stamped && firstFrame && len >= 25 && have - pos - hlen < 25)
                break; // wait for the stamp
            if (opcode == kOpClose) {
                r.error = "server closed";
                done = true;
                break;
            }
            if (stamped && firstFrame) {
                const std::int64_t ts = parseStamp(buf.data() + pos + hlen, len);
                if (ts > 0)
                    r.latencyNs.push_back(wallNs() - ts);
            }
            pos += hlen;
            skip = len;
            if (data)
                messageBytes += len;
            endsMessage = data && (b0 & kFin);
            if (skip == 0 && endsMessage)
                onMessage();
        }
        if (done)
            break;
        if (skip) {
            // The rest of this buffer is payload: pass over it without keeping it.
            pos = have;
        }
        std::memmove(buf.data(), buf.data() + pos, have - pos);
        have -= pos;
        if (!readSome())
            break;
    }
    closeSocket(fd);
    if (r.received >= count)
        r.error.clear();
    return r;
}

} // namespace streamscope::bench
