#include "ServerTimeAnswer.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <cmath>

namespace streamscope::servertime {

namespace {

// 2000-01-01 and 2100-01-01, in ms since the epoch: a server time outside is no time at all.
constexpr qint64 kMinPlausibleMs = 946'684'800'000;
constexpr qint64 kMaxPlausibleMs = 4'102'444'800'000;
// Doubles hold integers exactly up to 2^53.
constexpr double kMaxExactDouble = 9007199254740992.0;

// Units per ms, or ms per unit (seconds), for the plausibility bounds in the value's own unit.
struct Scale {
    qint64 unitsPerMs = 1;
    qint64 msPerUnit = 1;
    qint64 usPerUnit = 0; // 0: the value is divided by 1000 (ns)
};

Scale scaleOf(LatencyUnit unit)
{
    switch (unit) {
    case LatencyUnit::Seconds: return {1, 1000, 1'000'000};
    case LatencyUnit::Milliseconds: return {1, 1, 1000};
    case LatencyUnit::Microseconds: return {1000, 1, 1};
    case LatencyUnit::Nanoseconds: return {1'000'000, 1, 0};
    case LatencyUnit::Unknown: break;
    }
    return {};
}

std::optional<qint64> integral(const QJsonValue &value, Written written)
{
    if (value.isDouble() && (written == Written::Number || written == Written::Either)) {
        const double d = value.toDouble();
        if (!(std::fabs(d) <= kMaxExactDouble) || d != std::floor(d))
            return std::nullopt;
        return qint64(d);
    }
    if (value.isString() && (written == Written::Text || written == Written::Either)) {
        const QString text = value.toString();
        if (text.isEmpty() || text.size() > 19)
            return std::nullopt;
        for (const QChar c : text)
            if (c < QLatin1Char('0') || c > QLatin1Char('9'))
                return std::nullopt;
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        return ok ? std::optional<qint64>(n) : std::nullopt;
    }
    return std::nullopt;
}

} // namespace

std::optional<ServerTimeReading> read(const QJsonValue &value, LatencyUnit unit, Written written)
{
    const std::optional<qint64> n = integral(value, written);
    if (!n || unit == LatencyUnit::Unknown)
        return std::nullopt;
    const Scale s = scaleOf(unit);
    // The bounds in the value's unit: at most 4.1e18 (ns), within int64.
    const qint64 min = kMinPlausibleMs * s.unitsPerMs / s.msPerUnit;
    const qint64 max = kMaxPlausibleMs * s.unitsPerMs / s.msPerUnit;
    if (*n < min || *n > max)
        return std::nullopt;
    ServerTimeReading r;
    r.timeUs = s.usPerUnit ? *n * s.usPerUnit : *n / 1000;
    r.resolutionUs = s.usPerUnit ? s.usPerUnit : 1;
    return r;
}

std::optional<ServerTimeReading> readServerTimeMs(const QByteArray &body)
{
    return read(QJsonDocument::fromJson(body).object().value(QLatin1String("serverTime")), LatencyUnit::Milliseconds,
                Written::Number);
}

} // namespace streamscope::servertime
