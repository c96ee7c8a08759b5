#include "WireReader.h"

#include "BenchClock.h"
#include "BenchSocket.h"

#include "WebSocketWire.h"

#include <cstring>
#include <memory>

#ifdef STREAMSCOPE_BENCH_OPENSSL
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#endif

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
    bool tls = false;
};

bool parseUrl(const std::string &url, Url &out)
{
    const std::string scheme = url.compare(0, 6, "wss://") == 0 ? "wss://" : "ws://";
    if (url.compare(0, scheme.size(), scheme) != 0)
        return false;
    out.tls = scheme == "wss://";
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

// The byte stream under the frames: the socket itself, or TLS over it.
class Link {
public:
    explicit Link(SocketHandle fd)
        : m_fd(fd)
    {
    }
    virtual ~Link() = default;
    Link(const Link &) = delete;
    Link &operator=(const Link &) = delete;

    virtual bool start(const Url &, const std::string &, std::string &) { return true; }
    virtual bool sendAll(const char *data, std::size_t len)
    {
        return sendSome(m_fd, data, len) == static_cast<long long>(len);
    }
    // Whether bytes can be read without waiting on the socket.
    virtual bool pending() const { return false; }
    // Bytes read, 0 when the peer closed, negative on an error (text in `error`).
    virtual long long receive(char *data, std::size_t len, std::string &error)
    {
        const long long n = receiveSome(m_fd, data, len);
        if (n < 0)
            error = "recv: " + socketErrorText();
        return n;
    }

protected:
    SocketHandle m_fd;
};

#ifdef STREAMSCOPE_BENCH_OPENSSL
// TLS as lean as OpenSSL allows: read-ahead into a 256 KB buffer (one recv() fetches many
// records), the peer verified against the given CA and its name or address.
class TlsLink final : public Link {
public:
    using Link::Link;
    ~TlsLink() override
    {
        if (m_ssl)
            SSL_free(m_ssl);
        if (m_ctx)
            SSL_CTX_free(m_ctx);
    }

    bool start(const Url &url, const std::string &caPem, std::string &error) override
    {
        m_ctx = SSL_CTX_new(TLS_client_method());
        if (!m_ctx)
            return fail("SSL_CTX_new", error);
        SSL_CTX_set_verify(m_ctx, SSL_VERIFY_PEER, nullptr);
        SSL_CTX_set_read_ahead(m_ctx, 1);
        SSL_CTX_set_default_read_buffer_len(m_ctx, 256 * 1024);
        if (caPem.empty()) {
            SSL_CTX_set_default_verify_paths(m_ctx);
        } else {
            BIO *bio = BIO_new_mem_buf(caPem.data(), int(caPem.size()));
            X509 *ca = bio ? PEM_read_bio_X509(bio, nullptr, nullptr, nullptr) : nullptr;
            const bool added = ca && X509_STORE_add_cert(SSL_CTX_get_cert_store(m_ctx), ca) == 1;
            X509_free(ca);
            BIO_free(bio);
            if (!added)
                return fail("the CA certificate cannot be read", error);
        }
        m_ssl = SSL_new(m_ctx);
        if (!m_ssl)
            return fail("SSL_new", error);
        X509_VERIFY_PARAM *param = SSL_get0_param(m_ssl);
        if (X509_VERIFY_PARAM_set1_ip_asc(param, url.host.c_str()) != 1) {
            // A name, not an address: check it and send it as SNI.
            SSL_set1_host(m_ssl, url.host.c_str());
            SSL_set_tlsext_host_name(m_ssl, url.host.c_str());
        }
        SSL_set_fd(m_ssl, int(m_fd));
        if (SSL_connect(m_ssl) != 1)
            return fail("TLS handshake", error);
        return true;
    }

    bool sendAll(const char *data, std::size_t len) override { return SSL_write(m_ssl, data, int(len)) == int(len); }

    bool pending() const override { return SSL_has_pending(m_ssl) == 1; }

    long long receive(char *data, std::size_t len, std::string &error) override
    {
        const int n = SSL_read(m_ssl, data, int(std::min<std::size_t>(len, 1 << 30)));
        if (n > 0)
            return n;
        const int e = SSL_get_error(m_ssl, n);
        if (e == SSL_ERROR_ZERO_RETURN)
            return 0;
        fail("SSL_read", error);
        return -1;
    }

private:
    static bool fail(const char *what, std::string &error)
    {
        char text[256] = {};
        ERR_error_string_n(ERR_get_error(), text, sizeof text);
        error = std::string(what) + ": " + text;
        return false;
    }

    SSL_CTX *m_ctx = nullptr;
    SSL *m_ssl = nullptr;
};
#endif

std::unique_ptr<Link> makeLink(SocketHandle fd, bool tls)
{
#ifdef STREAMSCOPE_BENCH_OPENSSL
    if (tls)
        return std::make_unique<TlsLink>(fd);
#else
    if (tls)
        return nullptr;
#endif
    return std::make_unique<Link>(fd);
}

} // namespace

bool WireReader::supportsTls()
{
#ifdef STREAMSCOPE_BENCH_OPENSSL
    return true;
#else
    return false;
#endif
}

WireReader::Result WireReader::run(const std::string &url, std::uint64_t count, bool stamped, double timeoutS,
                                   const std::string &caPem)
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
    const std::unique_ptr<Link> link = makeLink(fd, u.tls);
    if (!link) {
        r.error = "wss: this build of the wire reader has no OpenSSL";
        closeSocket(fd);
        return r;
    }
    if (!link->start(u, caPem, r.error)) {
        closeSocket(fd);
        return r;
    }
    const std::string request = "GET " + u.target + " HTTP/1.1\r\nHost: " + u.host + ":" + std::to_string(u.port)
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          "Sec-WebSocket-Version: 13\r\n\r\n";
    if (!link->sendAll(request.data(), request.size())) {
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
            if (!link->pending()) {
                const int pr =
                    pollSocket(fd, POLLIN, int(std::min<std::int64_t>(left / 1000000 + 1, stamped ? 1 : 1000)));
                if (pr <= 0)
                    continue;
            }
            const long long n = link->receive(buf.data() + have, buf.size() - have, r.error);
            if (n <= 0) {
                if (n == 0)
                    r.error = "peer closed";
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
