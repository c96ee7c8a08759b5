#pragma once

// UTF-16 → UTF-8 into a caller's buffer, for the text QWebSocket hands over as a QString.
// Market data is ASCII: its UTF-16 code units are narrowed to bytes, sixteen at a time with
// SSE2, and only text past the first non-ASCII unit goes through QStringEncoder.

#include <QtCore/QStringEncoder>
#include <QtCore/QStringView>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace streamscope {

// Copies code units to bytes while they are below 0x80; returns how many were copied.
inline qsizetype narrowAscii(const char16_t *src, qsizetype n, char *dst) noexcept
{
    qsizetype i = 0;
#if defined(__SSE2__)
    const __m128i nonAscii = _mm_set1_epi16(short(0xFF80));
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 8));
        const __m128i high = _mm_and_si128(_mm_or_si128(a, b), nonAscii);
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(high, zero)) != 0xFFFF)
            break; // the scalar loop below finds which unit
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), _mm_packus_epi16(a, b));
    }
#endif
    for (; i < n; ++i) {
        if (src[i] >= 0x80)
            return i;
        dst[i] = char(src[i]);
    }
    return i;
}

// Writes `text` as UTF-8 at `out` (room for 3 bytes per code unit); returns the end.
inline char *encodeUtf8(QStringEncoder &encoder, QStringView text, char *out)
{
    const qsizetype ascii = narrowAscii(reinterpret_cast<const char16_t *>(text.utf16()), text.size(), out);
    if (ascii == text.size())
        return out + ascii;
    // The rest starts at a non-ASCII unit, so no surrogate pair is split here.
    return encoder.appendToBuffer(out + ascii, text.mid(ascii));
}

} // namespace streamscope
