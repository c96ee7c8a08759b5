#include "TargetTable.h"

#include "BenchFormat.h"

#include <algorithm>

namespace streamscope::bench {

void TargetTable::check(const QString &what, double value, double limit, bool atLeast, const QJsonObject &spread)
{
    const bool met = atLeast ? value >= limit : value <= limit;
    QString measured = num(value, 3);
    if (!spread.isEmpty())
        measured += QStringLiteral(" [%1–%2]")
                        .arg(num(spread.value(QStringLiteral("min")).toDouble(), 3),
                             num(spread.value(QStringLiteral("max")).toDouble(), 3));
    m_rows << QStringLiteral("| %1 | %2 | %3 %4 | %5 |")
                  .arg(what, measured, (atLeast ? QStringLiteral("≥") : QStringLiteral("≤")), num(limit, 3),
                       (met ? QStringLiteral("met") : QStringLiteral("**missed**")));
    QJsonObject t{{QStringLiteral("target"), what},
                  {QStringLiteral("value"), value},
                  {QStringLiteral("limit"), limit},
                  {QStringLiteral("met"), met}};
    if (!spread.isEmpty()) {
        t[QStringLiteral("min")] = spread.value(QStringLiteral("min"));
        t[QStringLiteral("max")] = spread.value(QStringLiteral("max"));
    }
    m_json.append(t);
}

QString TargetTable::markdown() const
{
    if (m_rows.isEmpty())
        return QString();
    return QStringLiteral(
               "## Targets (issues 4, 15 and 28)\n\n| target | measured [min–max] | limit | |\n|---|---|---|---|\n")
        + m_rows.join(QLatin1Char('\n')) + QStringLiteral("\n");
}

TargetTable TargetTable::of(const QJsonObject &root)
{
    TargetTable t;
    for (const QJsonValue &v : root.value(QStringLiteral("scenarios")).toArray()) {
        const QJsonObject s = v.toObject();
        const QString name = s.value(QStringLiteral("name")).toString();
        const QJsonObject r = s.value(QStringLiteral("ratios")).toObject();
        const QJsonObject spreads = s.value(QStringLiteral("ratio_spread")).toObject();
        auto ratioCheck = [&](const QString &ratio, double limit) {
            if (spreads.value(ratio).toObject().value(QStringLiteral("n")).toInt() > 0)
                t.check(name + QLatin1Char(' ') + ratio, r.value(ratio).toDouble(), limit, true,
                        spreads.value(ratio).toObject());
        };
        if (name == QLatin1String("small_aggtrade") || name == QLatin1String("multiplex_mix")) {
            ratioCheck(QStringLiteral("engine-raw/qws"), 0.85);
            ratioCheck(QStringLiteral("engine-parsed/qws"), 0.6);
        } else if (name == QLatin1String("xlarge_depth_diff") || name == QLatin1String("huge_ticker_arr")) {
            ratioCheck(QStringLiteral("engine-raw/wire"), 0.9);
            ratioCheck(QStringLiteral("engine-parsed/wire"), 0.7);
        } else if (name == kLineScenario) {
            ratioCheck(QStringLiteral("engine-parsed/wire"), 0.5);
        } else if (name == QLatin1String("small_aggtrade_wss")) {
            ratioCheck(QStringLiteral("engine-parsed/qws"), 0.75);
        } else if (name == QLatin1String("xlarge_depth_diff_wss")) {
            ratioCheck(QStringLiteral("engine-parsed/qws"), 0.9);
        }
        ratioCheck(QStringLiteral("app/engine-parsed"), 0.95);
    }
    if (root.contains(QStringLiteral("stop_ms"))) {
        const QJsonObject stop = root.value(QStringLiteral("stop_ms")).toObject();
        t.check(QStringLiteral("stop p99 idle (ms)"),
                stop.value(QStringLiteral("idle")).toObject().value(QStringLiteral("p99")).toDouble(), 5, false);
        t.check(QStringLiteral("stop p99 firehose (ms)"),
                stop.value(QStringLiteral("firehose")).toObject().value(QStringLiteral("p99")).toDouble(), 5, false);
        t.check(
            QStringLiteral("restart → first message p99 (ms)"),
            root.value(QStringLiteral("restart_first_message_ms")).toObject().value(QStringLiteral("p99")).toDouble(),
            50, false);
    }
    if (root.contains(QStringLiteral("stop_ms_native"))) {
        const QJsonObject stop = root.value(QStringLiteral("stop_ms_native")).toObject();
        t.check(QStringLiteral("native: stop p99 firehose (ms)"),
                stop.value(QStringLiteral("firehose")).toObject().value(QStringLiteral("p99")).toDouble(), 5, false);
    }
    if (root.contains(QStringLiteral("latency_us"))) {
        double worst = 0;
        for (const QJsonValue &v : root.value(QStringLiteral("latency_us")).toArray()) {
            const QJsonObject row = v.toObject();
            if (row.value(QStringLiteral("size_bytes")).toDouble() <= 65536)
                worst = std::max(worst, row.value(QStringLiteral("p99_added_us")).toDouble());
        }
        t.check(QStringLiteral("latency: engine-parsed p99 − wire p99, worst size ≤ 64 KB (µs)"), worst, 50, false);
        // Issue 28: the native client at 64 KB.
        for (const QJsonValue &v : root.value(QStringLiteral("latency_us")).toArray()) {
            const QJsonObject row = v.toObject();
            if (row.value(QStringLiteral("size_bytes")).toDouble() == 65536
                && row.contains(QStringLiteral("p99_added_us_native")))
                t.check(QStringLiteral("latency: engine-parsed-native p99 − wire p99 at 64 KB (µs)"),
                        row.value(QStringLiteral("p99_added_us_native")).toDouble(), 20, false);
        }
    }
    // Scale (issue 28): at 1,000 streams the native transport's CPU; at 3,000 both clients' CPU,
    // poll lag and RSS a stream.
    for (const QJsonValue &v :
         root.value(QStringLiteral("scale")).toObject().value(QStringLiteral("points")).toArray()) {
        const QJsonObject point = v.toObject();
        const int streams = point.value(QStringLiteral("streams")).toInt();
        const QString at = QStringLiteral("scale %1 streams").arg(streams);
        if (streams == 1000)
            t.check(at + QStringLiteral(", native: CPU (% of one core)"),
                    point.value(QStringLiteral("native")).toObject().value(QStringLiteral("cpu_percent")).toDouble(),
                    45, false);
        if (streams != 3000)
            continue;
        for (const QString &client : {QStringLiteral("engine"), QStringLiteral("native")}) {
            const QJsonObject o = point.value(client).toObject();
            const QString who = at + QStringLiteral(", ") + client;
            t.check(who + QStringLiteral(": CPU (% of one core)"), o.value(QStringLiteral("cpu_percent")).toDouble(),
                    60, false);
            t.check(who + QStringLiteral(": poll lag p99 (ms)"), o.value(QStringLiteral("gui_lag_p99_ms")).toDouble(),
                    16, false);
            t.check(who + QStringLiteral(": RSS a stream (KB)"),
                    o.value(QStringLiteral("rss_per_stream_kb")).toDouble(), 40, false);
        }
    }
    if (root.contains(QStringLiteral("soak"))) {
        const QJsonObject s = root.value(QStringLiteral("soak")).toObject();
        t.check(QStringLiteral("soak RSS growth after the first minute (%)"),
                s.value(QStringLiteral("rss_growth_percent")).toDouble(), 5, false);
        t.check(QStringLiteral("soak lost messages"),
                s.value(QStringLiteral("sent")).toDouble() - s.value(QStringLiteral("received")).toDouble(), 0, false);
    }
    return t;
}

} // namespace streamscope::bench
