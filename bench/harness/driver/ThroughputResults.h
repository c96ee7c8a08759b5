#pragma once

// The throughput runs' results and what is derived from them: every run of every client
// (or "old:" + client) on every scenario in repeat order, a client's figures over its repeats,
// the ratios of two clients formed within each repeat, and whether a scenario's ratios have
// converged (--converge).
//
// Thread contract: the driver's thread.

#include "BenchStats.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QString>

#include <tuple>
#include <vector>

namespace streamscope::bench {

// The ratios of the main table: name, numerator, denominator (msgs/s of runs made next to
// each other). app/wire: how far the whole stack is from the physical limit (over wss, from
// the TLS reader).
inline const std::tuple<QString, QString, QString> kBaseRatios[] = {
    {QStringLiteral("engine-raw/qws"), QStringLiteral("engine-raw"), QStringLiteral("qws")},
    {QStringLiteral("engine-parsed/qws"), QStringLiteral("engine-parsed"), QStringLiteral("qws")},
    {QStringLiteral("engine-raw/wire"), QStringLiteral("engine-raw"), QStringLiteral("wire")},
    {QStringLiteral("engine-parsed/wire"), QStringLiteral("engine-parsed"), QStringLiteral("wire")},
    {QStringLiteral("app/engine-parsed"), QStringLiteral("app"), QStringLiteral("engine-parsed")},
    {QStringLiteral("app/wire"), QStringLiteral("app"), QStringLiteral("wire")},
};

struct RatioDef {
    QString name;
    QString numerator; // result keys
    QString denominator;
    bool steers = true; // counts for --converge
};

// Where a scenario's ratios stand after a repeat (--converge).
struct Convergence {
    bool converged = true;
    Spread widest; // the widest failing steering ratio's spread, else the widest one's
    QString widestName;
};

class ThroughputResults {
public:
    void add(const QString &scenario, const QString &key, const QJsonObject &run);
    // Every run of `key` on a scenario, in repeat order.
    QList<QJsonObject> runs(const QString &scenario, const QString &key) const;
    // The keys that ran on a scenario, with their runs.
    QMap<QString, QList<QJsonObject>> byKey(const QString &scenario) const;
    bool contains(const QString &scenario, const QString &key) const;

    // One field of every repeat of `key` on a scenario, in repeat order (0 for a failed run).
    std::vector<double> values(const QString &scenario, const QString &key, const QString &field) const;
    // Median, min and max of msgs/s and CPU µs/msg, and the runs themselves (JSON).
    QJsonObject clientFigures(const QString &scenario, const QString &key) const;
    // a ÷ b of `field`, per repeat (pairs with a failed run left out).
    Spread pairedSpread(const QString &scenario, const QString &a, const QString &b, const QString &field) const;

    // Converged: every steering ratio of two clients that ran has at least max(minPairs, 6)
    // complete pairs and its median's interval within ±within (BenchStats.h).
    Convergence convergence(const QString &scenario, const QList<RatioDef> &defs, int minPairs, double within) const;

private:
    // results[scenario][key] = one result per repeat, in repeat order
    QMap<QString, QMap<QString, QList<QJsonObject>>> m_results;
};

} // namespace streamscope::bench
