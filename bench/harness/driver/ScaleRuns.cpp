#include "ScaleRuns.h"

#include "BenchFormat.h"

#include <QtCore/QJsonArray>

#include <cmath>

namespace streamscope::bench {

namespace {

// Seconds a connection's messages last beyond the measured window: the ramp until every
// stream has data and its 2 s settling: 45 s, and a second more per 100 streams (10,000
// streams took about two minutes to connect on a busy 2-core machine).
double rampAllowanceS(int streams)
{
    return 45.0 + streams / 100.0;
}

// One table row: a client at one point of the curve.
QString row(const QString &point, const QString &client, const QJsonObject &o)
{
    if (o.isEmpty())
        return QStringLiteral("| %1 | %2 | failed | | | | | | |\n").arg(point, client);
    const bool engine = o.contains(QStringLiteral("gui_lag_p99_ms"));
    const QString lag = engine ? QStringLiteral("%1 / %2 / %3")
                                     .arg(num(o.value(QStringLiteral("gui_lag_p50_ms")).toDouble(), 2),
                                          num(o.value(QStringLiteral("gui_lag_p99_ms")).toDouble(), 2),
                                          num(o.value(QStringLiteral("gui_lag_max_ms")).toDouble(), 1))
                               : QString();
    const QString rows = engine ? QStringLiteral("%1 of %2")
                                      .arg(num(o.value(QStringLiteral("poll_rows_read_per_poll")).toDouble(), 0),
                                           num(o.value(QStringLiteral("poll_rows_read_per_poll")).toDouble()
                                                   + o.value(QStringLiteral("poll_rows_unchanged_per_poll")).toDouble(),
                                               0))
                                : QString();
    const QString exact = !o.contains(QStringLiteral("counts_exact")) ? QString()
        : o.value(QStringLiteral("counts_exact")).toBool()
        ? QStringLiteral("yes")
        : QStringLiteral("**no** (%1 of %2)")
              .arg(num(o.value(QStringLiteral("received")).toDouble(), 0),
                   num(o.value(QStringLiteral("expected")).toDouble(), 0));
    const QString perStream = engine ? num(o.value(QStringLiteral("rss_per_stream_kb")).toDouble(), 1) : QString();
    return QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 |\n")
        .arg(point, client, num(o.value(QStringLiteral("msgs_per_s")).toDouble(), 0),
             num(o.value(QStringLiteral("cpu_percent")).toDouble(), 1),
             num(o.value(QStringLiteral("rss_mb")).toDouble(), 1), perStream, lag, rows, exact);
}

} // namespace

ScaleRunResult runScaleCurve(const ScaleRunOptions &options,
                             const std::function<QJsonObject(const QStringList &, double)> &runClient,
                             const std::function<QString(const QString &, const QString &)> &scenarioUrl)
{
    ScaleRunResult result;
    QJsonArray points;
    result.markdown = QStringLiteral("## Scale (%1 msgs/s in total, %2 s a run)\n\n"
                                     "| streams × msgs/s | client | received msgs/s | CPU % of one core | RSS MB | "
                                     "RSS KB a stream | poll lag p50 / p99 / max ms | rows read a poll | "
                                     "counts exact |\n|---|---|---|---|---|---|---|---|---|\n")
                          .arg(num(options.totalRate, 0), num(options.seconds, 0));
    for (const int streams : options.streams) {
        if (streams <= 0)
            continue;
        const double rate = options.totalRate / streams;
        // Each connection carries a fixed count, so that the engine clients can check that
        // every message arrived, once.
        const auto count = quint64(std::ceil(rate * (options.seconds + rampAllowanceS(streams))));
        const QStringList args{
            QStringLiteral("--url"),
            scenarioUrl(QStringLiteral("small_aggtrade"), QStringLiteral("count=%1&rate=%2").arg(count).arg(rate)),
            QStringLiteral("--streams"),
            QString::number(streams),
            QStringLiteral("--seconds"),
            QString::number(options.seconds)};
        // The client waits for the ramp and for the counts as long as they move (at most 10
        // minutes each).
        const double timeoutS = options.seconds + 1260;
        QJsonObject point{{QStringLiteral("streams"), streams}, {QStringLiteral("rate"), rate}};
        const QJsonObject engine = runClient(QStringList{QStringLiteral("--client"), QStringLiteral("scale"),
                                                         QStringLiteral("--count"), QString::number(count)}
                                                 + args,
                                             timeoutS);
        const QJsonObject native = runClient(QStringList{QStringLiteral("--client"), QStringLiteral("scale-native"),
                                                         QStringLiteral("--count"), QString::number(count)}
                                                 + args,
                                             timeoutS);
        const QJsonObject qws =
            runClient(QStringList{QStringLiteral("--client"), QStringLiteral("scale-qws")} + args, timeoutS);
        point[QStringLiteral("engine")] = engine;
        point[QStringLiteral("native")] = native;
        point[QStringLiteral("qws")] = qws;
        points.append(point);
        const QString at = QStringLiteral("%1 × %2").arg(streams).arg(num(rate, rate < 100 ? 1 : 0));
        result.markdown += row(at, QStringLiteral("engine (QtWebSockets)"), engine)
            + row(at, QStringLiteral("engine (native)"), native) + row(at, QStringLiteral("bare QWebSockets"), qws);
    }
    result.markdown += QStringLiteral(
        "\nRSS KB a stream: (RSS − the engine's RSS before its first stream) ÷ streams. Poll lag: the lateness of a "
        "10 ms timer on the thread that polls the streams that changed at 10 Hz, every tenth with latency, as the "
        "window does. Counts exact: every connection's messages arrived, once, with no reconnect.\n\n");
    result.json[QStringLiteral("total_rate")] = options.totalRate;
    result.json[QStringLiteral("seconds")] = options.seconds;
    result.json[QStringLiteral("points")] = points;
    return result;
}

} // namespace streamscope::bench
