#pragma once

// The last sequence number of each chain of a venue's updates (OKX: a channel and instrument;
// Bybit: a topic), for the venues whose continuity is checked per chain. Chains are told apart
// by a hash of their names in a small fixed table: no allocation per message. A table that is
// full reuses its last slot (more chains than kSlots on one stream lose only their own
// continuity).
//
// Thread contract: one instance per handler, used on the stream's worker.

#include <array>
#include <cstdint>
#include <string_view>

namespace streamscope {

class ChainTable {
public:
    static constexpr int kSlots = 64;

    // The chain of `first` and `second` (second may be empty): FNV-1a over both with a
    // separator no name holds; never 0.
    static std::uint64_t key(std::string_view first, std::string_view second = {});

    // The chain's last sequence number, or null when the chain has none yet.
    std::int64_t *find(std::uint64_t key)
    {
        for (int i = 0; i < m_used; ++i) {
            if (m_slots[std::size_t(i)].key == key)
                return &m_slots[std::size_t(i)].last;
        }
        return nullptr;
    }
    // Sets the chain's last sequence number (a new chain takes a slot).
    void set(std::uint64_t key, std::int64_t last);
    void reset();

private:
    struct Slot {
        std::uint64_t key = 0; // 0: empty
        std::int64_t last = 0;
    };
    std::array<Slot, kSlots> m_slots{};
    int m_used = 0;
};

} // namespace streamscope
