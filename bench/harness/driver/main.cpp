// streamscope-bench: the benchmark of docs/benchmarks.md in one command.
//
//   streamscope-bench [--scenarios a,b|all] [--repeat N] [--markdown FILE] [--json FILE]
//                     [--latency] [--stop] [--scale] [--books] [--soak] [--extras] ...
//                     [--converge [--converge-within D] [--max-repeat N]]
//                     [--compare-build DIR | --client-binary-old PATH] [--compare-clients LIST]
//                     [--clients ...,node-ws,node-ws-parse,py-websockets,py-websockets-parse]

#include "BenchDriver.h"
#include "EventLoop.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>

using namespace streamscope::bench;

int main(int argc, char **argv)
{
    streamscope::raiseOpenFileLimit(); // the servers and clients inherit it
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("streamscope-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs the StreamScope benchmark: each client (wire, qws, engine-raw, engine-parsed, app) in its own "
        "process against streamscope-replay, interleaved over repeats; medians, ratios, a markdown table and a JSON "
        "file."));
    parser.addHelpOption();
    const QCommandLineOption scenarios(QStringLiteral("scenarios"),
                                       QStringLiteral("Comma-separated scenarios, all, or none."),
                                       QStringLiteral("LIST"), QStringLiteral("all"));
    const QCommandLineOption clients(
        QStringLiteral("clients"),
        QStringLiteral("Comma-separated clients (default: wire,qws,engine-raw,engine-parsed,app); also record, "
                       "engine-raw-native and engine-parsed-native (the native websocket transport), and "
                       "the peers node-ws, node-ws-parse, py-websockets, py-websockets-parse (skipped, with a line, "
                       "where not installed)."),
        QStringLiteral("LIST"));
    const QCommandLineOption repeat(QStringLiteral("repeat"), QStringLiteral("Repeats (medians)."), QStringLiteral("N"),
                                    QStringLiteral("3"));
    const QCommandLineOption countScale(QStringLiteral("count-scale"),
                                        QStringLiteral("Fraction of the scenarios' counts."), QStringLiteral("F"),
                                        QStringLiteral("1"));
    const QCommandLineOption count(QStringLiteral("count"), QStringLiteral("Messages per run, for every scenario."),
                                   QStringLiteral("N"));
    const QCommandLineOption markdown(QStringLiteral("markdown"), QStringLiteral("Write the markdown tables here."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Write the JSON results here."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption binDir(QStringLiteral("bin-dir"), QStringLiteral("Where streamscope-bench-client is."),
                                    QStringLiteral("DIR"));
    const QCommandLineOption extras(QStringLiteral("extras"), QStringLiteral("Latency, stop/restart, scale and soak."));
    const QCommandLineOption latency(QStringLiteral("latency"), QStringLiteral("Paced latency over payload sizes."));
    const QCommandLineOption latencySizes(QStringLiteral("latency-sizes"),
                                          QStringLiteral("Comma-separated sizes in bytes."), QStringLiteral("LIST"));
    const QCommandLineOption latencyRate(QStringLiteral("latency-rate"), QStringLiteral("Messages/s."),
                                         QStringLiteral("R"), QStringLiteral("10000"));
    const QCommandLineOption latencySeconds(QStringLiteral("latency-seconds"),
                                            QStringLiteral("Seconds per size and client."), QStringLiteral("S"),
                                            QStringLiteral("3"));
    const QCommandLineOption stop(QStringLiteral("stop"), QStringLiteral("Stop/restart timings."));
    const QCommandLineOption stopIterations(QStringLiteral("stop-iterations"), QStringLiteral("Stops per kind."),
                                            QStringLiteral("N"), QStringLiteral("100"));
    const QCommandLineOption scale(QStringLiteral("scale"), QStringLiteral("Many streams at a modest rate."));
    const QCommandLineOption scaleStreams(QStringLiteral("scale-streams"),
                                          QStringLiteral("The scale curve's points: streams, comma-separated."),
                                          QStringLiteral("LIST"), QStringLiteral("100,1000,3000,10000"));
    const QCommandLineOption scaleRate(QStringLiteral("scale-rate"),
                                       QStringLiteral("Messages/s over all streams, at every point."),
                                       QStringLiteral("R"), QStringLiteral("100000"));
    const QCommandLineOption scaleSeconds(QStringLiteral("scale-seconds"),
                                          QStringLiteral("Measured seconds of each scale run."), QStringLiteral("S"),
                                          QStringLiteral("30"));
    const QCommandLineOption books(QStringLiteral("books"),
                                   QStringLiteral("Order books off and on: depth_books_1000 and depth_firehose."));
    const QCommandLineOption booksSeconds(QStringLiteral("books-seconds"),
                                          QStringLiteral("Measured seconds of depth_books_1000, each of off and on."),
                                          QStringLiteral("S"), QStringLiteral("30"));
    const QCommandLineOption soak(QStringLiteral("soak"), QStringLiteral("Long paced run: RSS and counts."));
    const QCommandLineOption soakSeconds(QStringLiteral("soak-seconds"), QStringLiteral("Seconds."),
                                         QStringLiteral("S"), QStringLiteral("600"));
    const QCommandLineOption soakRate(QStringLiteral("soak-rate"), QStringLiteral("Messages/s."), QStringLiteral("R"),
                                      QStringLiteral("50000"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("Per client run, seconds."),
                                     QStringLiteral("S"), QStringLiteral("300"));
    const QCommandLineOption converge(
        QStringLiteral("converge"),
        QStringLiteral("After --repeat repeats, repeat each scenario until every ratio's median is known within "
                       "±--converge-within (95 % interval of the median), at most --max-repeat times."));
    const QCommandLineOption convergeWithin(QStringLiteral("converge-within"),
                                            QStringLiteral("Half-width asked of each ratio's interval."),
                                            QStringLiteral("D"), QStringLiteral("0.05"));
    const QCommandLineOption maxRepeat(QStringLiteral("max-repeat"), QStringLiteral("Most repeats with --converge."),
                                       QStringLiteral("N"), QStringLiteral("15"));
    const QCommandLineOption compareBuild(
        QStringLiteral("compare-build"),
        QStringLiteral("An older build (its build directory, or the folder of its streamscope-bench-client): its "
                       "clients run interleaved with these, and the tables show both."),
        QStringLiteral("DIR"));
    const QCommandLineOption oldClient(QStringLiteral("client-binary-old"),
                                       QStringLiteral("The older streamscope-bench-client itself."),
                                       QStringLiteral("PATH"));
    const QCommandLineOption compareClients(
        QStringLiteral("compare-clients"),
        QStringLiteral("Clients run from both builds (default: engine-raw,engine-parsed,app)."),
        QStringLiteral("LIST"));
    const QCommandLineOption peersDir(QStringLiteral("peers-dir"),
                                      QStringLiteral("Where the peer scripts and node_modules are (bench/peers)."),
                                      QStringLiteral("DIR"));
    const QCommandLineOption node(QStringLiteral("node"), QStringLiteral("node for the node-ws peers."),
                                  QStringLiteral("PATH"));
    const QCommandLineOption python(QStringLiteral("python"),
                                    QStringLiteral("python3 for the py-websockets peers (default /usr/bin/python3)."),
                                    QStringLiteral("PATH"));
    parser.addOptions({scenarios,      clients,   repeat,         countScale,  count,          markdown,
                       json,           binDir,    extras,         latency,     latencySizes,   latencyRate,
                       latencySeconds, stop,      stopIterations, scale,       scaleStreams,   scaleRate,
                       scaleSeconds,   soak,      soakSeconds,    soakRate,    timeout,        converge,
                       convergeWithin, maxRepeat, compareBuild,   oldClient,   compareClients, peersDir,
                       node,           python,    books,          booksSeconds});
    parser.process(application);

    BenchOptions o;
    const QStringList all{QStringLiteral("small_aggtrade"),       QStringLiteral("medium_kline"),
                          QStringLiteral("large_depth20"),        QStringLiteral("xlarge_depth_diff"),
                          QStringLiteral("huge_ticker_arr"),      QStringLiteral("multiplex_mix"),
                          QStringLiteral("betfair_mcm"),          QStringLiteral("small_aggtrade_wss"),
                          QStringLiteral("xlarge_depth_diff_wss")};
    const QString s = parser.value(scenarios);
    if (s == QLatin1String("all"))
        o.scenarios = all;
    else if (s != QLatin1String("none") && !s.isEmpty())
        o.scenarios = s.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &name : std::as_const(o.scenarios)) {
        if (!all.contains(name)) {
            qCritical("streamscope-bench: unknown scenario %s", qPrintable(name));
            return 2;
        }
    }
    if (parser.isSet(clients))
        o.clients = parser.value(clients).split(QLatin1Char(','), Qt::SkipEmptyParts);
    o.repeat = std::max(1, parser.value(repeat).toInt());
    o.countScale = parser.value(countScale).toDouble();
    o.countOverride = parser.value(count).toULongLong();
    o.markdownPath = parser.value(markdown);
    o.jsonPath = parser.value(json);
    o.binDir = parser.value(binDir);
    const bool all4 = parser.isSet(extras);
    o.latency = all4 || parser.isSet(latency);
    if (parser.isSet(latencySizes)) {
        o.latencySizes.clear();
        for (const QString &v : parser.value(latencySizes).split(QLatin1Char(','), Qt::SkipEmptyParts))
            o.latencySizes << v.toULongLong();
    }
    o.latencyRate = parser.value(latencyRate).toDouble();
    o.latencySeconds = parser.value(latencySeconds).toDouble();
    o.stop = all4 || parser.isSet(stop);
    o.stopIterations = parser.value(stopIterations).toInt();
    o.scale = all4 || parser.isSet(scale);
    o.scaleStreams.clear();
    for (const QString &v : parser.value(scaleStreams).split(QLatin1Char(','), Qt::SkipEmptyParts))
        o.scaleStreams << v.toInt();
    o.scaleRate = parser.value(scaleRate).toDouble();
    o.scaleSeconds = parser.value(scaleSeconds).toDouble();
    o.books = parser.isSet(books);
    o.booksSeconds = parser.value(booksSeconds).toDouble();
    o.soak = all4 || parser.isSet(soak);
    o.soakSeconds = parser.value(soakSeconds).toDouble();
    o.soakRate = parser.value(soakRate).toDouble();
    o.timeoutS = parser.value(timeout).toDouble();
    o.converge = parser.isSet(converge);
    o.convergeWithin = parser.value(convergeWithin).toDouble();
    o.maxRepeat = std::max(1, parser.value(maxRepeat).toInt());
    if (parser.isSet(oldClient)) {
        o.oldClientPath = parser.value(oldClient);
    } else if (parser.isSet(compareBuild)) {
        // A build directory (its bench/harness/ holds the client) or the client's own folder.
        const QDir dir(parser.value(compareBuild));
        const QString name = QStringLiteral("streamscope-bench-client");
        o.oldClientPath = dir.filePath(name);
        for (const QString &candidate : {dir.filePath(QStringLiteral("bench/harness/") + name), dir.filePath(name)})
            if (QFileInfo(candidate).isExecutable())
                o.oldClientPath = candidate;
    }
    if (!o.oldClientPath.isEmpty())
        o.oldClientPath = QFileInfo(o.oldClientPath).absoluteFilePath();
    if (parser.isSet(compareClients))
        o.compareClients = parser.value(compareClients).split(QLatin1Char(','), Qt::SkipEmptyParts);
    o.peersDir = parser.value(peersDir);
    o.nodePath = parser.value(node);
    o.pythonPath = parser.value(python);

    BenchDriver driver(o);
    return driver.run();
}
