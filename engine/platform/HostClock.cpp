#include "HostClock.h"

#ifdef Q_OS_LINUX
#include <sys/timex.h>

namespace streamscope {

HostClockState HostClockState::read()
{
    HostClockState s;
    struct timex tx = {};
    tx.modes = 0; // read only
    const int state = adjtimex(&tx);
    if (state == -1)
        return s;
    s.synchronised = state != TIME_ERROR && (tx.status & STA_UNSYNC) == 0;
    // Both in µs; the kernel caps maxerror at 16 s (NTP_PHASE_LIMIT) when nothing disciplines it.
    s.estimatedErrorMs = double(tx.esterror) / 1000.0;
    s.maximumErrorMs = double(tx.maxerror) / 1000.0;
    return s;
}

} // namespace streamscope

#else

namespace streamscope {

// macOS has ntp_adjtime() but no synchronisation state a user process can rely on, Windows
// nothing comparable without privileges: unknown, not guessed.
HostClockState HostClockState::read()
{
    return {};
}

} // namespace streamscope

#endif
