#include "Report.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QSaveFile>

namespace streamscope::app {

namespace {
double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}
} // namespace

QJsonObject buildReport(const QVector<StreamSnapshot> &streams, double durationS)
{
    QJsonArray list;
    for (const StreamSnapshot &s : streams) {
        const LatencySnapshot &l = s.latency;
        const auto ms = [&l](double q) { return round3(l.percentileUs(q) / 1000.0); };
        QJsonObject latency{{QStringLiteral("count"), qint64(l.count)},
                            {QStringLiteral("p50"), ms(0.5)},
                            {QStringLiteral("p90"), ms(0.9)},
                            {QStringLiteral("p99"), ms(0.99)},
                            {QStringLiteral("p999"), ms(0.999)},
                            {QStringLiteral("max"), round3(double(l.maxUs) / 1000.0)},
                            {QStringLiteral("mean"), round3(l.meanUs() / 1000.0)},
                            {QStringLiteral("negative"), qint64(l.negative)}};
        QJsonObject o{{QStringLiteral("name"), s.name},
                      {QStringLiteral("url"), s.url.toString()},
                      {QStringLiteral("venue"), venueName(s.venue)},
                      {QStringLiteral("mode"), modeName(s.mode)},
                      {QStringLiteral("state"), stateName(s.state)},
                      {QStringLiteral("state_reason"), s.stateReason},
                      {QStringLiteral("messages"), qint64(s.messages)},
                      {QStringLiteral("data_messages"), qint64(s.dataMessages)},
                      {QStringLiteral("bytes"), qint64(s.bytes)},
                      {QStringLiteral("results"), qint64(s.results)},
                      {QStringLiteral("errors"), qint64(s.errors)},
                      {QStringLiteral("control_messages"), qint64(s.controlMessages)},
                      {QStringLiteral("heartbeats"), qint64(s.heartbeats)},
                      {QStringLiteral("parse_errors"), qint64(s.parseErrors)},
                      {QStringLiteral("gaps"), qint64(s.gaps)},
                      {QStringLiteral("reconnects"), qint64(s.reconnects)},
                      {QStringLiteral("last_close_code"), s.lastCloseCode},
                      {QStringLiteral("rate_msgs_per_s"), durationS > 0 ? round3(double(s.messages) / durationS) : 0.0},
                      {QStringLiteral("latency_ms"), latency}};
        if (!s.lastParseError.isEmpty())
            o.insert(QStringLiteral("last_parse_error"), s.lastParseError);
        list.append(o);
    }
    return QJsonObject{{QStringLiteral("version"), 1},
                       {QStringLiteral("duration_s"), round3(durationS)},
                       {QStringLiteral("streams"), list}};
}

bool writeReport(const QString &path, const QJsonObject &report, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(report).toJson(QJsonDocument::Indented)) < 0 || !f.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write the report: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace streamscope::app
