#include "TimeText.h"

namespace streamscope {

namespace {

// `n` digits at `p` as a number; false unless all are digits.
bool digits(const char *p, int n, int &out)
{
    int v = 0;
    for (int i = 0; i < n; ++i) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (p[i] - '0');
    }
    out = v;
    return true;
}

// Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian; Howard Hinnant's
// days_from_civil).
std::int64_t daysFromCivil(int y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return std::int64_t(era) * 146097 + doe - 719468;
}

bool leapYear(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int daysInMonth(int y, int m)
{
    static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leapYear(y) ? 29 : kDays[m - 1];
}

} // namespace

bool rfc3339Micros(std::string_view text, std::int64_t &micros)
{
    // YYYY-MM-DDTHH:MM:SS is 19 characters, then the fraction and the zone.
    const char *p = text.data();
    const std::size_t n = text.size();
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (n < 20 || !digits(p, 4, year) || p[4] != '-' || !digits(p + 5, 2, month) || p[7] != '-'
        || !digits(p + 8, 2, day) || (p[10] != 'T' && p[10] != 't') || !digits(p + 11, 2, hour) || p[13] != ':'
        || !digits(p + 14, 2, minute) || p[16] != ':' || !digits(p + 17, 2, second))
        return false;
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59
        || second > 60) // 60: a leap second, read as the next second's start
        return false;
    std::size_t i = 19;
    std::int64_t fraction = 0; // in microseconds
    if (i < n && p[i] == '.') {
        ++i;
        const std::size_t first = i;
        std::int64_t scale = 100000;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; ++i) {
            fraction += (p[i] - '0') * scale;
            scale /= 10; // digits beyond the microsecond add 0
        }
        if (i == first || i - first > 9)
            return false;
    }
    int offsetMinutes = 0;
    if (i < n && (p[i] == 'Z' || p[i] == 'z')) {
        ++i;
    } else if (i + 6 == n && (p[i] == '+' || p[i] == '-') && p[i + 3] == ':') {
        int oh = 0, om = 0;
        if (!digits(p + i + 1, 2, oh) || !digits(p + i + 4, 2, om) || oh > 23 || om > 59)
            return false;
        offsetMinutes = (p[i] == '-' ? -1 : 1) * (oh * 60 + om);
        i += 6;
    } else {
        return false;
    }
    if (i != n)
        return false;
    // Years 1..9999: at most 3.2e17 µs either side of the epoch, well within int64.
    const std::int64_t seconds =
        daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - std::int64_t(offsetMinutes) * 60;
    micros = seconds * 1000000 + fraction;
    return true;
}

} // namespace streamscope
