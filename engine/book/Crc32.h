#pragma once

// CRC-32 (ISO-HDLC: the reflected polynomial 0xEDB88320, as zip, PNG and Ethernet use it), the
// checksum Kraken sends with its books (venues/kraken/KrakenBookRules). Table-driven; the table
// is built at compile time. crc32("123456789") == 0xCBF43926.
//
// Thread contract: pure functions.

#include <array>
#include <cstdint>
#include <string_view>

namespace streamscope::book {

namespace detail {
constexpr std::array<std::uint32_t, 256> crc32Table()
{
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    return t;
}
inline constexpr std::array<std::uint32_t, 256> kCrc32Table = crc32Table();
} // namespace detail

// Feeds `bytes` into a running CRC (start with kCrc32Start, finish with crc32Finish()).
inline constexpr std::uint32_t kCrc32Start = 0xFFFFFFFFu;
inline std::uint32_t crc32Update(std::uint32_t crc, std::string_view bytes)
{
    for (const char ch : bytes)
        crc = detail::kCrc32Table[(crc ^ std::uint8_t(ch)) & 0xFFu] ^ (crc >> 8);
    return crc;
}
inline std::uint32_t crc32Finish(std::uint32_t crc)
{
    return crc ^ 0xFFFFFFFFu;
}
inline std::uint32_t crc32(std::string_view bytes)
{
    return crc32Finish(crc32Update(kCrc32Start, bytes));
}

} // namespace streamscope::book
