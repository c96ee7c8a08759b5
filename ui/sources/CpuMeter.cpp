#include "CpuMeter.h"

#ifdef Q_OS_WIN
#include <windows.h>
#else
#include <sys/resource.h>
#endif

namespace streamscope::ui {

CpuMeter::CpuMeter()
    : m_lastCpuUs(processCpuUs())
{
    m_wall.start();
}

qint64 CpuMeter::processCpuUs()
{
#ifdef Q_OS_WIN
    FILETIME created, exited, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        return -1;
    const auto toUs = [](const FILETIME &t) {
        return qint64((quint64(t.dwHighDateTime) << 32 | t.dwLowDateTime) / 10);
    };
    return toUs(kernel) + toUs(user);
#else
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    return qint64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1'000'000
        + qint64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
#endif
}

double CpuMeter::sample()
{
    const qint64 cpu = processCpuUs();
    const qint64 wallUs = m_wall.nsecsElapsed() / 1000;
    m_wall.restart();
    if (cpu < 0 || m_lastCpuUs < 0 || wallUs <= 0) {
        m_lastCpuUs = cpu;
        return -1.0;
    }
    const double pct = 100.0 * double(cpu - m_lastCpuUs) / double(wallUs);
    m_lastCpuUs = cpu;
    return pct;
}

} // namespace streamscope::ui
