#pragma once

// The state of this machine's clock as its operating system sees it: whether the kernel
// considers it synchronised (to NTP, PTP, chrony...) and how far off it may be. On Linux
// from adjtimex(2) in read-only mode (no privilege needed): synchronised unless the kernel
// says TIME_ERROR or STA_UNSYNC; `esterror` and `maxerror` as the estimated and maximum
// error. Elsewhere "unknown": no portable API gives the same, and a guess would mislead.
//
// Thread contract: read() is a pure function of the kernel's state, callable from any thread.

#include <QtCore/QtGlobal>

#include <optional>

namespace streamscope {

struct HostClockState {
    std::optional<bool> synchronised;       // empty: unknown on this system
    std::optional<double> estimatedErrorMs; // the kernel's estimate (adjtimex esterror)
    std::optional<double> maximumErrorMs;   // its bound (adjtimex maxerror)

    bool known() const { return synchronised.has_value(); }

    static HostClockState read();
};

} // namespace streamscope
