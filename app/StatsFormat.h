#pragma once

// Numbers derived from engine snapshots, shared by the headless live line, the report and
// the metrics endpoint: rates from two snapshots, latency percentiles in milliseconds.

#include "StreamSnapshot.h"

#include <QtCore/QString>

namespace streamscope::app {

struct Rates {
    double messagesPerS = 0;
    double bytesPerS = 0;
};

Rates ratesBetween(const StreamSnapshot &earlier, const StreamSnapshot &later);
// One line of the headless live view.
QString liveLine(const StreamSnapshot &now, const Rates &rates, const LatencySnapshot &window);

} // namespace streamscope::app
