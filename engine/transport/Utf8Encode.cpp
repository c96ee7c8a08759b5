#include "Utf8Encode.h"

#if defined(__SSE2__) || defined(_M_X64)
#define STREAMSCOPE_SSE2 1
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STREAMSCOPE_X86_DISPATCH 1 // AVX2 where the CPU has it, chosen at start-up
#include <immintrin.h>
#endif

namespace streamscope {

namespace {

qsizetype narrowTail(const char16_t *src, qsizetype i, qsizetype n, char *dst) noexcept
{
    for (; i < n; ++i) {
        if (src[i] >= 0x80)
            return i;
        dst[i] = char(src[i]);
    }
    return i;
}

#if defined(STREAMSCOPE_SSE2)
// 16 units per step. _mm_packus_epi16 reads units as signed: U+8000 and above would become
// 0, so the test is on the units themselves, before packing.
qsizetype narrowSse2(const char16_t *src, qsizetype n, char *dst) noexcept
{
    const __m128i nonAscii = _mm_set1_epi16(short(0xFF80));
    const __m128i zero = _mm_setzero_si128();
    qsizetype i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 8));
        const __m128i high = _mm_and_si128(_mm_or_si128(a, b), nonAscii);
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(high, zero)) != 0xFFFF)
            break; // narrowTail finds which unit
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), _mm_packus_epi16(a, b));
    }
    return narrowTail(src, i, n, dst);
}
#endif

#if defined(STREAMSCOPE_X86_DISPATCH)
// 32 units per step. AVX2 packs within 128-bit lanes: the permute puts the halves in order.
__attribute__((target("avx2"))) qsizetype narrowAvx2(const char16_t *src, qsizetype n, char *dst) noexcept
{
    const __m256i nonAscii = _mm256_set1_epi16(short(0xFF80));
    qsizetype i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i + 16));
        if (!_mm256_testz_si256(_mm256_or_si256(a, b), nonAscii))
            break;
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + i), packed);
    }
    return i + narrowSse2(src + i, n - i, dst + i);
}

__attribute__((target("avx2"))) bool isAsciiAvx2(const char16_t *src, qsizetype n) noexcept
{
    const __m256i nonAscii = _mm256_set1_epi16(short(0xFF80));
    __m256i any = _mm256_setzero_si256();
    qsizetype i = 0;
    for (; i + 64 <= n; i += 64) {
        const auto *p = reinterpret_cast<const __m256i *>(src + i);
        any = _mm256_or_si256(any,
                              _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(p), _mm256_loadu_si256(p + 1)),
                                              _mm256_or_si256(_mm256_loadu_si256(p + 2), _mm256_loadu_si256(p + 3))));
    }
    if (!_mm256_testz_si256(any, nonAscii))
        return false;
    for (; i < n; ++i)
        if (src[i] >= 0x80)
            return false;
    return true;
}

const bool hasAvx2 = [] {
    __builtin_cpu_init(); // this runs among the static constructors
    return __builtin_cpu_supports("avx2") > 0;
}();
#endif

} // namespace

bool isAscii(const char16_t *src, qsizetype n) noexcept
{
#if defined(STREAMSCOPE_X86_DISPATCH)
    if (hasAvx2)
        return isAsciiAvx2(src, n);
#endif
    char16_t any = 0;
    for (qsizetype i = 0; i < n; ++i)
        any |= src[i];
    return any < 0x80;
}

qsizetype narrowAscii(const char16_t *src, qsizetype n, char *dst) noexcept
{
#if defined(STREAMSCOPE_X86_DISPATCH)
    return hasAvx2 ? narrowAvx2(src, n, dst) : narrowSse2(src, n, dst);
#elif defined(STREAMSCOPE_SSE2)
    return narrowSse2(src, n, dst);
#else
    return narrowTail(src, 0, n, dst);
#endif
}

} // namespace streamscope
