// BenchDriver's latency and stop runs (BenchDriver.h): paced latency per message size
// against a sender process, wire beside the engine clients; and stop/restart timings, the
// native client's and the old build's beside the Qt client's.

#include "BenchDriver.h"

#include "BenchFormat.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

#include <algorithm>

namespace streamscope::bench {

void BenchDriver::runLatency()
{
    // wire and engine-parsed (QtWebSockets); engine-parsed-native beside them when a native
    // client was asked for. "p99 added": the client's p99 − wire's, per repeat.
    QStringList clients{QStringLiteral("wire"), QStringLiteral("engine-parsed")};
    if (nativeAsked())
        clients << QStringLiteral("engine-parsed-native");
    const QString kNativeParsed = QStringLiteral("engine-parsed-native");
    QJsonArray rows;
    m_markdown +=
        QStringLiteral("## Latency (receive − send stamp, µs; paced; medians of %1 repeats)\n\n").arg(m_options.repeat);
    m_markdown += QStringLiteral(
        "| size B | rate/s | wire p50 | wire p99 | wire p99.9 | parsed p50 | parsed p99 | parsed p99.9 | p99 added |");
    if (clients.contains(kNativeParsed))
        m_markdown += QStringLiteral(" native p50 | native p99 | native p99.9 | native p99 added |");
    m_markdown += QStringLiteral("\n|---|---|---|---|---|---|---|---|---|");
    if (clients.contains(kNativeParsed))
        m_markdown += QStringLiteral("---|---|---|---|");
    m_markdown += QLatin1Char('\n');
    for (const quint64 size : std::as_const(m_options.latencySizes)) {
        // At most 1 GB/s: 512 KB messages cannot go at 10k/s through anything on this machine.
        const double r = std::min(m_options.latencyRate, 1e9 / double(size));
        const quint64 count = quint64(r * m_options.latencySeconds);
        QJsonObject row{{QStringLiteral("size_bytes"), double(size)},
                        {QStringLiteral("rate"), r},
                        {QStringLiteral("count"), double(count)}};
        // Each repeat runs the clients next to each other (in turn first); every figure is the
        // median over repeats, and "p99 added" the median of each repeat's own difference.
        QHash<QString, QHash<QString, std::vector<double>>> figures; // client → figure → per repeat
        QHash<QString, std::vector<double>> added;                   // client → per repeat
        for (int rep = 0; rep < m_options.repeat; ++rep) {
            QHash<QString, double> p99;
            for (int k = 0; k < clients.size(); ++k) {
                const QString &client = clients.at((k + rep) % clients.size());
                Server sender = startProcess(m_clientPath,
                                             {QStringLiteral("--client"), QStringLiteral("sender"),
                                              QStringLiteral("--size"), QString::number(size), QStringLiteral("--rate"),
                                              QString::number(r), QStringLiteral("--count"), QString::number(count)});
                const QJsonObject o =
                    runClient({QStringLiteral("--client"), client, QStringLiteral("--url"),
                               QStringLiteral("ws://127.0.0.1:%1/latency").arg(sender.port), QStringLiteral("--count"),
                               QString::number(count), QStringLiteral("--stamped")},
                              m_options.latencySeconds + 60);
                sender.process->waitForFinished(5000);
                stopServer(sender);
                const QJsonObject l = o.value(QStringLiteral("latency_us")).toObject();
                if (l.value(QStringLiteral("count")).toDouble() <= 0) {
                    ++m_failures;
                    log() << "  latency: no latency from " << client << " at " << size << " B" << Qt::endl;
                }
                for (const QString &key : {QStringLiteral("p50"), QStringLiteral("p99"), QStringLiteral("p999")})
                    figures[client][key].push_back(l.value(key).toDouble());
                figures[client][QStringLiteral("cpu_us_per_msg")].push_back(
                    o.value(QStringLiteral("cpu_us_per_msg")).toDouble());
                p99[client] = l.value(QStringLiteral("p99")).toDouble();
            }
            for (const QString &client : clients.mid(1))
                added[client].push_back(p99.value(client) - p99.value(clients.at(0)));
        }
        for (const QString &client : std::as_const(clients)) {
            QJsonObject l;
            for (auto it = figures[client].cbegin(); it != figures[client].cend(); ++it)
                l[it.key()] = median(it.value());
            row[client] = l;
        }
        const QJsonObject w = row.value(QStringLiteral("wire")).toObject();
        const QJsonObject e = row.value(QStringLiteral("engine-parsed")).toObject();
        row[QStringLiteral("p99_added_us")] = median(added.value(QStringLiteral("engine-parsed")));
        auto cells = [](const QJsonObject &l) {
            return QStringLiteral(" %1 | %2 | %3 |")
                .arg(l.value(QStringLiteral("p50")).toDouble())
                .arg(l.value(QStringLiteral("p99")).toDouble())
                .arg(l.value(QStringLiteral("p999")).toDouble());
        };
        m_markdown += QStringLiteral("| %1 | %2 |").arg(size).arg(r, 0, 'f', 0) + cells(w) + cells(e)
            + QStringLiteral(" %1 |").arg(row.value(QStringLiteral("p99_added_us")).toDouble());
        log() << "latency " << size << " B: wire p99 " << w.value(QStringLiteral("p99")).toDouble()
              << " us, engine-parsed p99 " << e.value(QStringLiteral("p99")).toDouble() << " us";
        if (clients.contains(kNativeParsed)) {
            const QJsonObject n = row.value(kNativeParsed).toObject();
            row[QStringLiteral("p99_added_us_native")] = median(added.value(kNativeParsed));
            m_markdown +=
                cells(n) + QStringLiteral(" %1 |").arg(row.value(QStringLiteral("p99_added_us_native")).toDouble());
            log() << ", engine-parsed-native p99 " << n.value(QStringLiteral("p99")).toDouble() << " us";
        }
        log() << Qt::endl;
        m_markdown += QLatin1Char('\n');
        rows.append(row);
    }
    m_markdown +=
        QStringLiteral("\nSource: a paced one-connection sender (`streamscope-bench-client --client sender`), "
                       "message `{\"ts\":<ns>,\"p\":\"x…\"}` of exactly the size shown (26 B is the smallest that "
                       "carries a 19-digit ns stamp); both sides bucketed by the engine's LatencyHistogram. parsed: "
                       "engine-parsed (QtWebSockets); native: engine-parsed-native.\n\n");
    m_root[QStringLiteral("latency_us")] = rows;
}

void BenchDriver::runStop()
{
    // The Qt engine client (`stop`), the native one (`stop-native`) when a native client was
    // asked for, and the old build's right after the new one's, all against the same server.
    const QStringList args{
        QStringLiteral("--url-idle"),     scenarioUrl(QStringLiteral("small_aggtrade"), 0, QStringLiteral("idle=1")),
        QStringLiteral("--url-firehose"), scenarioUrl(QStringLiteral("small_aggtrade"), 0, QStringLiteral("loop=1")),
        QStringLiteral("--iterations"),   QString::number(m_options.stopIterations)};
    auto stopArgs = [&](const QString &client) { return QStringList{QStringLiteral("--client"), client} + args; };
    // A stop that failed, measured nothing or counted a message after Stopped fails the run.
    auto check = [&](const QJsonObject &result, const QString &label, bool countFailure) {
        for (const QString &kind : {QStringLiteral("idle"), QStringLiteral("firehose")}) {
            const QJsonObject k = result.value(kind).toObject();
            const bool complete =
                k.value(QStringLiteral("n")).toInt() > 0 && k.value(QStringLiteral("failures")).toInt() == 0;
            // An old build may not report counted_after_stop: absent reads as 0.
            const bool exact = k.value(QStringLiteral("counted_after_stop")).toDouble() == 0;
            if (complete && exact)
                continue;
            m_failures += countFailure;
            log() << "  stop" << label << ", " << kind << ": "
                  << (complete ? QStringLiteral("messages counted after Stopped") : QStringLiteral("incomplete"))
                  << Qt::endl;
        }
    };
    auto rows = [](const QJsonObject &result, const QString &label) {
        auto row = [&](const QString &what, const QJsonObject &k, bool stop) {
            const QString figures = QStringLiteral("| %1%2 | %3 | %4 |")
                                        .arg(what, label, num(k.value(QStringLiteral("p50")).toDouble(), 3),
                                             num(k.value(QStringLiteral("p99")).toDouble(), 3));
            if (!stop)
                return figures + QStringLiteral(" | |\n");
            return figures
                + QStringLiteral(" %1 | %2 |\n")
                      .arg(num(k.value(QStringLiteral("max")).toDouble(), 3),
                           QString::number(k.value(QStringLiteral("counted_after_stop")).toDouble(), 'f', 0));
        };
        return row(QStringLiteral("stop → Stopped, idle"), result.value(QStringLiteral("idle")).toObject(), true)
            + row(QStringLiteral("stop → Stopped, firehose"), result.value(QStringLiteral("firehose")).toObject(), true)
            + row(QStringLiteral("restart → first message"),
                  result.value(QStringLiteral("restart_first_message_ms")).toObject(), false);
    };
    auto stopJson = [](const QJsonObject &result) {
        return QJsonObject{{QStringLiteral("idle"), result.value(QStringLiteral("idle"))},
                           {QStringLiteral("firehose"), result.value(QStringLiteral("firehose"))}};
    };
    const bool compare = !m_options.oldClientPath.isEmpty();
    const bool native = nativeAsked();
    m_markdown += QStringLiteral("## Stop and restart (%1 each, ms)\n\n| | p50 | p99 | max | counted after Stopped "
                                 "|\n|---|---|---|---|---|\n")
                      .arg(m_options.stopIterations);

    const QJsonObject o = runClient(stopArgs(QStringLiteral("stop")), m_options.timeoutS);
    check(o, native ? QStringLiteral(" (Qt)") : QString(), true);
    m_root[QStringLiteral("stop_ms")] = stopJson(o);
    m_root[QStringLiteral("restart_first_message_ms")] = o.value(QStringLiteral("restart_first_message_ms"));
    m_markdown += rows(o, compare ? QStringLiteral(" (new)") : native ? QStringLiteral(" (Qt)") : QString());
    log() << "stop: " << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
    if (native) {
        const QJsonObject n = runClient(stopArgs(QStringLiteral("stop-native")), m_options.timeoutS);
        check(n, QStringLiteral(" (native)"), true);
        m_root[QStringLiteral("stop_ms_native")] = stopJson(n);
        m_root[QStringLiteral("restart_first_message_ms_native")] = n.value(QStringLiteral("restart_first_message_ms"));
        m_markdown += rows(n, compare ? QStringLiteral(" (new, native)") : QStringLiteral(" (native)"));
        log() << "stop (native): " << QJsonDocument(n).toJson(QJsonDocument::Compact) << Qt::endl;
    }
    if (compare) {
        const QJsonObject old =
            runProgram(m_options.oldClientPath,
                       stopArgs(QStringLiteral("stop"))
                           + QStringList{QStringLiteral("--timeout"), QString::number(m_options.timeoutS)},
                       m_options.timeoutS, false);
        check(old, QStringLiteral(" (old)"), false);
        m_root[QStringLiteral("stop_ms_old")] = stopJson(old);
        m_root[QStringLiteral("restart_first_message_ms_old")] = old.value(QStringLiteral("restart_first_message_ms"));
        m_markdown += rows(old, QStringLiteral(" (old)"));
        log() << "stop (old build): " << QJsonDocument(old).toJson(QJsonDocument::Compact) << Qt::endl;
    }
    m_markdown += QStringLiteral("\ncounted after Stopped: messages the stream counted once it had reported Stopped "
                                 "(0: the counts are exact across the stop).\n\n");
}

} // namespace streamscope::bench
