#pragma once

// Clocks and process figures shared by the benchmark's client and driver: monotonic and
// wall time in ns, this process's CPU (user+sys, all threads) in µs, the CPU of its engine
// worker threads (Linux), its RSS in KiB.
// Plain functions, callable from any thread.

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/qsystemdetection.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#ifdef Q_OS_WIN
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
// After windows.h, which it needs.
#include <psapi.h>

#include <chrono>
#else
#include <sys/resource.h>
#endif
#ifdef Q_OS_LINUX
#include <unistd.h>
#endif

namespace streamscope::bench {

#ifdef Q_OS_WIN
// MSVC has no clock_gettime: the standard clocks (QueryPerformanceCounter and
// GetSystemTimePreciseAsFileTime underneath).
inline std::int64_t monotonicNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline std::int64_t wallNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

inline double processCpuUs()
{
    FILETIME created, exited, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        return 0;
    // FILETIME counts 100 ns.
    const auto toUs = [](const FILETIME &t) {
        return double((std::uint64_t(t.dwHighDateTime) << 32) | t.dwLowDateTime) / 10.0;
    };
    return toUs(kernel) + toUs(user);
}
#else
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
#endif

// CPU time (user+sys, µs) of this process's threads whose name starts with `prefix` (the
// engine's workers are "engine-worker-N"); -1 where threads cannot be told apart (not Linux).
// /proc counts in clock ticks (10 ms): use it over windows of a second or more.
inline double threadsCpuUs(const char *prefix)
{
#if defined(Q_OS_LINUX)
    const QDir tasks(QStringLiteral("/proc/self/task"));
    const double usPerTick = 1e6 / double(sysconf(_SC_CLK_TCK));
    double total = 0;
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
        if (!comm.open(QIODevice::ReadOnly) || !comm.readAll().startsWith(prefix))
            continue;
        QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // After "pid (name) ": state is field 3, utime field 14, stime field 15.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 12)
            total += double(fields[11].toLongLong() + fields[12].toLongLong()) * usPerTick;
    }
    return total;
#else
    Q_UNUSED(prefix);
    return -1;
#endif
}

// This process's resident set in KiB: VmRSS of /proc/self/status on Linux, the working set on
// Windows; 0 where unavailable (macOS: the reports show no RSS there).
inline long residentKiB()
{
#if defined(Q_OS_LINUX)
    FILE *f = std::fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    long value = 0;
    const char *field = "VmRSS:";
    const std::size_t n = std::strlen(field);
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, field, n) == 0) {
            value = std::atol(line + n);
            break;
        }
    }
    std::fclose(f);
    return value;
#elif defined(Q_OS_WIN)
    PROCESS_MEMORY_COUNTERS counters{};
    if (!K32GetProcessMemoryInfo(GetCurrentProcess(), &counters, sizeof counters))
        return 0;
    return long(counters.WorkingSetSize / 1024);
#else
    return 0;
#endif
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
