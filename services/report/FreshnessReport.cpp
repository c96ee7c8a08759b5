#include "FreshnessReport.h"

#include "MetricsText.h"

#include "CadenceReport.h"

#include <QtCore/QJsonValue>

#include <cmath>

namespace streamscope::app {

const char *behindCauseName(BehindCause cause)
{
    switch (cause) {
    case BehindCause::VenueLate: return "venue_late";
    case BehindCause::WeAreSlow: return "we_are_slow";
    case BehindCause::None: return "none";
    case BehindCause::Unknown: break;
    }
    return nullptr;
}

void addFreshnessFields(QJsonObject &o, const StreamSnapshot &s)
{
    const FreshnessEstimate &f = s.freshness;
    const QJsonValue null(QJsonValue::Null);
    o.insert(QStringLiteral("usual_gap_ms"), f.usualGapMs >= 0 ? QJsonValue(f.usualGapMs) : null);
    o.insert(QStringLiteral("silence_alarms"), qint64(f.silenceAlarms));
    o.insert(QStringLiteral("latency_trend_ms_per_s"), std::round(f.latencyTrendMsPerS * 1000.0) / 1000.0);
    o.insert(QStringLiteral("falling_behind"), f.fallingBehind);
    const char *cause = f.fallingBehindAlarms > 0 ? behindCauseName(f.cause) : nullptr;
    o.insert(QStringLiteral("falling_behind_cause"), cause ? QJsonValue(QLatin1String(cause)) : null);
    o.insert(QStringLiteral("falling_behind_alarms"), qint64(f.fallingBehindAlarms));
    o.insert(QStringLiteral("worker_busy_share"),
             f.workerBusyShare >= 0 ? QJsonValue(std::round(f.workerBusyShare * 1000.0) / 1000.0) : null);
    addCadenceFields(o, s); // periodic streams, latency per event type, backpressure
}

void appendFreshnessMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                            bool classic)
{
    const auto family = [&out](const QByteArray &name, const char *type, const char *help) {
        appendFamily(out, name, type, help);
    };
    const auto gauge = [&](const char *name, const char *help, auto value) {
        appendStreamGauge(out, streams, names, name, help, [&](const StreamSnapshot &s) { return value(s.freshness); });
    };
    gauge("usual_gap_seconds", "Learned usual gap between data messages (a high quantile).",
          [](const FreshnessEstimate &f) {
              return f.usualGapMs >= 0 ? std::optional<double>(double(f.usualGapMs) / 1000.0) : std::nullopt;
          });
    gauge("latency_trend_seconds_per_second", "Slope of the per-second mean latency over the last ten seconds.",
          [](const FreshnessEstimate &f) { return std::optional<double>(f.latencyTrendMsPerS / 1000.0); });
    gauge("falling_behind", "1 while latency keeps growing although messages arrive.",
          [](const FreshnessEstimate &f) { return std::optional<double>(f.fallingBehind ? 1.0 : 0.0); });
    gauge("worker_busy_ratio", "Share of the last second the stream's worker thread was on the CPU.",
          [](const FreshnessEstimate &f) {
              return f.workerBusyShare >= 0 ? std::optional<double>(f.workerBusyShare) : std::nullopt;
          });
    const auto counter = [&](const char *name, const char *help, quint64 FreshnessEstimate::*field) {
        const QByteArray sample = QByteArrayLiteral("streamscope_") + name + "_total";
        family(classic ? sample : QByteArrayLiteral("streamscope_") + name, "counter", help);
        for (qsizetype i = 0; i < streams.size(); ++i)
            out += sample + "{stream=\"" + names[i] + "\"} " + QByteArray::number(streams[i].freshness.*field) + '\n';
    };
    counter("silence_alarms", "Silences well beyond the stream's learned usual gap.",
            &FreshnessEstimate::silenceAlarms);
    counter("falling_behind_alarms", "Times the stream started falling behind.",
            &FreshnessEstimate::fallingBehindAlarms);
    appendCadenceMetrics(out, streams, names, classic);
}

} // namespace streamscope::app
