// streamscope-bench-client: one benchmark client in its own process, so that its CPU is
// measured alone. Prints one JSON object on the last line of standard output.
//
//   --client wire|qws|engine-raw|engine-parsed|record|app --url URL --count N [--stamped]
//     (an engine client's name + "-native": the same with the native websocket transport)
//     (record: engine-parsed while recording to disk, zstd on)
//   --client sender --size BYTES --rate R --count N        (latency source; prints "port N")
//   --client stop --url-idle URL --url-firehose URL --iterations N
//   --client scale|scale-qws --url URL --streams N --seconds S
//   --client books --url URL --streams N --instruments N --seconds S --books on|off
//   --client soak --url URL --count N --seconds S
//
// URLs are ws://... or wss://... (websocket) or tls://host:port (Betfair-style lines); over
// TLS every client trusts the replay server's built-in certificate as its CA and verifies
// the peer (the engine through the stream's tls.ca_file, as a user would configure it).
// msgs/s and CPU µs/msg cover the window from the first message to the count-th one:
// (count - counted at first) ÷ (last − first), CPU (user+sys, all threads) over the same window.

#include "ClientSupport.h"
#include "Clients.h"
#include "EngineClient.h"
#include "EventLoop.h"
#include "PacedSender.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>

#include <cstdio>

using namespace streamscope;
using namespace streamscope::bench;

int main(int argc, char **argv)
{
    raiseOpenFileLimit(); // a socket per stream in the scale run
    QCoreApplication application(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("One StreamScope benchmark client (see streamscope-bench)."));
    parser.addHelpOption();
    const QCommandLineOption client(QStringLiteral("client"), QStringLiteral("Client or measurement."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption url(QStringLiteral("url"), QStringLiteral("Stream URL."), QStringLiteral("URL"));
    const QCommandLineOption urlIdle(QStringLiteral("url-idle"), QStringLiteral("Idle stream URL."),
                                     QStringLiteral("URL"));
    const QCommandLineOption urlFirehose(QStringLiteral("url-firehose"), QStringLiteral("Firehose URL."),
                                         QStringLiteral("URL"));
    const QCommandLineOption count(QStringLiteral("count"), QStringLiteral("Messages."), QStringLiteral("N"),
                                   QStringLiteral("1000"));
    const QCommandLineOption stamped(QStringLiteral("stamped"),
                                     QStringLiteral("Measure latency from the {\"ts\":ns} stamp."));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Sender message size."),
                                  QStringLiteral("BYTES"), QStringLiteral("256"));
    const QCommandLineOption rate(QStringLiteral("rate"), QStringLiteral("Sender rate."), QStringLiteral("R"),
                                  QStringLiteral("10000"));
    const QCommandLineOption iterations(QStringLiteral("iterations"), QStringLiteral("Stops."), QStringLiteral("N"),
                                        QStringLiteral("100"));
    const QCommandLineOption streams(QStringLiteral("streams"), QStringLiteral("Scale: streams."), QStringLiteral("N"),
                                     QStringLiteral("1000"));
    const QCommandLineOption seconds(QStringLiteral("seconds"), QStringLiteral("Scale/soak seconds."),
                                     QStringLiteral("S"), QStringLiteral("60"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("Give up after S seconds."),
                                     QStringLiteral("S"), QStringLiteral("120"));
    const QCommandLineOption instruments(QStringLiteral("instruments"), QStringLiteral("Books: instruments a stream."),
                                         QStringLiteral("N"), QStringLiteral("10"));
    const QCommandLineOption books(QStringLiteral("books"), QStringLiteral("Books: on or off."),
                                   QStringLiteral("on|off"), QStringLiteral("on"));
    parser.addOptions({client, url, urlIdle, urlFirehose, count, stamped, size, rate, iterations, streams, seconds,
                       timeout, instruments, books});
    parser.process(application);

    const QString requested = parser.value(client);
    QString name = requested;
    // An engine client's name + "-native" (engine-raw-native, scale-native, stop-native...):
    // the engine's streams use our own websocket framing instead of QtWebSockets.
    const QString nativeSuffix = QStringLiteral("-native");
    if (name.endsWith(nativeSuffix)) {
        setWebSocketClient(WebSocketClient::Native);
        name.chop(nativeSuffix.size());
    }
    const QUrl u(parser.value(url));
    const quint64 n = parser.value(count).toULongLong();
    const double timeoutS = parser.value(timeout).toDouble();
    const bool stamp = parser.isSet(stamped);
    QJsonObject latency;
    QJsonObject *lat = stamp ? &latency : nullptr;
    ThroughputWindow w;
    EngineRun engine;
    engine.timeoutS = timeoutS;
    if (name == QLatin1String("sender"))
        return PacedSender::run(parser.value(size).toULongLong(), parser.value(rate).toDouble(), n);
    if (name == QLatin1String("wire")) {
        w = runWire(u, n, stamp, timeoutS, lat);
    } else if (name == QLatin1String("qws")) {
        w = runQws(u, n, false, timeoutS);
    } else if (name == QLatin1String("engine-raw")) {
        w = runEngine(u, n, engine);
    } else if (name == QLatin1String("engine-parsed")) {
        engine.parsed = true;
        engine.stamped = stamp;
        engine.latency = lat;
        w = runEngine(u, n, engine);
    } else if (name == QLatin1String("record")) {
        w = runRecord(u, n, stamp, timeoutS, lat);
    } else if (name == QLatin1String("app")) {
        w = runApp(u, n, timeoutS);
    } else if (name == QLatin1String("stop")) {
        printJson(
            runStop(QUrl(parser.value(urlIdle)), QUrl(parser.value(urlFirehose)), parser.value(iterations).toInt()));
        return 0;
    } else if (name == QLatin1String("scale")) {
        printJson(
            runScale(u, parser.value(streams).toInt(), parser.value(seconds).toDouble(), parser.isSet(count) ? n : 0));
        return 0;
    } else if (name == QLatin1String("scale-qws")) {
        printJson(runScaleQws(u, parser.value(streams).toInt(), parser.value(seconds).toDouble()));
        return 0;
    } else if (name == QLatin1String("books")) {
        printJson(runBooks(u, parser.value(streams).toInt(), parser.value(instruments).toInt(),
                           parser.value(seconds).toDouble(), parser.value(books) != QLatin1String("off")));
        return 0;
    } else if (name == QLatin1String("soak")) {
        printJson(runSoak(u, n, parser.value(seconds).toDouble()));
        return 0;
    } else {
        std::fprintf(stderr, "unknown --client %s\n", qPrintable(name));
        return 2;
    }
    if (stamp)
        w.extra[QStringLiteral("latency_us")] = latency;
    printJson(w.json(requested));
    return w.received >= n ? 0 : 1;
}
