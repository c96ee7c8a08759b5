#include "ReportCsv.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QSaveFile>
#include <QtCore/QSet>

#include <algorithm>
#include <cmath>

namespace streamscope::app {

namespace {

void collect(const QJsonObject &o, const QString &prefix, QStringList &paths, QSet<QString> &seen,
             QHash<QString, QJsonValue> *values)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject()) {
            collect(it.value().toObject(), path, paths, seen, values);
        } else if (!it.value().isArray()) {
            if (!seen.contains(path)) {
                seen.insert(path);
                paths << path;
            }
            if (values)
                values->insert(path, it.value());
        }
    }
}

QString scalarText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9007199254740992.0)
            return QString::number(qint64(d));
        return QString::number(d, 'g', 15);
    }
    case QJsonValue::String: return v.toString();
    default: return QString(); // null, undefined
    }
}

} // namespace

QString csvCell(QString text)
{
    if (!text.isEmpty() && QStringLiteral("=+-@").contains(text.front())
        && !(text.size() > 1 && text.front() == QLatin1Char('-') && text.at(1).isDigit()))
        text.prepend(QLatin1Char('\''));
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n'))
        || text.contains(QLatin1Char('\r')))
        text = QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return text;
}

QString csvLine(const QStringList &cells)
{
    QStringList quoted;
    quoted.reserve(cells.size());
    for (const QString &c : cells)
        quoted << csvCell(c);
    return quoted.join(QLatin1Char(','));
}

QString reportCsv(const QJsonObject &report)
{
    const QJsonArray streams = report.value(QStringLiteral("streams")).toArray();
    QStringList paths{QStringLiteral("name")};
    QSet<QString> seen{QStringLiteral("name")};
    for (const QJsonValue &s : streams)
        collect(s.toObject(), QString(), paths, seen, nullptr);
    std::sort(paths.begin() + 1, paths.end());
    const QString crlf = QStringLiteral("\r\n");
    QString out = csvLine(paths) + crlf;
    for (const QJsonValue &s : streams) {
        QHash<QString, QJsonValue> values;
        QStringList unused;
        QSet<QString> unusedSeen;
        collect(s.toObject(), QString(), unused, unusedSeen, &values);
        QStringList cells;
        cells.reserve(paths.size());
        for (const QString &p : std::as_const(paths))
            cells << scalarText(values.value(p));
        out += csvLine(cells) + crlf;
    }
    return out;
}

bool writeReportCsv(const QString &path, const QJsonObject &report, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(reportCsv(report).toUtf8()) < 0 || !f.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write the CSV report: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace streamscope::app
