#pragma once

// The headless live line and the rates it shows, derived from two engine snapshots (the
// engine never computes rates itself). Used by `streamscope --headless` and by the
// benchmark's `app` client, so that the benchmark pays for what the application does.

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
