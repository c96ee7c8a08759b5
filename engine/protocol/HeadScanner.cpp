#include "HeadScanner.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace streamscope {

namespace {

// Finds `"key"` followed by optional whitespace and ':' in the head; returns the position
// just after the ':' or npos. `key` is written bare (at least one character). Candidates are
// positions where the quote and the key's first letter stand side by side: '"' alone is every
// few bytes of JSON, the pair is rare. With SSE2 sixteen positions are tested at once.
std::size_t findKey(std::string_view head, std::string_view key)
{
    const std::size_t n = key.size() + 2; // with its quotes
    if (key.empty() || head.size() < n)
        return std::string_view::npos;
    const char *data = head.data();
    const std::size_t last = head.size() - n; // the last position a match can start at
    const auto matchAt = [&](std::size_t at) -> std::size_t {
        if (std::memcmp(data + at + 1, key.data(), key.size()) != 0 || data[at + n - 1] != '"')
            return std::string_view::npos;
        std::size_t p = at + n;
        while (p < head.size() && (head[p] == ' ' || head[p] == '\t' || head[p] == '\r' || head[p] == '\n'))
            ++p;
        return p < head.size() && head[p] == ':' ? p + 1 : std::string_view::npos;
    };
    std::size_t at = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i letter = _mm_set1_epi8(key[0]);
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
        if (data[at] == '"' && data[at + 1] == key[0])
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
    std::size_t p = findKey(head, "id");
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

// The bytes at `p` are `text` (a spec's key or value: a few characters): compared a word at a
// time, the first and last words overlapping, each read within `text` and within `p`'s bytes
// (a call of memcmp cost more than the compare, callgrind).
Q_ALWAYS_INLINE bool bytesAre(const char *p, std::string_view text)
{
    const auto same = [](const char *a, const char *b, auto word) {
        decltype(word) x;
        decltype(word) y;
        std::memcpy(&x, a, sizeof x);
        std::memcpy(&y, b, sizeof y);
        return x == y;
    };
    const char *t = text.data();
    const std::size_t n = text.size();
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8) {
            if (!same(p + i, t + i, std::uint64_t()))
                return false;
        }
        return same(p + n - 8, t + n - 8, std::uint64_t());
    }
    if (n >= 4)
        return same(p, t, std::uint32_t()) && same(p + n - 4, t + n - 4, std::uint32_t());
    if (n >= 2)
        return same(p, t, std::uint16_t()) && same(p + n - 2, t + n - 2, std::uint16_t());
    return n == 0 || *p == *t;
}

// The string value at p (after optional whitespace) is `value`, written bare.
Q_ALWAYS_INLINE bool valueIs(std::string_view head, std::size_t p, std::string_view value)
{
    p = skipSpace(head, p);
    const std::size_t n = value.size();
    return p + n + 2 <= head.size() && head[p] == '"' && head[p + 1 + n] == '"' && bytesAre(head.data() + p + 1, value);
}

// The value at p (after optional whitespace) is the string "value" or the literal value (true,
// false, a number), written bare.
bool valueOrLiteralIs(std::string_view head, std::size_t p, std::string_view value)
{
    if (valueIs(head, p, value))
        return true;
    p = skipSpace(head, p);
    const std::size_t n = value.size();
    if (p + n >= head.size() || !bytesAre(head.data() + p, value))
        return false;
    const char after = head[p + n];
    return after == ',' || after == '}' || after == ']' || after == ' ' || after == '\t' || after == '\r'
        || after == '\n';
}

// The key at p is `key`, written bare, followed at once by ':'.
Q_ALWAYS_INLINE bool firstKeyIs(std::string_view head, std::size_t p, std::string_view key)
{
    const std::size_t n = key.size();
    return p + n + 3 <= head.size() && head[p] == '"' && head[p + 1 + n] == '"' && head[p + 2 + n] == ':'
        && bytesAre(head.data() + p + 1, key);
}

// What HeadScanner::scan() does for a message whose first key is no data key (its hot path,
// which has looked at that already): out of line, so that the hot path saves no registers.
Q_NEVER_INLINE HeadInfo scanAll(const char *data, qsizetype len, const HeadSpec &spec,
                                HeadScanner::Heartbeats heartbeats) noexcept
{
    using Heartbeats = HeadScanner::Heartbeats;
    constexpr qsizetype kHeadBytes = HeadScanner::kHeadBytes;
    HeadInfo info;
    const std::string_view head(data, std::size_t(std::min(len, kHeadBytes)));
    std::size_t p = skipSpace(head, 0);
    if (p >= head.size() || head[p] != '{') {
        // The venue's keep-alive answer ("pong"), the whole message; arrays, scalars and any
        // other text are data for the decoder to judge.
        const std::string_view pong = spec.pongText;
        const bool isPong = !pong.empty() && std::size_t(len) == pong.size() && bytesAre(data, pong);
        info.kind = isPong ? MessageKind::Pong : MessageKind::Data;
        return info;
    }
    p = skipSpace(head, p + 1);

    if (!spec.kindKey.empty() && firstKeyIs(head, p, spec.kindKey)) {
        const std::size_t v = p + spec.kindKey.size() + 3;
        for (const HeadSpec::KindValue &kind : spec.kinds) {
            if (kind.value.empty() || !valueIs(head, v, kind.value))
                continue;
            info.heartbeatCandidate = kind.heartbeatCandidate;
            if (kind.readId)
                readId(head, info);
            info.kind = kind.kind;
            if (kind.refineKey.empty() || (kind.heartbeatCandidate && heartbeats == Heartbeats::LeaveToDecoder))
                return info;
            const std::size_t at = findKey(head, kind.refineKey);
            if (at != std::string_view::npos && valueIs(head, at, kind.refineValue))
                info.kind = kind.refinedKind;
            return info;
        }
        info.kind = MessageKind::Data;
        return info;
    }
    for (const HeadSpec::KeyedKind &keyed : spec.keyedKinds) {
        if (keyed.key.empty())
            continue;
        const std::size_t at = findKey(head, keyed.key);
        if (at != std::string_view::npos && valueOrLiteralIs(head, at, keyed.value)) {
            info.kind = keyed.kind;
            return info;
        }
    }
    if (!spec.rpcResponses) {
        info.kind = MessageKind::Data;
        return info;
    }

    // Responses: {"result":..,"id":..}, {"error":{..},"id":..}, {"code":..,"msg":..} and the
    // envelope {"id":..,"status":200,"result":..} (Binance's websocket API).
    if (findKey(head, "error") != std::string_view::npos) {
        readId(head, info);
        info.kind = MessageKind::Error;
        return info;
    }
    const std::size_t status = findKey(head, "status");
    const bool hasResult = findKey(head, "result") != std::string_view::npos;
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
    if (firstKeyIs(head, p, "code") && findKey(head, "msg") != std::string_view::npos) {
        readId(head, info);
        info.kind = MessageKind::Error;
        return info;
    }
    info.kind = MessageKind::Data;
    return info;
}

} // namespace

HeadInfo HeadScanner::scan(const char *data, qsizetype len, const HeadSpec &spec, Heartbeats heartbeats) noexcept
{
    // The hot path: a message whose first key is one of the venue's data keys is data.
    const auto size = std::size_t(std::min(len, kHeadBytes));
    const std::string_view head(data, size);
    const std::size_t p = skipSpace(head, 0);
    if (p < size && data[p] == '{') {
        const std::size_t key = skipSpace(head, p + 1);
        for (const std::string_view dataKey : spec.dataKeys) {
            if (!dataKey.empty() && firstKeyIs(head, key, dataKey)) {
                HeadInfo info;
                info.kind = MessageKind::Data;
                return info;
            }
        }
    }
    return scanAll(data, len, spec, heartbeats);
}

} // namespace streamscope
