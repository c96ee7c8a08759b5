#pragma once

// The benchmark's targets (issues 4, 15 and 28) as far as a run measured them: each with what
// was measured (a ratio with its [min–max]), its limit and whether it was met; as the
// markdown's "Targets" table and the JSON's "targets".
//
// Thread contract: a value of the driver's thread.

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace streamscope::bench {

class TargetTable {
public:
    // The targets `root` (the driver's JSON: scenarios, stop, latency, scale, soak) measured.
    static TargetTable of(const QJsonObject &root);

    // `spread`: the ratio's spread (min, max), shown beside the value.
    void check(const QString &what, double value, double limit, bool atLeast, const QJsonObject &spread = {});

    QJsonArray json() const { return m_json; }
    // The table, or nothing when no target was measured.
    QString markdown() const;

private:
    QStringList m_rows;
    QJsonArray m_json;
};

} // namespace streamscope::bench
