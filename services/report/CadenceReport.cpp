#include "CadenceReport.h"

#include "MetricsText.h"
#include "ReportNumbers.h"

#include "ClockReport.h"
#include "PeerText.h"

#include <QtCore/QJsonValue>

#include <cmath>
#include <optional>

namespace streamscope::app {

namespace {

QJsonValue optionalMs(double ms)
{
    return ms >= 0 ? QJsonValue(round3(ms)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QString eventTypeLabel(const QString &name)
{
    return peerText(name, 32);
}

QStringList eventTypeLabels(const QVector<EventTypeFigures> &types)
{
    QStringList labels;
    labels.reserve(types.size());
    for (qsizetype i = 0; i < types.size(); ++i) {
        QString label = eventTypeLabel(types[i].name);
        // Names that differ only past the cut or in escaped characters, or a peer's type
        // named "other", would give two series the same labels: Prometheus would refuse the
        // whole scrape, and the report would keep one of the two.
        for (int n = int(i) + 1; labels.contains(label); n += int(types.size()))
            label = eventTypeLabel(types[i].name) + QLatin1Char('~') + QString::number(n);
        labels << label;
    }
    return labels;
}

void addCadenceFields(QJsonObject &o, const StreamSnapshot &s)
{
    const FreshnessEstimate &f = s.freshness;
    const QJsonValue null(QJsonValue::Null);
    o.insert(QStringLiteral("periodic"), f.periodic);
    o.insert(QStringLiteral("period_ms"), optionalMs(f.periodMs));
    o.insert(QStringLiteral("period_jitter_ms"), optionalMs(f.periodJitterMs));
    QJsonObject byEvent;
    const QStringList labels = eventTypeLabels(f.byEvent);
    for (qsizetype k = 0; k < f.byEvent.size(); ++k) {
        const EventTypeFigures &e = f.byEvent[k];
        QJsonObject one = latencyObject(e.latency);
        one.insert(QStringLiteral("periodic"), e.periodic);
        one.insert(QStringLiteral("period_ms"), optionalMs(e.periodMs));
        one.insert(QStringLiteral("period_jitter_ms"), optionalMs(e.periodJitterMs));
        byEvent.insert(labels[k], one);
    }
    o.insert(QStringLiteral("latency_by_event"), byEvent);
    o.insert(QStringLiteral("unread_bytes"), f.unreadBytes >= 0 ? QJsonValue(f.unreadBytes) : null);
    o.insert(QStringLiteral("unread_bytes_peak"), f.unreadBytesPeak >= 0 ? QJsonValue(f.unreadBytesPeak) : null);
    o.insert(QStringLiteral("processing_us_per_message"),
             f.processingUs >= 0 ? QJsonValue(round3(f.processingUs)) : null);
}

void appendCadenceMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                          bool classic)
{
    Q_UNUSED(classic);
    const auto family = [&out](const QByteArray &name, const char *type, const char *help) {
        appendFamily(out, name, type, help);
    };
    const auto gauge = [&](const char *name, const char *help, auto value) {
        appendStreamGauge(out, streams, names, name, help, [&](const StreamSnapshot &s) { return value(s.freshness); });
    };
    gauge("periodic", "1 when every event type of the stream is periodic (kept out of latency alarms).",
          [](const FreshnessEstimate &f) { return std::optional<double>(f.periodic ? 1.0 : 0.0); });
    gauge("period_seconds", "A periodic stream's measured period (median spacing of its event times).",
          [](const FreshnessEstimate &f) {
              return f.periodMs >= 0 ? std::optional<double>(f.periodMs / 1000.0) : std::nullopt;
          });
    gauge("period_jitter_seconds", "Median distance of a periodic stream's event-time spacing from its period.",
          [](const FreshnessEstimate &f) {
              return f.periodJitterMs >= 0 ? std::optional<double>(f.periodJitterMs / 1000.0) : std::nullopt;
          });
    gauge("unread_bytes", "Bytes received but not read yet (socket buffer and kernel receive queue).",
          [](const FreshnessEstimate &f) {
              return f.unreadBytes >= 0 ? std::optional<double>(double(f.unreadBytes)) : std::nullopt;
          });
    gauge("unread_bytes_peak", "The most unread bytes over the last 10 s.", [](const FreshnessEstimate &f) {
        return f.unreadBytesPeak >= 0 ? std::optional<double>(double(f.unreadBytesPeak)) : std::nullopt;
    });
    gauge("processing_seconds_per_message", "Time to handle one message (sampled 1 in 64, last second's mean).",
          [](const FreshnessEstimate &f) {
              return f.processingUs >= 0 ? std::optional<double>(f.processingUs / 1e6) : std::nullopt;
          });

    // Per event type: a summary, its `event` label bounded by the engine's table (8 names and
    // "other" per stream) and escaped.
    family("streamscope_event_latency_seconds", "summary",
           "Receive time minus event time per event type, on streams that carry several.");
    static constexpr double kQuantiles[] = {0.5, 0.9, 0.99, 0.999};
    for (qsizetype i = 0; i < streams.size(); ++i) {
        const QVector<EventTypeFigures> &types = streams[i].freshness.byEvent;
        const QStringList events = eventTypeLabels(types);
        for (qsizetype k = 0; k < types.size(); ++k) {
            const EventTypeFigures &e = types[k];
            const QByteArray labels = "stream=\"" + names[i] + "\",event=\"" + labelValue(events[k]) + '"';
            const LatencySnapshot &l = e.latency;
            for (const double q : kQuantiles)
                out += "streamscope_event_latency_seconds{" + labels + ",quantile=\"" + QByteArray::number(q) + "\"} "
                    + (l.count ? QByteArray::number(l.percentileUs(q) / 1e6, 'g', 9) : QByteArrayLiteral("NaN")) + '\n';
            out += "streamscope_event_latency_seconds_sum{" + labels + "} "
                + QByteArray::number(double(l.sumUs) / 1e6, 'g', 12) + '\n';
            out += "streamscope_event_latency_seconds_count{" + labels + "} " + QByteArray::number(l.count) + '\n';
        }
    }
    family("streamscope_event_period_seconds", "gauge", "A periodic event type's measured period.");
    for (qsizetype i = 0; i < streams.size(); ++i) {
        const QVector<EventTypeFigures> &types = streams[i].freshness.byEvent;
        const QStringList events = eventTypeLabels(types);
        for (qsizetype k = 0; k < types.size(); ++k)
            if (types[k].periodMs >= 0)
                out += "streamscope_event_period_seconds{stream=\"" + names[i] + "\",event=\"" + labelValue(events[k])
                    + "\"} " + QByteArray::number(types[k].periodMs / 1000.0, 'g', 9) + '\n';
    }
}

} // namespace streamscope::app
