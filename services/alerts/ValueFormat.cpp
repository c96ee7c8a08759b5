#include "ValueFormat.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>

#include <cmath>

namespace streamscope::alerts {

QString formatCount(quint64 n)
{
    return QLocale::c().toString(n).replace(QLatin1Char(','), QChar(0x2009)); // thin space
}

QString formatRate(double perSecond)
{
    if (!std::isfinite(perSecond) || perSecond <= 0.0)
        return QStringLiteral("0");
    if (perSecond < 10.0)
        return QString::number(perSecond, 'f', 1);
    if (perSecond < 10'000.0)
        return QString::number(perSecond, 'f', 0);
    if (perSecond < 10'000'000.0)
        return QString::number(perSecond / 1000.0, 'f', 1) + QStringLiteral(" k");
    return QString::number(perSecond / 1e6, 'f', 1) + QStringLiteral(" M");
}

QString formatBytesRate(double bytesPerSecond)
{
    if (!std::isfinite(bytesPerSecond) || bytesPerSecond <= 0.0)
        return QStringLiteral("0");
    const double kb = bytesPerSecond / 1024.0;
    if (kb < 10.0)
        return QString::number(kb, 'f', 2);
    if (kb < 10'000.0)
        return QString::number(kb, 'f', 1);
    return QString::number(kb, 'f', 0);
}

QString formatLatencyMs(double ms)
{
    if (!std::isfinite(ms))
        return QStringLiteral("–");
    if (ms < 1.0)
        return QString::number(ms, 'f', 2) + QStringLiteral(" ms");
    if (ms < 100.0)
        return QString::number(ms, 'f', 1) + QStringLiteral(" ms");
    if (ms < 1000.0)
        return QString::number(ms, 'f', 0) + QStringLiteral(" ms");
    return QString::number(ms / 1000.0, 'f', 2) + QStringLiteral(" s");
}

QString formatAgeMs(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("never");
    if (ms < 10'000)
        return QString::number(double(ms) / 1000.0, 'f', 1) + QStringLiteral(" s");
    if (ms < 120'000)
        return QString::number(ms / 1000) + QStringLiteral(" s");
    if (ms < 7'200'000)
        return QString::number(ms / 60'000) + QStringLiteral(" min");
    return QString::number(ms / 3'600'000) + QStringLiteral(" h");
}

QString formatIsoUtcMs(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs).toUTC().toString(Qt::ISODateWithMs);
}

QString formatTimeMs(qint64 epochMs)
{
    if (epochMs <= 0)
        return QString();
    return QDateTime::fromMSecsSinceEpoch(epochMs).toString(QStringLiteral("HH:mm:ss.zzz"));
}

QString countNoun(quint64 n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(formatCount(n), n == 1 ? one : many);
}

} // namespace streamscope::alerts
