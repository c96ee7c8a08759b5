#include "BenchDriver.h"

#include "BenchFormat.h"
#include "BookRuns.h"
#include "BuiltinCertificate.h"
#include "ScaleRuns.h"
#include "TargetTable.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QMap>
#include <QtCore/QTextStream>

#include <algorithm>
#include <cmath>

namespace streamscope::bench {

namespace {

quint64 defaultCount(const QString &scenario)
{
    static const QMap<QString, quint64> counts{
        {QStringLiteral("small_aggtrade"), 300000}, {QStringLiteral("medium_kline"), 150000},
        {QStringLiteral("large_depth20"), 60000},   {QStringLiteral("xlarge_depth_diff"), 30000},
        {QStringLiteral("huge_ticker_arr"), 600},   {QStringLiteral("multiplex_mix"), 120000},
        {QStringLiteral("betfair_mcm"), 200000}};
    return counts.value(baseScenario(scenario), 100000);
}

} // namespace

BenchDriver::BenchDriver(BenchOptions options)
    : m_options(std::move(options))
    , m_peers(m_options.peersDir.isEmpty() ? QStringLiteral(STREAMSCOPE_BENCH_PEERS_DIR) : m_options.peersDir,
              m_options.nodePath, m_options.pythonPath)
{
    const QDir dir(m_options.binDir.isEmpty() ? QCoreApplication::applicationDirPath() : m_options.binDir);
#ifdef Q_OS_WIN
    const QString suffix = QStringLiteral(".exe");
#else
    const QString suffix;
#endif
    m_clientPath = dir.filePath(QStringLiteral("streamscope-bench-client") + suffix);
    // The replay server is built in replay/ at the top of the build, two levels above
    // bench/harness; a multi-config generator (Visual Studio) puts each in a folder per
    // configuration: replay/Release/.
    const QString replay = QStringLiteral("streamscope-replay") + suffix;
    for (const QString &candidate : {dir.filePath(replay), dir.filePath(QStringLiteral("../../replay/") + replay),
                                     dir.filePath(QStringLiteral("../../../replay/%1/").arg(dir.dirName()) + replay)}) {
        if (QFile::exists(candidate)) {
            m_replayPath = QDir::cleanPath(candidate);
            break;
        }
    }
}

BenchDriver::~BenchDriver()
{
    stopServer(m_ws);
    stopServer(m_wss);
    stopServer(m_line);
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
    return runProgram(m_clientPath, args + QStringList{QStringLiteral("--timeout"), QString::number(timeoutS)},
                      timeoutS, true);
}

QJsonObject BenchDriver::runProgram(const QString &program, const QStringList &args, double timeoutS, bool countFailure)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000) || !p.waitForFinished(int((timeoutS + 30) * 1000))) {
        p.kill();
        p.waitForFinished(2000);
        m_failures += countFailure;
        log() << "  client did not finish: " << program << " " << args.join(QLatin1Char(' ')) << Qt::endl;
        return {};
    }
    const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        if (it->startsWith('{')) {
            const QJsonObject o = QJsonDocument::fromJson(*it).object();
            if (o.contains(QStringLiteral("ok")) && !o.value(QStringLiteral("ok")).toBool()) {
                m_failures += countFailure;
                log() << "  incomplete: " << *it << Qt::endl;
            }
            return o;
        }
    }
    m_failures += countFailure;
    log() << "  no result from: " << program << " " << args.join(QLatin1Char(' ')) << "\n"
          << p.readAllStandardError().right(2000) << Qt::endl;
    return {};
}

QString BenchDriver::urlFor(const QString &scenario, quint64 count) const
{
    if (scenario == kLineScenario)
        return QStringLiteral("tls://127.0.0.1:%1").arg(m_line.port);
    if (isWss(scenario))
        return QStringLiteral("wss://127.0.0.1:%1/%2?count=%3").arg(m_wss.port).arg(baseScenario(scenario)).arg(count);
    return scenarioUrl(scenario, count);
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
    if (!m_options.oldClientPath.isEmpty() && !QFile::exists(m_options.oldClientPath)) {
        log() << "streamscope-bench: no old client at " << m_options.oldClientPath << Qt::endl;
        return 1;
    }
    m_ws = startProcess(m_replayPath,
                        {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"),
                         QStringLiteral("small_aggtrade")});
    if (!m_ws.port)
        return 1;
    if (std::any_of(m_options.scenarios.cbegin(), m_options.scenarios.cend(), isWss)) {
        // One TLS websocket server for every *_wss scenario, with the built-in certificate,
        // which every client trusts as its CA (the peers through this file).
        m_wss = startProcess(m_replayPath,
                             {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"),
                              QStringLiteral("small_aggtrade"), QStringLiteral("--tls")});
        if (!m_wss.port)
            return 1;
        m_caFile = m_temp.filePath(QStringLiteral("replay-ca.pem"));
        QFile ca(m_caFile);
        if (!ca.open(QIODevice::WriteOnly) || ca.write(replay::builtinCertificatePem()) <= 0) {
            log() << "streamscope-bench: cannot write " << m_caFile << Qt::endl;
            return 1;
        }
    }
    // Peers that cannot run here are left out, each family (node-ws, py-websockets) with one line.
    QJsonObject peers;
    for (const QString &family : {QStringLiteral("node-ws"), QStringLiteral("py-websockets")}) {
        QStringList asked;
        for (const QString &p : PeerClients::names())
            if (p.startsWith(family) && m_options.clients.contains(p))
                asked << p;
        if (asked.isEmpty())
            continue;
        const QString why = m_peers.missing(asked.first());
        for (const QString &p : std::as_const(asked))
            peers[p] = why.isEmpty() ? QStringLiteral("ran") : QStringLiteral("skipped: ") + why;
        if (!why.isEmpty()) {
            m_skippedPeers << asked;
            log() << "skipped: " << asked.join(QStringLiteral(", ")) << ": " << why << Qt::endl;
        }
    }
    if (!peers.isEmpty())
        m_root[QStringLiteral("peers")] = peers;
    if (!m_options.oldClientPath.isEmpty())
        m_root[QStringLiteral("compare_build")] = m_options.oldClientPath;
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
    if (m_options.books)
        runBooks();
    if (m_options.soak)
        runSoak();
    stopServer(m_ws);
    stopServer(m_wss);
    write();
    return m_failures ? 1 : 0;
}

void BenchDriver::runScale()
{
    ScaleRunOptions options;
    options.streams = m_options.scaleStreams;
    options.totalRate = m_options.scaleRate;
    options.seconds = m_options.scaleSeconds;
    const ScaleRunResult result = runScaleCurve(options, clientRunner(), scenarioUrlOf());
    addExtra(QStringLiteral("scale"), result.json, result.markdown);
}

void BenchDriver::runBooks()
{
    BookRunOptions options;
    options.seconds = m_options.booksSeconds;
    const BookRunResult result = runBookBench(options, clientRunner(), scenarioUrlOf());
    addExtra(QStringLiteral("books"), result.json, result.markdown);
}

std::function<QJsonObject(const QStringList &, double)> BenchDriver::clientRunner()
{
    return [this](const QStringList &args, double timeoutS) { return runClient(args, timeoutS); };
}

std::function<QString(const QString &, const QString &)> BenchDriver::scenarioUrlOf() const
{
    return [this](const QString &scenario, const QString &query) { return scenarioUrl(scenario, 0, query); };
}

void BenchDriver::addExtra(const QString &key, const QJsonObject &json, const QString &markdown)
{
    m_root[key] = json;
    m_markdown += markdown;
    log() << key << ": " << QJsonDocument(json).toJson(QJsonDocument::Compact) << Qt::endl;
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
    const TargetTable targets = TargetTable::of(m_root);
    m_root[QStringLiteral("targets")] = targets.json();
    m_markdown += targets.markdown();

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
