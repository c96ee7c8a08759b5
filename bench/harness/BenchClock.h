#pragma once

// Clocks and process figures shared by the benchmark's client and driver: monotonic and
// wall time in ns, this process's CPU (user+sys, all threads) in µs, its RSS in KiB.
// Plain functions, callable from any thread.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

#include <sys/resource.h>

namespace streamscope::bench {

inline std::int64_t monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline std::int64_t wallNs()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline double processCpuUs()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

// VmRSS (or another "Vm..." line) of /proc/self/status, in KiB; 0 when unavailable.
inline long procStatusKiB(const char *field = "VmRSS:")
{
    FILE *f = std::fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    long value = 0;
    const std::size_t n = std::strlen(field);
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, field, n) == 0) {
            value = std::atol(line + n);
            break;
        }
    }
    std::fclose(f);
    return value;
}

// Nearest-rank quantile of unsorted values (sorted in place); 0 when empty.
template<typename T>
double quantile(std::vector<T> &values, double q)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const auto rank = std::size_t(std::clamp(q, 0.0, 1.0) * double(values.size() - 1) + 0.5);
    return double(values[std::min(rank, values.size() - 1)]);
}

} // namespace streamscope::bench
