#include "ThroughputResults.h"

#include "BenchFormat.h"

#include <QtCore/QJsonArray>

#include <algorithm>

namespace streamscope::bench {

void ThroughputResults::add(const QString &scenario, const QString &key, const QJsonObject &run)
{
    m_results[scenario][key].append(run);
}

QList<QJsonObject> ThroughputResults::runs(const QString &scenario, const QString &key) const
{
    return m_results.value(scenario).value(key);
}

QMap<QString, QList<QJsonObject>> ThroughputResults::byKey(const QString &scenario) const
{
    return m_results.value(scenario);
}

bool ThroughputResults::contains(const QString &scenario, const QString &key) const
{
    return m_results.value(scenario).contains(key);
}

std::vector<double> ThroughputResults::values(const QString &scenario, const QString &key, const QString &field) const
{
    std::vector<double> v;
    for (const QJsonObject &o : m_results.value(scenario).value(key))
        v.push_back(o.value(field).toDouble());
    return v;
}

QJsonObject ThroughputResults::clientFigures(const QString &scenario, const QString &key) const
{
    QJsonObject out;
    QJsonArray runs;
    for (const QJsonObject &o : m_results.value(scenario).value(key))
        runs.append(QJsonArray{o.value(kRate), o.value(kCpu)});
    for (const QString &field : {kRate, kCpu}) {
        // Failed runs (0) are left out of the figures; they are counted as failures already.
        std::vector<double> v;
        for (const double x : values(scenario, key, field))
            if (x > 0)
                v.push_back(x);
        const Spread s = spreadOf(v);
        out[field] = s.median;
        out[field + QStringLiteral("_min")] = s.min;
        out[field + QStringLiteral("_max")] = s.max;
    }
    out[QStringLiteral("repeats")] = double(runs.size());
    out[QStringLiteral("runs_msgs_per_s_cpu_us")] = runs;
    const QList<QJsonObject> &results = m_results.value(scenario).value(key);
    if (!results.isEmpty() && results.first().contains(QStringLiteral("peer")))
        out[QStringLiteral("peer")] = results.first().value(QStringLiteral("peer"));
    return out;
}

Spread ThroughputResults::pairedSpread(const QString &scenario, const QString &a, const QString &b,
                                       const QString &field) const
{
    return spreadOf(pairedRatios(values(scenario, a, field), values(scenario, b, field)));
}

Convergence ThroughputResults::convergence(const QString &scenario, const QList<RatioDef> &defs, int minPairs,
                                           double within) const
{
    Convergence c;
    for (const RatioDef &d : defs) {
        if (!d.steers || !contains(scenario, d.numerator) || !contains(scenario, d.denominator))
            continue;
        const Spread s = pairedSpread(scenario, d.numerator, d.denominator, kRate);
        // Below 6 pairs min–max covers the median with less than 95 % (BenchStats.h).
        const bool ok = s.n >= std::max(minPairs, kMinPairsFor95) && s.within(within);
        if (c.converged && !ok)
            c.widestName.clear(); // the widest failing one is reported
        if ((c.converged || !ok) && (c.widestName.isEmpty() || s.halfWidth() > c.widest.halfWidth())) {
            c.widest = s;
            c.widestName = d.name;
        }
        c.converged = c.converged && ok;
    }
    return c;
}

} // namespace streamscope::bench
