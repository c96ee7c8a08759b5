#include "HostClock.h"

#ifdef Q_OS_LINUX
#include <sys/timex.h>
#endif

namespace streamscope {

HostClockState HostClockState::read()
{
    HostClockState s;
#ifdef Q_OS_LINUX
    struct timex tx = {};
    tx.modes = 0; // read only
    const int state = adjtimex(&tx);
    if (state == -1)
        return s;
    s.synchronised = state != TIME_ERROR && (tx.status & STA_UNSYNC) == 0;
    // Both in µs; the kernel caps maxerror at 16 s (NTP_PHASE_LIMIT) when nothing disciplines it.
    s.estimatedErrorMs = double(tx.esterror) / 1000.0;
    s.maximumErrorMs = double(tx.maxerror) / 1000.0;
#endif
    return s;
}

} // namespace streamscope
