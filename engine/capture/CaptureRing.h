#pragma once

// The bounded hand-off between a stream's worker (the one producer) and the capture writer
// thread (the one consumer): a lock-free single-producer single-consumer ring of bytes
// holding variable-size records (a 16-byte header, then the payload, 8-byte aligned). A push
// copies the message once and never blocks, locks or allocates; when the writer has fallen
// behind and the record does not fit, push() returns false and the caller counts a drop.
//
// Thread contract: push() on the producer thread only; peek()/pop() on the consumer thread
// only; capacity() anywhere. The buffer is allocated once, untouched pages stay uncommitted.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace streamscope {

class CaptureRing {
public:
    enum class Kind : std::uint8_t { Unknown = 0, Text, Binary, Event, Pad };
    struct Record {
        Kind kind = Kind::Unknown;
        std::int64_t timeUs = 0;
        const char *data = nullptr;
        std::size_t len = 0;
    };

    static constexpr std::size_t kMinCapacity = 64 * 1024;
    static constexpr std::size_t kHeaderBytes = 16;
    // What a recorder's service() call drains of its ring at most, so that one busy stream
    // leaves the writer thread to the others.
    static constexpr std::size_t kServiceBudget = 8 * 1024 * 1024;

    explicit CaptureRing(std::size_t capacityBytes)
    {
        std::size_t cap = kMinCapacity;
        while (cap < capacityBytes && cap < (std::size_t(1) << 40))
            cap <<= 1;
        m_capacity = cap;
        m_mask = cap - 1;
        m_buffer.reset(new char[cap]);
    }

    std::size_t capacity() const { return m_capacity; }
    // The largest payload a record may hold: a quarter of the ring, so that one huge message
    // cannot stall everything behind it.
    std::size_t maxPayload() const { return m_capacity / 4 - kHeaderBytes; }

    // Producer.
    bool push(Kind kind, std::int64_t timeUs, const char *data, std::size_t len) noexcept
    {
        if (len > maxPayload())
            return false;
        const std::size_t need = aligned(kHeaderBytes + len);
        std::uint64_t head = m_head.load(std::memory_order_relaxed);
        std::size_t pos = std::size_t(head & m_mask);
        const std::size_t toEnd = m_capacity - pos;
        const std::size_t skip = need > toEnd ? toEnd : 0;
        if (head + skip + need - m_cachedTail > m_capacity) {
            m_cachedTail = m_tail.load(std::memory_order_acquire);
            if (head + skip + need - m_cachedTail > m_capacity)
                return false;
        }
        if (skip) {
            if (toEnd >= kHeaderBytes)
                writeHeader(pos, Kind::Pad, 0, 0);
            head += skip;
            pos = 0;
        }
        writeHeader(pos, kind, timeUs, std::uint32_t(len));
        if (len)
            std::memcpy(m_buffer.get() + pos + kHeaderBytes, data, len);
        m_head.store(head + need, std::memory_order_release);
        return true;
    }

    // Consumer: the oldest record, valid until pop().
    bool peek(Record &out) noexcept
    {
        for (;;) {
            const std::uint64_t tail = m_tail.load(std::memory_order_relaxed);
            if (tail == m_cachedHead) {
                m_cachedHead = m_head.load(std::memory_order_acquire);
                if (tail == m_cachedHead)
                    return false;
            }
            const std::size_t pos = std::size_t(tail & m_mask);
            const std::size_t toEnd = m_capacity - pos;
            if (toEnd < kHeaderBytes) {
                m_tail.store(tail + toEnd, std::memory_order_release);
                continue;
            }
            Header h;
            std::memcpy(&h, m_buffer.get() + pos, sizeof h);
            if (Kind(h.kind) == Kind::Pad) {
                m_tail.store(tail + toEnd, std::memory_order_release);
                continue;
            }
            out.kind = Kind(h.kind);
            out.timeUs = h.timeUs;
            out.data = m_buffer.get() + pos + kHeaderBytes;
            out.len = h.len;
            m_next = tail + aligned(kHeaderBytes + h.len);
            return true;
        }
    }
    void pop() noexcept { m_tail.store(m_next, std::memory_order_release); }

private:
    struct Header {
        std::int64_t timeUs;
        std::uint32_t len;
        std::uint8_t kind;
        std::uint8_t pad[3];
    };
    static_assert(sizeof(Header) == kHeaderBytes);

    static std::size_t aligned(std::size_t n) { return (n + 7) & ~std::size_t(7); }
    void writeHeader(std::size_t pos, Kind kind, std::int64_t timeUs, std::uint32_t len) noexcept
    {
        Header h{timeUs, len, std::uint8_t(kind), {0, 0, 0}};
        std::memcpy(m_buffer.get() + pos, &h, sizeof h);
    }

    std::unique_ptr<char[]> m_buffer;
    std::size_t m_capacity = 0;
    std::uint64_t m_mask = 0;
    // Producer side.
    alignas(64) std::atomic<std::uint64_t> m_head{0};
    std::uint64_t m_cachedTail = 0;
    // Consumer side.
    alignas(64) std::atomic<std::uint64_t> m_tail{0};
    std::uint64_t m_cachedHead = 0;
    std::uint64_t m_next = 0;
};

} // namespace streamscope
