#include "BenchDriver.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QHash>
#include <QtCore/QJsonDocument>
#include <QtCore/QMap>
#include <QtCore/QTextStream>

#include <algorithm>
#include <cmath>

namespace streamscope::bench {

namespace {

const QString kLineScenario = QStringLiteral("betfair_mcm");

QTextStream &log()
{
    static QTextStream s(stderr);
    return s;
}

quint64 defaultCount(const QString &scenario)
{
    static const QMap<QString, quint64> counts{
        {QStringLiteral("small_aggtrade"), 300000}, {QStringLiteral("medium_kline"), 150000},
        {QStringLiteral("large_depth20"), 60000},   {QStringLiteral("xlarge_depth_diff"), 30000},
        {QStringLiteral("huge_ticker_arr"), 600},   {QStringLiteral("multiplex_mix"), 120000},
        {QStringLiteral("betfair_mcm"), 200000}};
    return counts.value(scenario, 100000);
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

QString rate(double msgsPerS)
{
    if (msgsPerS >= 1e6)
        return QString::number(msgsPerS / 1e6, 'f', 2) + QStringLiteral("M");
    if (msgsPerS >= 1e3)
        return QString::number(msgsPerS / 1e3, 'f', 1) + QStringLiteral("k");
    return QString::number(msgsPerS, 'f', 0);
}

QString num(double v, int decimals = 2)
{
    return QString::number(v, 'f', decimals);
}

} // namespace

BenchDriver::BenchDriver(BenchOptions options)
    : m_options(std::move(options))
{
    const QDir dir(m_options.binDir.isEmpty() ? QCoreApplication::applicationDirPath() : m_options.binDir);
#ifdef Q_OS_WIN
    const QString suffix = QStringLiteral(".exe");
#else
    const QString suffix;
#endif
    m_clientPath = dir.filePath(QStringLiteral("streamscope-bench-client") + suffix);
    // The replay server is built in bench/replay, beside bench/harness; a multi-config
    // generator (Visual Studio) puts each in a folder per configuration: replay/Release/.
    const QString replay = QStringLiteral("streamscope-replay") + suffix;
    for (const QString &candidate : {dir.filePath(replay), dir.filePath(QStringLiteral("../replay/") + replay),
                                     dir.filePath(QStringLiteral("../../replay/%1/").arg(dir.dirName()) + replay)}) {
        if (QFile::exists(candidate)) {
            m_replayPath = QDir::cleanPath(candidate);
            break;
        }
    }
}

BenchDriver::~BenchDriver()
{
    stopServer(m_ws);
}

BenchDriver::Server BenchDriver::startProcess(const QString &program, const QStringList &args)
{
    Server s;
    s.process = std::make_unique<QProcess>();
    s.process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    s.process->start(program, args);
    if (!s.process->waitForStarted(10000)) {
        log() << "streamscope-bench: cannot start " << program << ": " << s.process->errorString() << Qt::endl;
        return s;
    }
    QByteArray line;
    while (!line.contains('\n') && s.process->waitForReadyRead(10000))
        line += s.process->readLine();
    if (line.startsWith("port "))
        s.port = quint16(line.mid(5).trimmed().toUInt());
    if (!s.port)
        log() << "streamscope-bench: " << program << " printed no port: " << line << Qt::endl;
    return s;
}

void BenchDriver::stopServer(Server &server)
{
    if (!server.process)
        return;
    server.process->terminate();
    if (!server.process->waitForFinished(5000)) {
        server.process->kill();
        server.process->waitForFinished(2000);
    }
    server.process.reset();
    server.port = 0;
}

QJsonObject BenchDriver::runClient(const QStringList &args, double timeoutS)
{
    QProcess p;
    p.start(m_clientPath, args + QStringList{QStringLiteral("--timeout"), QString::number(timeoutS)});
    if (!p.waitForStarted(10000) || !p.waitForFinished(int((timeoutS + 30) * 1000))) {
        p.kill();
        p.waitForFinished(2000);
        ++m_failures;
        log() << "  client did not finish: " << args.join(QLatin1Char(' ')) << Qt::endl;
        return {};
    }
    const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        if (it->startsWith('{')) {
            const QJsonObject o = QJsonDocument::fromJson(*it).object();
            if (o.contains(QStringLiteral("ok")) && !o.value(QStringLiteral("ok")).toBool()) {
                ++m_failures;
                log() << "  incomplete: " << *it << Qt::endl;
            }
            return o;
        }
    }
    ++m_failures;
    log() << "  no result from: " << args.join(QLatin1Char(' ')) << "\n"
          << p.readAllStandardError().right(2000) << Qt::endl;
    return {};
}

QString BenchDriver::scenarioUrl(const QString &scenario, quint64 count, const QString &query) const
{
    QString url = QStringLiteral("ws://127.0.0.1:%1/%2?count=%3").arg(m_ws.port).arg(scenario).arg(count);
    if (!query.isEmpty())
        url += QLatin1Char('&') + query;
    return url;
}

quint64 BenchDriver::countFor(const QString &scenario) const
{
    if (m_options.countOverride)
        return m_options.countOverride;
    return std::max<quint64>(10, quint64(std::llround(double(defaultCount(scenario)) * m_options.countScale)));
}

int BenchDriver::run()
{
    if (!QFile::exists(m_clientPath) || m_replayPath.isEmpty()) {
        log() << "streamscope-bench: needs streamscope-bench-client and streamscope-replay beside it" << Qt::endl;
        return 1;
    }
    m_ws = startProcess(m_replayPath,
                        {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"),
                         QStringLiteral("small_aggtrade")});
    if (!m_ws.port)
        return 1;
    m_root[QStringLiteral("generated")] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    m_root[QStringLiteral("command")] = QCoreApplication::arguments().join(QLatin1Char(' '));
    if (!m_options.scenarios.isEmpty())
        runThroughput();
    if (m_options.latency)
        runLatency();
    if (m_options.stop)
        runStop();
    if (m_options.scale)
        runScale();
    if (m_options.soak)
        runSoak();
    stopServer(m_ws);
    write();
    return m_failures ? 1 : 0;
}

void BenchDriver::runThroughput()
{
    // results[scenario][client] = one JSON object per repeat
    QMap<QString, QMap<QString, QList<QJsonObject>>> results;
    Server line;
    if (m_options.scenarios.contains(kLineScenario)) {
        line = startProcess(m_replayPath,
                            {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"), kLineScenario,
                             QStringLiteral("--protocol"), QStringLiteral("line"), QStringLiteral("--tls"),
                             QStringLiteral("--count"), QString::number(countFor(kLineScenario))});
    }
    for (int rep = 0; rep < m_options.repeat; ++rep) {
        for (const QString &scenario : std::as_const(m_options.scenarios)) {
            const quint64 count = countFor(scenario);
            const QString url = scenario == kLineScenario ? QStringLiteral("tls://127.0.0.1:%1").arg(line.port)
                                                          : scenarioUrl(scenario, count);
            // Rotate the order every repeat so that no client always runs first.
            QStringList order = m_options.clients;
            for (int r = 0; r < rep % std::max<qsizetype>(1, order.size()); ++r)
                order.append(order.takeFirst());
            for (const QString &client : order) {
                const QJsonObject o = runClient({QStringLiteral("--client"), client, QStringLiteral("--url"), url,
                                                 QStringLiteral("--count"), QString::number(count)},
                                                m_options.timeoutS);
                log() << "repeat " << rep + 1 << " " << scenario << " " << client << ": "
                      << rate(o.value(QStringLiteral("msgs_per_s")).toDouble()) << " msgs/s, "
                      << num(o.value(QStringLiteral("cpu_us_per_msg")).toDouble(), 3) << " us/msg" << Qt::endl;
                results[scenario][client].append(o);
            }
        }
    }
    stopServer(line);

    m_markdown +=
        QStringLiteral("## Throughput (firehose; medians of %1 repeats; msgs/s, CPU µs/msg)\n\n").arg(m_options.repeat);
    m_markdown += QStringLiteral("| scenario | size B | count |");
    for (const QString &c : std::as_const(m_options.clients))
        m_markdown += QStringLiteral(" %1 |").arg(c);
    m_markdown += QStringLiteral(" raw/qws | parsed/qws | raw/wire | parsed/wire | app/parsed |\n|---|---|---|");
    for (qsizetype i = 0; i < m_options.clients.size() + 5; ++i)
        m_markdown += QStringLiteral("---|");
    m_markdown += QLatin1Char('\n');

    for (const QString &scenario : std::as_const(m_options.scenarios)) {
        const auto &byClient = results[scenario];
        QJsonObject clients;
        double sizeBytes = 0;
        for (const QString &c : std::as_const(m_options.clients)) {
            std::vector<double> rates, cpus;
            QJsonArray runs;
            for (const QJsonObject &o : byClient.value(c)) {
                rates.push_back(o.value(QStringLiteral("msgs_per_s")).toDouble());
                cpus.push_back(o.value(QStringLiteral("cpu_us_per_msg")).toDouble());
                runs.append(
                    QJsonArray{o.value(QStringLiteral("msgs_per_s")), o.value(QStringLiteral("cpu_us_per_msg"))});
                if (c == QLatin1String("wire") || c == QLatin1String("qws"))
                    sizeBytes = std::max(sizeBytes, o.value(QStringLiteral("size_bytes")).toDouble());
            }
            clients[c] = QJsonObject{{QStringLiteral("msgs_per_s"), median(rates)},
                                     {QStringLiteral("cpu_us_per_msg"), median(cpus)},
                                     {QStringLiteral("runs_msgs_per_s_cpu_us"), runs}};
        }
        // Ratios: the median over repeats of each repeat's own ratio (runs next to each other).
        auto ratio = [&](const QString &a, const QString &b) {
            std::vector<double> r;
            const auto &as = byClient.value(a);
            const auto &bs = byClient.value(b);
            for (qsizetype i = 0; i < std::min(as.size(), bs.size()); ++i) {
                const double den = bs[i].value(QStringLiteral("msgs_per_s")).toDouble();
                if (den > 0)
                    r.push_back(as[i].value(QStringLiteral("msgs_per_s")).toDouble() / den);
            }
            return median(r);
        };
        const QJsonObject ratios{
            {QStringLiteral("engine-raw/qws"), ratio(QStringLiteral("engine-raw"), QStringLiteral("qws"))},
            {QStringLiteral("engine-parsed/qws"), ratio(QStringLiteral("engine-parsed"), QStringLiteral("qws"))},
            {QStringLiteral("engine-raw/wire"), ratio(QStringLiteral("engine-raw"), QStringLiteral("wire"))},
            {QStringLiteral("engine-parsed/wire"), ratio(QStringLiteral("engine-parsed"), QStringLiteral("wire"))},
            {QStringLiteral("app/engine-parsed"), ratio(QStringLiteral("app"), QStringLiteral("engine-parsed"))}};
        m_scenarios.append(QJsonObject{{QStringLiteral("name"), scenario},
                                       {QStringLiteral("size_bytes"), sizeBytes},
                                       {QStringLiteral("count"), double(countFor(scenario))},
                                       {QStringLiteral("clients"), clients},
                                       {QStringLiteral("ratios"), ratios}});
        m_markdown +=
            QStringLiteral("| %1 | %2 | %3 |").arg(scenario).arg(sizeBytes, 0, 'f', 0).arg(countFor(scenario));
        for (const QString &c : std::as_const(m_options.clients)) {
            const QJsonObject o = clients.value(c).toObject();
            m_markdown += QStringLiteral(" %1 · %2 µs |")
                              .arg(rate(o.value(QStringLiteral("msgs_per_s")).toDouble()),
                                   num(o.value(QStringLiteral("cpu_us_per_msg")).toDouble(), 3));
        }
        for (const char *k :
             {"engine-raw/qws", "engine-parsed/qws", "engine-raw/wire", "engine-parsed/wire", "app/engine-parsed"})
            m_markdown += QStringLiteral(" %1 |").arg(num(ratios.value(QLatin1String(k)).toDouble()));
        m_markdown += QLatin1Char('\n');
    }
    m_markdown +=
        QStringLiteral("\nFor betfair_mcm (TLS lines) `qws` is QSslSocket::readLine() and `wire` a QSslSocket "
                       "reader that only splits lines: the transport library's limit and the physical one.\n\n");
    m_root[QStringLiteral("scenarios")] = m_scenarios;
}

void BenchDriver::runLatency()
{
    QJsonArray rows;
    m_markdown +=
        QStringLiteral("## Latency (receive − send stamp, µs; paced; medians of %1 repeats)\n\n").arg(m_options.repeat);
    m_markdown += QStringLiteral(
        "| size B | rate/s | wire p50 | wire p99 | wire p99.9 | parsed p50 | parsed p99 | parsed p99.9 | p99 added |\n"
        "|---|---|---|---|---|---|---|---|---|\n");
    for (const quint64 size : std::as_const(m_options.latencySizes)) {
        // At most 1 GB/s: 512 KB messages cannot go at 10k/s through anything on this machine.
        const double r = std::min(m_options.latencyRate, 1e9 / double(size));
        const quint64 count = quint64(r * m_options.latencySeconds);
        QJsonObject row{{QStringLiteral("size_bytes"), double(size)},
                        {QStringLiteral("rate"), r},
                        {QStringLiteral("count"), double(count)}};
        // Each repeat runs both clients next to each other (in turn first); every figure is the
        // median over repeats, and "p99 added" the median of each repeat's own difference.
        const QStringList clients{QStringLiteral("wire"), QStringLiteral("engine-parsed")};
        QHash<QString, QHash<QString, std::vector<double>>> figures; // client → figure → per repeat
        std::vector<double> added;
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
                for (const QString &key : {QStringLiteral("p50"), QStringLiteral("p99"), QStringLiteral("p999")})
                    figures[client][key].push_back(l.value(key).toDouble());
                figures[client][QStringLiteral("cpu_us_per_msg")].push_back(
                    o.value(QStringLiteral("cpu_us_per_msg")).toDouble());
                p99[client] = l.value(QStringLiteral("p99")).toDouble();
            }
            added.push_back(p99.value(clients.at(1)) - p99.value(clients.at(0)));
        }
        for (const QString &client : clients) {
            QJsonObject l;
            for (auto it = figures[client].cbegin(); it != figures[client].cend(); ++it)
                l[it.key()] = median(it.value());
            row[client] = l;
        }
        const QJsonObject w = row.value(QStringLiteral("wire")).toObject();
        const QJsonObject e = row.value(QStringLiteral("engine-parsed")).toObject();
        row[QStringLiteral("p99_added_us")] = median(added);
        log() << "latency " << size << " B: wire p99 " << w.value(QStringLiteral("p99")).toDouble()
              << " us, engine-parsed p99 " << e.value(QStringLiteral("p99")).toDouble() << " us" << Qt::endl;
        m_markdown += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 |\n")
                          .arg(size)
                          .arg(r, 0, 'f', 0)
                          .arg(w.value(QStringLiteral("p50")).toDouble())
                          .arg(w.value(QStringLiteral("p99")).toDouble())
                          .arg(w.value(QStringLiteral("p999")).toDouble())
                          .arg(e.value(QStringLiteral("p50")).toDouble())
                          .arg(e.value(QStringLiteral("p99")).toDouble())
                          .arg(e.value(QStringLiteral("p999")).toDouble())
                          .arg(row.value(QStringLiteral("p99_added_us")).toDouble());
        rows.append(row);
    }
    m_markdown +=
        QStringLiteral("\nSource: a paced one-connection sender (`streamscope-bench-client --client sender`), "
                       "message `{\"ts\":<ns>,\"p\":\"x…\"}` of exactly the size shown (26 B is the smallest that "
                       "carries a 19-digit ns stamp); both sides bucketed by the engine's LatencyHistogram.\n\n");
    m_root[QStringLiteral("latency_us")] = rows;
}

void BenchDriver::runStop()
{
    const QJsonObject o = runClient({QStringLiteral("--client"), QStringLiteral("stop"), QStringLiteral("--url-idle"),
                                     scenarioUrl(QStringLiteral("small_aggtrade"), 0, QStringLiteral("idle=1")),
                                     QStringLiteral("--url-firehose"),
                                     scenarioUrl(QStringLiteral("small_aggtrade"), 0, QStringLiteral("loop=1")),
                                     QStringLiteral("--iterations"), QString::number(m_options.stopIterations)},
                                    m_options.timeoutS);
    QJsonObject stop{{QStringLiteral("idle"), o.value(QStringLiteral("idle"))},
                     {QStringLiteral("firehose"), o.value(QStringLiteral("firehose"))}};
    m_root[QStringLiteral("stop_ms")] = stop;
    m_root[QStringLiteral("restart_first_message_ms")] = o.value(QStringLiteral("restart_first_message_ms"));
    const QJsonObject idle = stop.value(QStringLiteral("idle")).toObject();
    const QJsonObject fire = stop.value(QStringLiteral("firehose")).toObject();
    const QJsonObject restart = o.value(QStringLiteral("restart_first_message_ms")).toObject();
    m_markdown +=
        QStringLiteral("## Stop and restart (%1 each, ms)\n\n| | p50 | p99 | max |\n|---|---|---|---|\n"
                       "| stop → Stopped, idle | %2 | %3 | %4 |\n| stop → Stopped, firehose | %5 | %6 | %7 |\n"
                       "| restart → first message | %8 | %9 | |\n\n")
            .arg(m_options.stopIterations)
            .arg(num(idle.value(QStringLiteral("p50")).toDouble(), 3),
                 num(idle.value(QStringLiteral("p99")).toDouble(), 3),
                 num(idle.value(QStringLiteral("max")).toDouble(), 3),
                 num(fire.value(QStringLiteral("p50")).toDouble(), 3),
                 num(fire.value(QStringLiteral("p99")).toDouble(), 3),
                 num(fire.value(QStringLiteral("max")).toDouble(), 3),
                 num(restart.value(QStringLiteral("p50")).toDouble(), 3),
                 num(restart.value(QStringLiteral("p99")).toDouble(), 3));
    log() << "stop: " << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
}

void BenchDriver::runScale()
{
    const QStringList args{
        QStringLiteral("--url"),
        scenarioUrl(QStringLiteral("small_aggtrade"), 0, QStringLiteral("loop=1&rate=%1").arg(m_options.scaleRate)),
        QStringLiteral("--streams"),
        QString::number(m_options.scaleStreams),
        QStringLiteral("--seconds"),
        QString::number(m_options.scaleSeconds)};
    QJsonObject o = runClient(QStringList{QStringLiteral("--client"), QStringLiteral("scale")} + args,
                              m_options.scaleSeconds + 120);
    // The same streams read by bare QWebSockets on as many threads: the transport's own cost.
    const QJsonObject qws = runClient(QStringList{QStringLiteral("--client"), QStringLiteral("scale-qws")} + args,
                                      m_options.scaleSeconds + 120);
    o[QStringLiteral("qws_cpu_percent")] = qws.value(QStringLiteral("cpu_percent"));
    o[QStringLiteral("qws_msgs_per_s")] = qws.value(QStringLiteral("msgs_per_s"));
    m_root[QStringLiteral("scale")] = o;
    m_markdown +=
        QStringLiteral(
            "## Scale (%1 streams × %2 msgs/s, %3 s)\n\n| client | received msgs/s | CPU %% of one core | RSS MB | "
            "event-loop lag p99 ms | lag max ms |\n|---|---|---|---|---|---|\n"
            "| engine + GUI-side poll | %4 | %5 | %6 | %7 | %8 |\n| qws (bare QWebSockets) | %9 | %10 | | | |\n\n"
            "Lag probe: %11.\n\n")
            .arg(m_options.scaleStreams)
            .arg(m_options.scaleRate)
            .arg(m_options.scaleSeconds)
            .arg(num(o.value(QStringLiteral("msgs_per_s")).toDouble(), 0),
                 num(o.value(QStringLiteral("cpu_percent")).toDouble(), 1),
                 num(o.value(QStringLiteral("rss_mb")).toDouble(), 1),
                 num(o.value(QStringLiteral("gui_lag_p99_ms")).toDouble(), 2),
                 num(o.value(QStringLiteral("gui_lag_max_ms")).toDouble(), 2),
                 num(qws.value(QStringLiteral("msgs_per_s")).toDouble(), 0),
                 num(qws.value(QStringLiteral("cpu_percent")).toDouble(), 1),
                 o.value(QStringLiteral("gui_lag_probe")).toString());
    m_markdown.replace(QStringLiteral("%%"), QStringLiteral("%"));
    log() << "scale: " << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
}

void BenchDriver::runSoak()
{
    const quint64 count = quint64(m_options.soakRate * m_options.soakSeconds);
    const QJsonObject o = runClient(
        {QStringLiteral("--client"), QStringLiteral("soak"), QStringLiteral("--url"),
         scenarioUrl(QStringLiteral("multiplex_mix"), count, QStringLiteral("rate=%1").arg(m_options.soakRate)),
         QStringLiteral("--count"), QString::number(count), QStringLiteral("--seconds"),
         QString::number(m_options.soakSeconds)},
        m_options.soakSeconds + 120);
    m_root[QStringLiteral("soak")] = o;
    m_markdown += QStringLiteral(
                      "## Soak (multiplex_mix at %1 msgs/s, %2 s)\n\n| sent | received | RSS at %3 s MB | RSS end MB | "
                      "growth %% |\n|---|---|---|---|---|\n| %4 | %5 | %6 | %7 | %8 |\n\n")
                      .arg(m_options.soakRate)
                      .arg(m_options.soakSeconds)
                      .arg(o.value(QStringLiteral("rss_mark_s")).toDouble())
                      .arg(o.value(QStringLiteral("sent")).toDouble(), 0, 'f', 0)
                      .arg(o.value(QStringLiteral("received")).toDouble(), 0, 'f', 0)
                      .arg(num(o.value(QStringLiteral("rss_at_mark_mb")).toDouble(), 1))
                      .arg(num(o.value(QStringLiteral("rss_end_mb")).toDouble(), 1))
                      .arg(num(o.value(QStringLiteral("rss_growth_percent")).toDouble(), 1));
    m_markdown.replace(QStringLiteral("%%"), QStringLiteral("%"));
    log() << "soak: " << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
}

void BenchDriver::write()
{
    // Targets of issue 4, as far as this run measured them.
    QStringList targets;
    QJsonArray targetJson;
    auto check = [&](const QString &what, double value, double limit, bool atLeast) {
        const bool met = atLeast ? value >= limit : value <= limit;
        targets << QStringLiteral("| %1 | %2 | %3 %4 | %5 |")
                       .arg(what, num(value, 3), (atLeast ? QStringLiteral("≥") : QStringLiteral("≤")), num(limit, 3),
                            (met ? QStringLiteral("met") : QStringLiteral("**missed**")));
        targetJson.append(QJsonObject{{QStringLiteral("target"), what},
                                      {QStringLiteral("value"), value},
                                      {QStringLiteral("limit"), limit},
                                      {QStringLiteral("met"), met}});
    };
    for (const QJsonValue &v : std::as_const(m_scenarios)) {
        const QJsonObject s = v.toObject();
        const QString name = s.value(QStringLiteral("name")).toString();
        const QJsonObject r = s.value(QStringLiteral("ratios")).toObject();
        auto ratio = [&](const char *k) { return r.value(QLatin1String(k)).toDouble(); };
        if (name == QLatin1String("small_aggtrade") || name == QLatin1String("multiplex_mix")) {
            check(name + QStringLiteral(" engine-raw/qws"), ratio("engine-raw/qws"), 0.85, true);
            check(name + QStringLiteral(" engine-parsed/qws"), ratio("engine-parsed/qws"), 0.6, true);
        } else if (name == QLatin1String("xlarge_depth_diff") || name == QLatin1String("huge_ticker_arr")) {
            check(name + QStringLiteral(" engine-raw/wire"), ratio("engine-raw/wire"), 0.9, true);
            check(name + QStringLiteral(" engine-parsed/wire"), ratio("engine-parsed/wire"), 0.7, true);
        } else if (name == kLineScenario) {
            check(name + QStringLiteral(" engine-parsed/wire"), ratio("engine-parsed/wire"), 0.5, true);
        }
        if (m_options.clients.contains(QStringLiteral("app")))
            check(name + QStringLiteral(" app/engine-parsed"), ratio("app/engine-parsed"), 0.95, true);
    }
    if (m_root.contains(QStringLiteral("stop_ms"))) {
        const QJsonObject stop = m_root.value(QStringLiteral("stop_ms")).toObject();
        check(QStringLiteral("stop p99 idle (ms)"),
              stop.value(QStringLiteral("idle")).toObject().value(QStringLiteral("p99")).toDouble(), 5, false);
        check(QStringLiteral("stop p99 firehose (ms)"),
              stop.value(QStringLiteral("firehose")).toObject().value(QStringLiteral("p99")).toDouble(), 5, false);
        check(
            QStringLiteral("restart → first message p99 (ms)"),
            m_root.value(QStringLiteral("restart_first_message_ms")).toObject().value(QStringLiteral("p99")).toDouble(),
            50, false);
    }
    if (m_root.contains(QStringLiteral("latency_us"))) {
        double worst = 0;
        for (const QJsonValue &v : m_root.value(QStringLiteral("latency_us")).toArray()) {
            const QJsonObject row = v.toObject();
            if (row.value(QStringLiteral("size_bytes")).toDouble() <= 65536)
                worst = std::max(worst, row.value(QStringLiteral("p99_added_us")).toDouble());
        }
        check(QStringLiteral("latency: engine-parsed p99 − wire p99, worst size ≤ 64 KB (µs)"), worst, 50, false);
    }
    if (m_root.contains(QStringLiteral("scale"))) {
        const QJsonObject s = m_root.value(QStringLiteral("scale")).toObject();
        check(QStringLiteral("scale CPU (% of one core)"), s.value(QStringLiteral("cpu_percent")).toDouble(), 40,
              false);
        check(QStringLiteral("scale RSS (MB)"), s.value(QStringLiteral("rss_mb")).toDouble(), 300, false);
        check(QStringLiteral("scale event-loop lag p99 (ms)"), s.value(QStringLiteral("gui_lag_p99_ms")).toDouble(), 50,
              false);
    }
    if (m_root.contains(QStringLiteral("soak"))) {
        const QJsonObject s = m_root.value(QStringLiteral("soak")).toObject();
        check(QStringLiteral("soak RSS growth after the first minute (%)"),
              s.value(QStringLiteral("rss_growth_percent")).toDouble(), 5, false);
        check(QStringLiteral("soak lost messages"),
              s.value(QStringLiteral("sent")).toDouble() - s.value(QStringLiteral("received")).toDouble(), 0, false);
    }
    m_root[QStringLiteral("targets")] = targetJson;
    if (!targets.isEmpty())
        m_markdown += QStringLiteral("## Targets (issue 4)\n\n| target | measured | limit | |\n|---|---|---|---|\n")
            + targets.join(QLatin1Char('\n')) + QStringLiteral("\n");

    QTextStream(stdout) << m_markdown << Qt::flush;
    if (!m_options.markdownPath.isEmpty()) {
        QFile f(m_options.markdownPath);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(m_markdown.toUtf8());
    }
    if (!m_options.jsonPath.isEmpty()) {
        QFile f(m_options.jsonPath);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(QJsonDocument(m_root).toJson());
    }
}

} // namespace streamscope::bench
