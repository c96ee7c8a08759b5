#pragma once

// The `wire` client: the physical limit of a websocket stream on this machine. A blocking
// POSIX socket, a hand-written HTTP upgrade, and a loop that only splits frames and counts
// them; no decoding, no copy of the payload. Over wss:// the same loop reads through OpenSSL
// (blocking, read-ahead): the limit with TLS decryption in it. Optionally reads the replay stamp
// ({"ts":<19 digits>,...) at the start of each message for latency runs.
//
// Thread contract: used on one thread; run() blocks until `count` messages arrived, the
// peer closed, or the deadline passed.

#include <cstdint>
#include <string>
#include <vector>

namespace streamscope::bench {

class WireReader {
public:
    struct Result {
        std::uint64_t received = 0;
        std::uint64_t receivedAtFirst = 0; // messages counted when the first one was timed
        std::int64_t firstNs = 0;          // monotonic
        std::int64_t lastNs = 0;
        double cpuFirstUs = 0;
        double cpuLastUs = 0;
        std::vector<std::uint32_t> sizes;    // every message size, for the median
        std::vector<std::int64_t> latencyNs; // receive wall time - stamp, when stamped
        std::string error;
    };

    // url: ws://host:port/path?query, or wss://... (TLS with OpenSSL: the peer verified
    // against caPem, a PEM certificate, or the system's CAs when it is empty).
    static Result run(const std::string &url, std::uint64_t count, bool stamped, double timeoutS,
                      const std::string &caPem = std::string());
    // Whether this build reads wss:// (built with OpenSSL).
    static bool supportsTls();
};

} // namespace streamscope::bench
