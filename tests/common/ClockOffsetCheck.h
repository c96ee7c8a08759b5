#pragma once

// The check of a clock-offset estimate against the true offset a test set up (a server whose
// clock runs that far ahead): the estimate holds it within the uncertainty it gives, plus a
// small margin for the wall clock read apart from the monotonic one.

#include "ClockEstimate.h"

#include <QtCore/QString>
#include <QtCore/QtGlobal>

namespace streamscope::testing {

// "offset 500.513 ± 0.706 ms, true 500 ms from 5 samples": for the log and a failure's message.
inline QString offsetText(const ClockEstimate &clock, qint64 trueMs)
{
    return QStringLiteral("offset %1 ± %2 ms, true %3 ms from %4 samples")
        .arg(clock.offsetMs, 0, 'f', 3)
        .arg(clock.uncertaintyMs, 0, 'f', 3)
        .arg(trueMs)
        .arg(clock.serverTimeSamples);
}

inline bool offsetWithin(const ClockEstimate &clock, qint64 trueMs)
{
    return qAbs(clock.offsetMs - double(trueMs)) <= clock.uncertaintyMs + 0.5;
}

} // namespace streamscope::testing
