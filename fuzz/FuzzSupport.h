#pragma once

// What the fuzz targets share: an invariant check that aborts (libFuzzer then saves the
// input as a crash), and a reader of the few option bytes that lead an input.
//
// Thread contract: libFuzzer calls a target from one thread.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// A breach of an invariant of the code under test: report it and abort. Bad input that is
// handled as designed is never one.
#define FUZZ_CHECK(cond, what)                                                                                         \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            std::fprintf(stderr, "%s:%d: invariant broken: %s (%s)\n", __FILE__, __LINE__, what, #cond);               \
            std::abort();                                                                                              \
        }                                                                                                              \
    } while (false)

namespace streamscope::fuzz {

// Takes option bytes from the front of an input; what remains is the bytes under test. An
// input too short for its options reads zeros, so every input is valid.
class InputReader {
public:
    InputReader(const std::uint8_t *data, std::size_t size)
        : m_data(data)
        , m_size(size)
    {
    }

    std::uint8_t byte()
    {
        if (m_pos >= m_size)
            return 0;
        return m_data[m_pos++];
    }
    // Little endian, as the seeds are written (fuzz/make_corpus.cpp).
    std::uint64_t u64()
    {
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v |= std::uint64_t(byte()) << (8 * i);
        return v;
    }
    std::int64_t i64() { return std::int64_t(u64()); }

    const char *rest() const { return reinterpret_cast<const char *>(m_data + m_pos); }
    std::size_t restSize() const { return m_pos < m_size ? m_size - m_pos : 0; }
    bool atEnd() const { return m_pos >= m_size; }

private:
    const std::uint8_t *m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
};

// A small deterministic generator (splitmix64) for split points: the same input always
// splits the same way, so a crash reproduces.
class SplitRng {
public:
    explicit SplitRng(std::uint64_t seed)
        : m_state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // 0..bound-1 (bound > 0).
    std::size_t below(std::size_t bound) { return std::size_t(next() % bound); }

private:
    std::uint64_t m_state;
};

} // namespace streamscope::fuzz
