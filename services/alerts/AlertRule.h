#pragma once

// A stream's alert thresholds as stored in the workspace's "alerts" array:
//   {"stream": "btc-trades", "rate_below": 10, "p99_above_ms": 250, "silent_s": 15, "gaps": true,
//    "book_desync": true, "book_crossed": true, "instrument_stale": true, "cross_venue_bps": 25,
//    "cross_venue_frozen": true, "for_s": 0, "clear_after_s": 5}
// "stream": "*" applies to every stream without a rule of its own. A zero or absent
// threshold is off. `for_s`: a condition raises an alert once it has held that long;
// `clear_after_s`: the alert clears once the condition has stayed clear that long
// (docs/alerts.md). Plain value type.

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QVector>

namespace streamscope::alerts {

struct AlertRule {
    static inline const QString kAnyStream = QStringLiteral("*");
    static constexpr int kDefaultClearAfterS = 5;
    static constexpr int kMaxHysteresisS = 86400;

    QString stream;
    double rateBelow = 0.0;                // msgs/s; alert while a running stream's rate is below
    double p99AboveMs = 0.0;               // alert while latency p99 is above
    int silentS = 0;                       // alert when no data message for this long
    bool gaps = false;                     // alert when a sequence gap is detected
    bool bookDesync = false;               // alert when an order book loses sync (docs/books.md)
    bool bookCrossed = false;              // alert when an order book is crossed
    bool instrumentStale = false;          // alert when an instrument goes quiet (docs/freshness.md)
    double crossVenueBps = 0.0;            // alert while the stream's mid is this far from the other venues' median
    bool crossVenueFrozen = false;         // alert while its price is frozen and the other venues' move
    int forS = 0;                          // raise once a condition held this long
    int clearAfterS = kDefaultClearAfterS; // clear once it stayed clear this long

    bool isEmpty() const
    {
        return rateBelow <= 0.0 && p99AboveMs <= 0.0 && silentS <= 0 && !gaps && !bookDesync && !bookCrossed
            && !instrumentStale && crossVenueBps <= 0.0 && !crossVenueFrozen;
    }
    bool operator==(const AlertRule &o) const
    {
        return stream == o.stream && rateBelow == o.rateBelow && p99AboveMs == o.p99AboveMs && silentS == o.silentS
            && gaps == o.gaps && bookDesync == o.bookDesync && bookCrossed == o.bookCrossed
            && instrumentStale == o.instrumentStale && crossVenueBps == o.crossVenueBps
            && crossVenueFrozen == o.crossVenueFrozen && forS == o.forS && clearAfterS == o.clearAfterS;
    }

    QJsonObject toJson() const;
    // Returns false and sets `error` ("alerts[2].silent_s: expected a number") on a bad entry.
    static bool fromJson(const QJsonObject &o, const QString &where, AlertRule &out, QString *error);
    static QJsonArray toJson(const QVector<AlertRule> &rules);
    static bool fromJson(const QJsonArray &a, QVector<AlertRule> &out, QString *error);
};

} // namespace streamscope::alerts
