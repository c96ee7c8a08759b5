#pragma once

// The one channel down for a stream's run commands (stop, restart): one word in the stream's
// shared block that holds the last command asked for and how many were asked, so that every
// new one changes it. The facade writes it; the stream's worker compares it with the word it
// last carried out, at every message (one relaxed load, so that a stop acts within the read in
// progress, even under a firehose) and when the facade's wake-up reaches it (so that a stop
// acts on a stream that receives nothing). Whichever comes first carries the command out; the
// other then finds nothing new. The wake-up carries no command of its own.
//
// Only the last command counts: a stop, restart, stop in a row that the worker has not seen yet
// is one stop; a stop and a restart, one restart (which drops the connection as a stop would,
// and connects again).
//
// Thread contract: post() on the facade's thread only (the one writer); word() anywhere.

#include <QtCore/QtGlobal>

#include <atomic>
#include <cstdint>

namespace streamscope {

class StreamCommands {
public:
    enum class Command : quint8 { None = 0, Stop, Restart };

    void post(Command command)
    {
        const std::uint64_t serial = (m_word.load(std::memory_order_relaxed) >> kCommandBits) + 1;
        m_word.store(serial << kCommandBits | std::uint64_t(command), std::memory_order_relaxed);
    }
    std::uint64_t word() const { return m_word.load(std::memory_order_relaxed); }
    static Command command(std::uint64_t word) { return Command(word & ((1u << kCommandBits) - 1)); }

private:
    static constexpr int kCommandBits = 2;
    static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
    std::atomic<std::uint64_t> m_word{0};
};

} // namespace streamscope
