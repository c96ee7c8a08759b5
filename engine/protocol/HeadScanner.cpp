#include "HeadScanner.h"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace streamscope {

namespace {

// Finds `"key"` followed by optional whitespace and ':' in the head; returns the position
// just after the ':' or npos. Candidates are positions where the quote and the key's first
// letter stand side by side: '"' alone is every few bytes of JSON, the pair is rare. With SSE2
// sixteen positions are tested at once.
std::size_t findKey(std::string_view head, std::string_view quotedKey)
{
    const std::size_t n = quotedKey.size(); // >= 3: a quote, at least one letter, a quote
    if (head.size() < n)
        return std::string_view::npos;
    const char *data = head.data();
    const std::size_t last = head.size() - n; // the last position a match can start at
    const auto matchAt = [&](std::size_t at) -> std::size_t {
        if (std::memcmp(data + at, quotedKey.data(), n) != 0)
            return std::string_view::npos;
        std::size_t p = at + n;
        while (p < head.size() && (head[p] == ' ' || head[p] == '\t' || head[p] == '\r' || head[p] == '\n'))
            ++p;
        return p < head.size() && head[p] == ':' ? p + 1 : std::string_view::npos;
    };
    std::size_t at = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i letter = _mm_set1_epi8(quotedKey[1]);
    for (; at + 16 + 1 <= head.size() && at <= last; at += 16) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + at));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + at + 1));
        auto mask = unsigned(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, quote), _mm_cmpeq_epi8(b, letter))));
        while (mask) {
            const std::size_t candidate = at + std::size_t(std::countr_zero(mask));
            if (candidate > last)
                return std::string_view::npos;
            if (const std::size_t p = matchAt(candidate); p != std::string_view::npos)
                return p;
            mask &= mask - 1;
        }
    }
#endif
    for (; at <= last; ++at) {
        if (data[at] == '"' && data[at + 1] == quotedKey[1])
            if (const std::size_t p = matchAt(at); p != std::string_view::npos)
                return p;
    }
    return std::string_view::npos;
}

std::size_t skipSpace(std::string_view s, std::size_t p)
{
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\n'))
        ++p;
    return p;
}

// The value after `"id":`, as text (without quotes for a string); empty when absent or
// when it does not end inside the head.
void readId(std::string_view head, HeadInfo &info)
{
    std::size_t p = findKey(head, "\"id\"");
    if (p == std::string_view::npos)
        return;
    p = skipSpace(head, p);
    if (p >= head.size())
        return;
    if (head[p] == '"') {
        const std::size_t end = head.find('"', p + 1);
        if (end == std::string_view::npos)
            return;
        info.id = head.substr(p + 1, end - p - 1);
        info.idIsString = true;
        return;
    }
    std::size_t end = p;
    while (end < head.size() && ((head[end] >= '0' && head[end] <= '9') || head[end] == '-'))
        ++end;
    if (end > p && end < head.size())
        info.id = head.substr(p, end - p);
}

// Number value after a key position (e.g. "status":200); -1 if not a number. The digits are
// the peer's: a value past kStatusCap reads as kStatusCap, which is over 400 like the value.
constexpr int kStatusCap = 1'000'000;
int readInt(std::string_view head, std::size_t p)
{
    p = skipSpace(head, p);
    int v = 0;
    bool any = false;
    while (p < head.size() && head[p] >= '0' && head[p] <= '9') {
        v = std::min(v * 10 + (head[p] - '0'), kStatusCap); // v <= kStatusCap: no overflow
        any = true;
        ++p;
    }
    return any ? v : -1;
}

bool valueIs(std::string_view head, std::size_t p, std::string_view quotedValue)
{
    p = skipSpace(head, p);
    return head.substr(p, quotedValue.size()) == quotedValue;
}

} // namespace

HeadInfo HeadScanner::scan(const char *data, qsizetype len, Heartbeats heartbeats) noexcept
{
    HeadInfo info;
    const std::string_view head(data, std::size_t(std::min(len, kHeadBytes)));
    std::size_t p = skipSpace(head, 0);
    if (p >= head.size() || head[p] != '{') {
        info.kind = MessageKind::Data; // arrays, scalars: data for the decoder to judge
        return info;
    }
    p = skipSpace(head, p + 1);

    // Fast paths on the first key: market data starts with one of these.
    if (head.compare(p, 9, "\"stream\":") == 0 || head.compare(p, 4, "\"e\":") == 0) {
        info.kind = MessageKind::Data;
        return info;
    }
    if (head.compare(p, 5, "\"op\":") == 0) {
        const std::size_t v = p + 5;
        if (valueIs(head, v, "\"mcm\"") || valueIs(head, v, "\"ocm\"")) {
            info.changeMessage = true;
            if (heartbeats == Heartbeats::LeaveToDecoder) {
                info.kind = MessageKind::Data;
                return info;
            }
            const std::size_t ct = findKey(head, "\"ct\"");
            info.kind = (ct != std::string_view::npos && valueIs(head, ct, "\"HEARTBEAT\"")) ? MessageKind::Heartbeat
                                                                                             : MessageKind::Data;
            return info;
        }
        if (valueIs(head, v, "\"connection\"")) {
            info.kind = MessageKind::Connection;
            return info;
        }
        if (valueIs(head, v, "\"status\"")) {
            readId(head, info);
            const std::size_t code = findKey(head, "\"statusCode\"");
            info.kind = (code != std::string_view::npos && valueIs(head, code, "\"FAILURE\"")) ? MessageKind::Error
                                                                                               : MessageKind::Result;
            return info;
        }
        info.kind = MessageKind::Data;
        return info;
    }

    // Responses: Binance {"result":..,"id":..}, {"error":{..},"id":..}, {"code":..,"msg":..}
    // and the websocket-API envelope {"id":..,"status":200,"result":..}.
    if (findKey(head, "\"error\"") != std::string_view::npos) {
        readId(head, info);
        info.kind = MessageKind::Error;
        return info;
    }
    const std::size_t status = findKey(head, "\"status\"");
    const bool hasResult = findKey(head, "\"result\"") != std::string_view::npos;
    if (hasResult || status != std::string_view::npos) {
        readId(head, info);
        if (!info.id.empty() || hasResult) {
            const int code = status != std::string_view::npos ? readInt(head, status) : -1;
            info.kind = code >= 400 ? MessageKind::Error : MessageKind::Result;
            if (hasResult || code >= 0)
                return info;
        }
        info = HeadInfo{};
    }
    if (head.compare(p, 7, "\"code\":") == 0 && findKey(head, "\"msg\"") != std::string_view::npos) {
        readId(head, info);
        info.kind = MessageKind::Error;
        return info;
    }
    info.kind = MessageKind::Data;
    return info;
}

} // namespace streamscope
