#pragma once

// A monotonic counter with exactly one writer thread and any number of readers.
// The writer adds with a relaxed load + store (no read-modify-write, no lock); readers
// load relaxed and see a value that never goes backwards.

#include <atomic>
#include <cstdint>

namespace streamscope {

class RelaxedCounter {
public:
    void add(std::uint64_t n = 1) noexcept
    {
        m_value.store(m_value.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }
    std::uint64_t load() const noexcept { return m_value.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> m_value{0};
    static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
};

// A value with one writer (last message time, maximum latency) read by anyone.
template<typename T>
class RelaxedValue {
public:
    void store(T v) noexcept { m_value.store(v, std::memory_order_relaxed); }
    T load() const noexcept { return m_value.load(std::memory_order_relaxed); }

private:
    std::atomic<T> m_value{};
    static_assert(std::atomic<T>::is_always_lock_free);
};

} // namespace streamscope
