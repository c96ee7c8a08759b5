#include "ThroughputWindow.h"

#include "BenchClock.h"

#include <algorithm>

namespace streamscope::bench {

QJsonObject ThroughputWindow::json(const QString &client) const
{
    QJsonObject o = extra;
    o[QStringLiteral("client")] = client;
    o[QStringLiteral("count")] = double(count);
    o[QStringLiteral("received")] = double(received);
    const double n = double(count - std::min(count, receivedAtFirst));
    const double seconds = double(lastNs - firstNs) / 1e9;
    const bool ok = received >= count && seconds > 0 && n > 0;
    o[QStringLiteral("ok")] = ok;
    o[QStringLiteral("seconds")] = seconds;
    o[QStringLiteral("msgs_per_s")] = ok ? n / seconds : 0.0;
    o[QStringLiteral("cpu_us_per_msg")] = ok ? (cpuLastUs - cpuFirstUs) / n : 0.0;
    o[QStringLiteral("size_bytes")] = sizeMedian;
    o[QStringLiteral("rss_kib")] = double(residentKiB());
    if (!error.isEmpty())
        o[QStringLiteral("error")] = error;
    return o;
}

} // namespace streamscope::bench
