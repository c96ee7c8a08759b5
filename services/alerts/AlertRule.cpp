#include "AlertRule.h"

#include <cmath>

namespace streamscope::alerts {

QJsonObject AlertRule::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("stream"), stream);
    if (rateBelow > 0.0)
        o.insert(QStringLiteral("rate_below"), rateBelow);
    if (p99AboveMs > 0.0)
        o.insert(QStringLiteral("p99_above_ms"), p99AboveMs);
    if (silentS > 0)
        o.insert(QStringLiteral("silent_s"), silentS);
    if (gaps)
        o.insert(QStringLiteral("gaps"), true);
    if (bookDesync)
        o.insert(QStringLiteral("book_desync"), true);
    if (bookCrossed)
        o.insert(QStringLiteral("book_crossed"), true);
    if (instrumentStale)
        o.insert(QStringLiteral("instrument_stale"), true);
    if (crossVenueBps > 0.0)
        o.insert(QStringLiteral("cross_venue_bps"), crossVenueBps);
    if (crossVenueFrozen)
        o.insert(QStringLiteral("cross_venue_frozen"), true);
    if (forS > 0)
        o.insert(QStringLiteral("for_s"), forS);
    if (clearAfterS != kDefaultClearAfterS)
        o.insert(QStringLiteral("clear_after_s"), clearAfterS);
    return o;
}

bool AlertRule::fromJson(const QJsonObject &o, const QString &where, AlertRule &out, QString *error)
{
    const auto fail = [&](const QString &key, const QString &expected) {
        if (error)
            *error = QStringLiteral("%1.%2: expected %3").arg(where, key, expected);
        return false;
    };
    AlertRule r;
    const QJsonValue stream = o.value(QStringLiteral("stream"));
    if (!stream.isString() || stream.toString().isEmpty())
        return fail(QStringLiteral("stream"), QStringLiteral("a stream name or \"*\""));
    r.stream = stream.toString();
    const auto number = [&](const char *key, double &target) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return true;
        if (!v.isDouble() || v.toDouble() < 0.0)
            return fail(QLatin1String(key), QStringLiteral("a number ≥ 0"));
        target = v.toDouble();
        return true;
    };
    double silent = 0.0;
    if (!number("rate_below", r.rateBelow) || !number("p99_above_ms", r.p99AboveMs) || !number("silent_s", silent)
        || !number("cross_venue_bps", r.crossVenueBps))
        return false;
    r.silentS = int(silent);
    const auto flag = [&](const char *key, bool &target) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isBool())
            return fail(QLatin1String(key), QStringLiteral("true or false"));
        target = v.toBool(false);
        return true;
    };
    if (!flag("gaps", r.gaps) || !flag("book_desync", r.bookDesync) || !flag("book_crossed", r.bookCrossed)
        || !flag("instrument_stale", r.instrumentStale) || !flag("cross_venue_frozen", r.crossVenueFrozen))
        return false;
    const auto seconds = [&](const char *key, int &target) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return true;
        const double d = v.toDouble(-1.0);
        if (!v.isDouble() || d < 0.0 || d > kMaxHysteresisS || d != std::trunc(d))
            return fail(QLatin1String(key),
                        QStringLiteral("a whole number of seconds from 0 to %1").arg(kMaxHysteresisS));
        target = int(d);
        return true;
    };
    if (!seconds("for_s", r.forS) || !seconds("clear_after_s", r.clearAfterS))
        return false;
    out = r;
    return true;
}

QJsonArray AlertRule::toJson(const QVector<AlertRule> &rules)
{
    QJsonArray a;
    for (const AlertRule &r : rules)
        a.append(r.toJson());
    return a;
}

bool AlertRule::fromJson(const QJsonArray &a, QVector<AlertRule> &out, QString *error)
{
    QVector<AlertRule> rules;
    for (int i = 0; i < a.size(); ++i) {
        const QString where = QStringLiteral("alerts[%1]").arg(i);
        if (!a.at(i).isObject()) {
            if (error)
                *error = where + QStringLiteral(": expected an object");
            return false;
        }
        AlertRule r;
        if (!fromJson(a.at(i).toObject(), where, r, error))
            return false;
        rules.append(r);
    }
    out = rules;
    return true;
}

} // namespace streamscope::alerts
