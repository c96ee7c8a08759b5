#pragma once

// The pieces of Prometheus' text format that every /metrics section writes alike
// (app/MetricsServer and the report's clock, freshness, cadence and flight sections).
// Header only; stream names in `names` are already label-escaped by the caller.

#include "StreamSnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QVector>

#include <cmath>
#include <optional>

namespace streamscope::app {

// A sample value: NaN as Prometheus spells it, otherwise nine significant digits.
inline QByteArray metricNumber(double v)
{
    return std::isnan(v) ? QByteArrayLiteral("NaN") : QByteArray::number(v, 'g', 9);
}

// A label value: the engine takes only instrument names of letters, digits and ._:/-
// (the engine's one name rule), but the text format's escapes are applied all the same.
inline QByteArray labelValue(const QString &v)
{
    QByteArray out;
    for (const char c : v.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

// "# TYPE name type" and "# HELP name help" of one family (`name` is its full name).
inline void appendFamily(QByteArray &out, const QByteArray &name, const char *type, const char *help)
{
    out += "# TYPE " + name + ' ' + type + "\n# HELP " + name + ' ' + help + '\n';
}

// The gauge family streamscope_<name>, with one sample per stream for which
// `value(const StreamSnapshot &)` gives a std::optional<double> that holds one.
template<typename Value>
void appendStreamGauge(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                       const char *name, const char *help, Value value)
{
    const QByteArray family = QByteArrayLiteral("streamscope_") + name;
    appendFamily(out, family, "gauge", help);
    for (qsizetype i = 0; i < streams.size(); ++i)
        if (const std::optional<double> v = value(streams[i]))
            out += family + "{stream=\"" + names[i] + "\"} " + metricNumber(*v) + '\n';
}

} // namespace streamscope::app
