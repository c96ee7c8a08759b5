#include "ClockReport.h"

#include "MetricsText.h"
#include "ReportNumbers.h"

#include <QtCore/QJsonValue>

#include <cmath>

namespace streamscope::app {

namespace {

QJsonValue optionalMs(const std::optional<double> &v)
{
    return v ? QJsonValue(round3(*v)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject latencyObject(const LatencySnapshot &l)
{
    const auto ms = [&l](double q) { return round3(l.percentileUs(q) / 1000.0); };
    return QJsonObject{{QStringLiteral("count"), qint64(l.count)},
                       {QStringLiteral("p50"), ms(0.5)},
                       {QStringLiteral("p90"), ms(0.9)},
                       {QStringLiteral("p99"), ms(0.99)},
                       {QStringLiteral("p999"), ms(0.999)},
                       {QStringLiteral("max"), round3(double(l.maxUs) / 1000.0)},
                       {QStringLiteral("mean"), round3(l.meanUs() / 1000.0)},
                       {QStringLiteral("negative"), qint64(l.negative)},
                       {QStringLiteral("invalid"), qint64(l.invalid)}};
}

QJsonObject hostClockObject(const HostClockState &state)
{
    return QJsonObject{{QStringLiteral("synchronised"),
                        state.synchronised ? QJsonValue(*state.synchronised) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("estimated_error_ms"), optionalMs(state.estimatedErrorMs)},
                       {QStringLiteral("maximum_error_ms"), optionalMs(state.maximumErrorMs)}};
}

void addClockFields(QJsonObject &o, const StreamSnapshot &s)
{
    const ClockEstimate &c = s.clock;
    const bool known = c.source != ClockOffsetSource::Unknown;
    const QJsonValue null(QJsonValue::Null);
    o.insert(QStringLiteral("clock_offset_ms"), known ? QJsonValue(round3(c.offsetMs)) : null);
    o.insert(QStringLiteral("clock_offset_uncertainty_ms"),
             known && c.uncertaintyMs >= 0 ? QJsonValue(round3(c.uncertaintyMs)) : null);
    const char *source = clockOffsetSourceName(c.source);
    o.insert(QStringLiteral("clock_offset_source"), source ? QJsonValue(QLatin1String(source)) : null);
    o.insert(QStringLiteral("latency_corrected_ms"), latencyObject(s.latencyCorrected));
    o.insert(QStringLiteral("latency_floor_ms"), c.hasFloor ? QJsonValue(round3(c.latencyFloorMs)) : null);
    if (!c.serverTimeUrl.isEmpty()) {
        QJsonObject serverTime{{QStringLiteral("url"), c.serverTimeUrl.toString()},
                               {QStringLiteral("samples"), qint64(c.serverTimeSamples)},
                               {QStringLiteral("errors"), qint64(c.serverTimeErrors)}};
        if (!c.serverTimeError.isEmpty())
            serverTime.insert(QStringLiteral("last_error"), c.serverTimeError);
        o.insert(QStringLiteral("server_time"), serverTime);
    }
    if (!c.note.isEmpty())
        o.insert(QStringLiteral("clock_note"), c.note);
}

void appendClockMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                        const HostClockState &host, bool classic)
{
    const auto family = [&out](const QByteArray &name, const char *type, const char *help) {
        appendFamily(out, name, type, help);
    };
    family("streamscope_host_clock_synchronised", "gauge",
           "1 if the kernel considers this machine's clock synchronised, 0 if not, NaN if unknown.");
    out += "streamscope_host_clock_synchronised "
        + (host.synchronised ? QByteArray(*host.synchronised ? "1" : "0") : QByteArrayLiteral("NaN")) + '\n';
    family("streamscope_host_clock_estimated_error_seconds", "gauge",
           "The kernel's estimated error of this machine's clock (NaN if unknown).");
    out += "streamscope_host_clock_estimated_error_seconds "
        + metricNumber(host.estimatedErrorMs ? *host.estimatedErrorMs / 1000.0 : qQNaN()) + '\n';
    family("streamscope_host_clock_maximum_error_seconds", "gauge",
           "The kernel's maximum error of this machine's clock (NaN if unknown).");
    out += "streamscope_host_clock_maximum_error_seconds "
        + metricNumber(host.maximumErrorMs ? *host.maximumErrorMs / 1000.0 : qQNaN()) + '\n';

    const auto perStream = [&](const char *name, const char *help, auto value) {
        appendStreamGauge(out, streams, names, name, help, [&](const StreamSnapshot &st) { return value(st.clock); });
    };
    perStream("clock_offset_seconds", "Venue clock minus local clock, as estimated (docs/clock.md).",
              [](const ClockEstimate &c) {
                  return c.source != ClockOffsetSource::Unknown ? std::optional<double>(c.offsetMs / 1000.0)
                                                                : std::nullopt;
              });
    perStream("clock_offset_uncertainty_seconds", "Half-width of the clock offset's interval (server time only).",
              [](const ClockEstimate &c) {
                  return c.source != ClockOffsetSource::Unknown && c.uncertaintyMs >= 0
                      ? std::optional<double>(c.uncertaintyMs / 1000.0)
                      : std::nullopt;
              });
    perStream("latency_floor_seconds", "Smallest raw latency over the last minute (offset plus the smallest delay).",
              [](const ClockEstimate &c) {
                  return c.hasFloor ? std::optional<double>(c.latencyFloorMs / 1000.0) : std::nullopt;
              });
    family("streamscope_clock_offset_source", "gauge",
           "Where the clock offset comes from: 1 on the current source (server_time, latency_floor or none).");
    for (qsizetype i = 0; i < streams.size(); ++i) {
        const char *source = clockOffsetSourceName(streams[i].clock.source);
        out += "streamscope_clock_offset_source{stream=\"" + names[i] + "\",source=\""
            + QByteArray(source ? source : "none") + "\"} 1\n";
    }
    const auto counter = [&](const char *name, const char *help, quint64 ClockEstimate::*field) {
        const QByteArray sample = QByteArrayLiteral("streamscope_") + name + "_total";
        family(classic ? sample : QByteArrayLiteral("streamscope_") + name, "counter", help);
        for (qsizetype i = 0; i < streams.size(); ++i)
            out += sample + "{stream=\"" + names[i] + "\"} " + QByteArray::number(streams[i].clock.*field) + '\n';
    };
    counter("server_time_samples", "Server-time answers used for the clock offset.", &ClockEstimate::serverTimeSamples);
    counter("server_time_errors", "Server-time requests that failed, timed out or got an unreadable answer.",
            &ClockEstimate::serverTimeErrors);
}

} // namespace streamscope::app
