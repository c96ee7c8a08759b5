#include "StatsFormat.h"

namespace streamscope::app {

Rates ratesBetween(const StreamSnapshot &earlier, const StreamSnapshot &later)
{
    Rates r;
    const double seconds = double(later.takenAtNs - earlier.takenAtNs) / 1e9;
    if (seconds <= 0 || later.messages < earlier.messages)
        return r;
    r.messagesPerS = double(later.messages - earlier.messages) / seconds;
    r.bytesPerS = double(later.bytes - earlier.bytes) / seconds;
    return r;
}

QString liveLine(const StreamSnapshot &s, const Rates &rates, const LatencySnapshot &window)
{
    const auto ms = [](double us) { return QString::number(us / 1000.0, 'f', us < 10000 ? 2 : 0); };
    const QString latency = window.count
        ? QStringLiteral("p50 %1 ms  p99 %2 ms").arg(ms(window.percentileUs(0.5)), ms(window.percentileUs(0.99)))
        : QStringLiteral("p50 -  p99 -");
    return QStringLiteral("%1  %2  %3 msg/s  %4 KB/s  %5  reconnects %6  total %7")
        .arg(s.name.leftJustified(20, QLatin1Char(' '), true), stateName(s.state).leftJustified(12))
        .arg(rates.messagesPerS, 9, 'f', 0)
        .arg(rates.bytesPerS / 1024.0, 8, 'f', 1)
        .arg(latency)
        .arg(s.reconnects)
        .arg(s.messages);
}

} // namespace streamscope::app
