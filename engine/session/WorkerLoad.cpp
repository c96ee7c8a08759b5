#include "WorkerLoad.h"

#include <algorithm>

#ifdef Q_OS_WIN
#include <qt_windows.h>
#else
#include <time.h>
#endif

namespace streamscope {

qint64 WorkerLoad::threadCpuUs()
{
#ifdef Q_OS_WIN
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user))
        return -1;
    const auto ticks = [](const FILETIME &t) {
        return (qint64(t.dwHighDateTime) << 32) | qint64(t.dwLowDateTime); // 100 ns units
    };
    return (ticks(kernel) + ticks(user)) / 10;
#else
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return qint64(ts.tv_sec) * 1000000 + qint64(ts.tv_nsec) / 1000;
#endif
}

void WorkerLoad::sample(qint64 nowMs)
{
    if (m_lastMs >= 0 && nowMs - m_lastMs < kPeriodMs)
        return;
    const qint64 cpuUs = threadCpuUs();
    if (m_lastMs >= 0 && cpuUs >= 0 && m_lastCpuUs >= 0 && nowMs > m_lastMs)
        m_busyShare = std::clamp(double(cpuUs - m_lastCpuUs) / (double(nowMs - m_lastMs) * 1000.0), 0.0, 1.0);
    m_lastMs = nowMs;
    m_lastCpuUs = cpuUs;
}

} // namespace streamscope
