#include "BenchFormat.h"

#include <algorithm>

namespace streamscope::bench {

bool isWss(const QString &scenario)
{
    return scenario.endsWith(kWssSuffix);
}

QString baseScenario(const QString &scenario)
{
    return isWss(scenario) ? scenario.chopped(kWssSuffix.size()) : scenario;
}

QTextStream &log()
{
    static QTextStream s(stderr);
    return s;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

QString rate(double msgsPerS)
{
    if (msgsPerS >= 1e6)
        return QString::number(msgsPerS / 1e6, 'f', 2) + QStringLiteral("M");
    if (msgsPerS >= 1e3)
        return QString::number(msgsPerS / 1e3, 'f', 1) + QStringLiteral("k");
    return QString::number(msgsPerS, 'f', 0);
}

QString num(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

QString spreadCell(const QJsonObject &figures, const QString &field, bool isRate)
{
    if (figures.isEmpty())
        return QStringLiteral("—");
    const double med = figures.value(field).toDouble();
    const double lo = figures.value(field + QStringLiteral("_min")).toDouble();
    const double hi = figures.value(field + QStringLiteral("_max")).toDouble();
    if (med <= 0) // no complete run
        return QStringLiteral("—");
    if (figures.value(QStringLiteral("repeats")).toDouble() <= 1) // one run: no spread to show
        return isRate ? rate(med) : num(med, 3);
    if (isRate)
        return QStringLiteral("%1 [%2–%3]").arg(rate(med), rate(lo), rate(hi));
    return QStringLiteral("%1 [%2–%3]").arg(num(med, 3), num(lo, 3), num(hi, 3));
}

QString clientCell(const QJsonObject &figures)
{
    if (figures.isEmpty())
        return QStringLiteral("—");
    return spreadCell(figures, kRate, true) + QStringLiteral(" · ") + spreadCell(figures, kCpu, false)
        + QStringLiteral(" µs");
}

QString ratioCell(const Spread &s)
{
    if (s.n == 0)
        return QStringLiteral("—");
    if (s.n == 1)
        return num(s.median);
    return QStringLiteral("%1 [%2–%3]").arg(num(s.median), num(s.min), num(s.max));
}

} // namespace streamscope::bench
