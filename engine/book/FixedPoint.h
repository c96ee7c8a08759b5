#pragma once

// Exact decimals for order books: a price or a quantity is the text the venue sent, read as a
// 64-bit integer count of 10^-8 (the eight decimal places Binance quotes in). Never floating
// point: "0.1" is 10,000,000 units, not the nearest double. Text that does not fit is refused,
// never rounded: a sign, an exponent, a ninth non-zero decimal, more than 92,233,720,368 in the
// integer part, no digit at all, more than kMaxChars characters.
//
// Thread contract: pure functions.

#include <QtCore/QString>

#include <cstdint>
#include <string_view>

namespace streamscope::book {

using Fixed = std::int64_t;

inline constexpr int kDecimals = 8;
inline constexpr Fixed kUnit = 100'000'000; // 10^kDecimals: "1" is this many units
inline constexpr std::size_t kMaxChars = 40;

// Reads `text` ("27123.45000000", "0.001", "5") into `out`; false if it does not fit.
// `placesWritten`, when given, receives the decimal places written, trailing zeros included ("0.10" 2).
inline bool parseFixed(std::string_view text, Fixed &out, int *placesWritten = nullptr)
{
    if (text.empty() || text.size() > kMaxChars)
        return false;
    constexpr Fixed kMaxInteger = INT64_MAX / kUnit; // 92,233,720,368
    Fixed integer = 0;
    std::size_t i = 0;
    bool digits = false;
    for (; i < text.size() && text[i] != '.'; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return false;
        integer = integer * 10 + (c - '0');
        if (integer > kMaxInteger)
            return false;
        digits = true;
    }
    Fixed fraction = 0;
    if (placesWritten)
        *placesWritten = i < text.size() ? int(text.size() - i - 1) : 0;
    if (i < text.size()) { // the '.'
        ++i;
        int places = 0;
        for (; i < text.size(); ++i) {
            const char c = text[i];
            if (c < '0' || c > '9')
                return false;
            digits = true;
            if (places < kDecimals) {
                fraction = fraction * 10 + (c - '0');
                ++places;
            } else if (c != '0') {
                return false; // a ninth decimal that is not zero would be rounded
            }
        }
        for (; places < kDecimals; ++places)
            fraction *= 10;
    }
    if (!digits)
        return false;
    // integer ≤ INT64_MAX / kUnit, so integer * kUnit + fraction may still pass INT64_MAX by
    // less than kUnit: checked.
    const Fixed whole = integer * kUnit;
    if (fraction > INT64_MAX - whole)
        return false;
    out = whole + fraction;
    return true;
}

// `v` as a decimal without trailing zeros ("27123.45", "0.001", "5"), for people.
inline QString fixedText(Fixed v)
{
    QString s = QString::number(v / kUnit);
    if (const Fixed frac = v % kUnit; frac != 0) {
        QString f = QString::number(frac).rightJustified(kDecimals, QLatin1Char('0'));
        while (f.endsWith(QLatin1Char('0')))
            f.chop(1);
        s += QLatin1Char('.') + f;
    }
    return s;
}

} // namespace streamscope::book
