#pragma once

// The latency runs' source: a one-connection websocket server that sends `count` text
// messages of exactly `sizeBytes` at a steady `rate`, each starting with the send time
// ({"ts":<19-digit ns since the epoch>,"p":"xxx..."}), stamped just before the write.
// It exists because the replay scenarios have fixed sizes, while the latency measurement
// sweeps the payload from tens of bytes to 512 KB with everything else unchanged.
//
// Thread contract: run() blocks the calling thread; it prints "port N" on stdout once
// listening and returns when the client has gone.

#include <cstdint>

namespace streamscope::bench {

class PacedSender {
public:
    // The smallest message that carries a stamp: {"ts":1234567890123456789}.
    static constexpr std::uint64_t kMinSizeBytes = 26;

    static int run(std::uint64_t sizeBytes, double rate, std::uint64_t count);
};

} // namespace streamscope::bench
