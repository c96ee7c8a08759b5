#pragma once

// A stream's alert thresholds as stored in the workspace's "alerts" array:
//   {"stream": "btc-trades", "rate_below": 10, "p99_above_ms": 250, "silent_s": 15, "gaps": true}
// "stream": "*" applies to every stream without a rule of its own. A zero or absent
// threshold is off. Plain value type.

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QVector>

namespace streamscope::ui {

struct AlertRule {
    static inline const QString kAnyStream = QStringLiteral("*");

    QString stream;
    double rateBelow = 0.0;  // msgs/s; alert while a running stream's rate is below
    double p99AboveMs = 0.0; // alert while latency p99 is above
    int silentS = 0;         // alert when no data message for this long
    bool gaps = false;       // alert when a sequence gap is detected

    bool isEmpty() const { return rateBelow <= 0.0 && p99AboveMs <= 0.0 && silentS <= 0 && !gaps; }
    bool operator==(const AlertRule &o) const
    {
        return stream == o.stream && rateBelow == o.rateBelow && p99AboveMs == o.p99AboveMs && silentS == o.silentS
            && gaps == o.gaps;
    }

    QJsonObject toJson() const;
    // Returns false and sets `error` ("alerts[2].silent_s: expected a number") on a bad entry.
    static bool fromJson(const QJsonObject &o, const QString &where, AlertRule &out, QString *error);
    static QJsonArray toJson(const QVector<AlertRule> &rules);
    static bool fromJson(const QJsonArray &a, QVector<AlertRule> &out, QString *error);
};

} // namespace streamscope::ui
