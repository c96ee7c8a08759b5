#include "Format.h"

#include <QtGui/QGuiApplication>
#include <QtGui/QPalette>

#include <algorithm>
#include <cmath>

namespace streamscope::ui {

QString clockText(const ClockEstimate &clock)
{
    switch (clock.source) {
    case ClockOffsetSource::ServerTime:
        return QObject::tr("offset %1%2 ms ±%3 ms (server time)")
            .arg(clock.offsetMs >= 0 ? QStringLiteral("+") : QString())
            .arg(clock.offsetMs, 0, 'f', 1)
            .arg(clock.uncertaintyMs, 0, 'f', 1);
    case ClockOffsetSource::LatencyFloor:
        return clock.offsetMs > 0
            ? QObject::tr("local clock behind by at least %1 ms (latency floor)").arg(clock.offsetMs, 0, 'f', 1)
            : QObject::tr("no offset shown by the latency floor");
    case ClockOffsetSource::Unknown: break;
    }
    return QObject::tr("no offset known");
}

QString formatPrice(double price)
{
    if (!std::isfinite(price))
        return QStringLiteral("–");
    // Ten significant digits tell two prices of any venue apart; a price below 10^-20 (no
    // venue quotes one) shows as 0 rather than as an exponent.
    constexpr int kSignificant = 10;
    constexpr int kMaxDecimals = 20;
    const double a = std::abs(price);
    const int lead = a > 0.0 ? int(std::floor(std::log10(a))) : 0; // 2 for 100, -5 for 0.00001234
    const QString s =
        withoutTrailingZeros(QString::number(price, 'f', std::clamp(kSignificant - 1 - lead, 0, kMaxDecimals)));
    return s == QLatin1String("-0") ? QStringLiteral("0") : s;
}

QString withoutTrailingZeros(QString decimal)
{
    if (decimal.contains(QLatin1Char('.'))) {
        while (decimal.endsWith(QLatin1Char('0')))
            decimal.chop(1);
        if (decimal.endsWith(QLatin1Char('.')))
            decimal.chop(1);
    }
    return decimal;
}

QString formatDurationMs(double ms)
{
    if (!std::isfinite(ms))
        return QStringLiteral("–");
    // Two significant digits at most, never an exponent: "0.30 ms", "16 s", "2.5 min".
    const auto number = [](double v) {
        const double a = std::abs(v);
        return QString::number(v, 'f', a < 1.0 ? 2 : a < 10.0 ? 1 : 0);
    };
    const double a = std::abs(ms);
    if (a < 1000.0)
        return number(ms) + QStringLiteral(" ms");
    if (a < 60'000.0)
        return number(ms / 1000.0) + QStringLiteral(" s");
    if (a < 3'600'000.0)
        return number(ms / 60'000.0) + QStringLiteral(" min");
    return number(ms / 3'600'000.0) + QStringLiteral(" h");
}

QString hostClockText(const HostClockState &state)
{
    if (!state.synchronised.has_value())
        return QObject::tr("clock state unknown");
    if (!*state.synchronised)
        return QObject::tr("clock not synchronised");
    if (state.estimatedErrorMs.has_value())
        return QObject::tr("clock synced ±%1").arg(formatDurationMs(*state.estimatedErrorMs));
    return QObject::tr("clock synced");
}

QColor stateColor(StreamState state, bool dark)
{
    switch (state) {
    case StreamState::Live: return dark ? QColor(0x5c, 0xd6, 0x7a) : QColor(0x1a, 0x7f, 0x37);
    case StreamState::Connecting:
    case StreamState::Subscribing: return dark ? QColor(0x79, 0xb8, 0xff) : QColor(0x05, 0x50, 0xae);
    case StreamState::Stalled:
    case StreamState::Degraded: return dark ? QColor(0xf0, 0xb7, 0x2f) : QColor(0x9a, 0x67, 0x00);
    case StreamState::Reconnecting: return dark ? QColor(0xff, 0x9e, 0x4a) : QColor(0xbc, 0x4c, 0x00);
    case StreamState::Failed: return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xcf, 0x22, 0x2e);
    case StreamState::Stopped:
    case StreamState::Idle:
    case StreamState::Unknown: break;
    }
    return dark ? QColor(0x9d, 0xa5, 0xb0) : QColor(0x65, 0x6d, 0x76);
}

QColor bookStateColor(BookState state, bool dark)
{
    switch (state) {
    case BookState::Synced: return stateColor(StreamState::Live, dark);
    case BookState::Syncing: return stateColor(StreamState::Connecting, dark);
    case BookState::Resyncing: return stateColor(StreamState::Reconnecting, dark);
    case BookState::Desynced:
    case BookState::Crossed: return stateColor(StreamState::Failed, dark);
    case BookState::Unknown: break;
    }
    return stateColor(StreamState::Unknown, dark);
}

bool isDarkPalette()
{
    const QPalette p = QGuiApplication::palette();
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

} // namespace streamscope::ui
