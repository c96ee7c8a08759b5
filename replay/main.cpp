// streamscope-replay: the replay server as a process of its own, so that a benchmark client's
// CPU can be measured alone. Runs until SIGTERM/SIGINT (or --exit-after-idle-ms).
#include "CaptureServer.h"
#include "Console.h"
#include "EventLoop.h"
#include "InputFile.h"
#include "ReplayServer.h"
#include "TerminationSignals.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QThread>
#include <QTimer>

#include <memory>

using streamscope::ConsoleText;
using streamscope::InputFile;
using streamscope::app::TerminationSignals;
using streamscope::replay::CaptureServer;
using streamscope::replay::ReplayOptions;
using streamscope::replay::ReplayServer;

namespace {

// A message may hold a file's name or what a file holds: escaped, one line.
void say(const QString &message)
{
    streamscope::console::err(ConsoleText::escape(QStringLiteral("streamscope-replay: ") + message));
}

int fail(const QString &message)
{
    say(message);
    return 2;
}

void printPort(quint16 port)
{
    streamscope::console::out(ConsoleText::escape(QStringLiteral("port %1").arg(port)));
}

} // namespace

int main(int argc, char *argv[])
{
    // Thousands of clients (the benchmark's scale run): a descriptor each, and an event loop
    // whose pass costs what the ready sockets cost (EventLoop.h).
    streamscope::raiseOpenFileLimit();
    streamscope::installEventLoop(QThread::currentThread());
    streamscope::console::installMessageHandler();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("streamscope-replay"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STREAMSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Replays market-data scenarios on 127.0.0.1 over websocket or CRLF lines.\n"
                       "Scenarios: ")
        + streamscope::replay::scenarioNames().join(QStringLiteral(", ")));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption port(QStringLiteral("port"),
                                  QStringLiteral("Port to listen on; 0 picks a free one and prints \"port N\" first."),
                                  QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption address(QStringLiteral("address"), QStringLiteral("Address to listen on."),
                                     QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("Default scenario."),
                                      QStringLiteral("NAME"), QStringLiteral("small_aggtrade"));
    const QCommandLineOption count(QStringLiteral("count"),
                                   QStringLiteral("Messages per connection (0 = the scenario's default)."),
                                   QStringLiteral("N"));
    const QCommandLineOption rate(QStringLiteral("rate"),
                                  QStringLiteral("Messages per second (0 = as fast as possible)."),
                                  QStringLiteral("MSGS_PER_S"));
    const QCommandLineOption loop(QStringLiteral("loop"), QStringLiteral("Send forever."));
    const QCommandLineOption stamp(QStringLiteral("stamp"),
                                   QStringLiteral("Prefix each message with \"ts\": send time in ns since the epoch."));
    const QCommandLineOption protocol(QStringLiteral("protocol"), QStringLiteral("ws or line."),
                                      QStringLiteral("ws|line"), QStringLiteral("ws"));
    const QCommandLineOption tls(QStringLiteral("tls"),
                                 QStringLiteral("TLS (wss or TLS lines); optional positional arguments CERT KEY, else "
                                                "the built-in self-signed certificate for 127.0.0.1."));
    const QCommandLineOption cert(QStringLiteral("cert"), QStringLiteral("TLS certificate (PEM)."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption key(QStringLiteral("key"), QStringLiteral("TLS private key (PEM)."),
                                 QStringLiteral("FILE"));
    const QCommandLineOption misbehave(
        QStringLiteral("misbehave"),
        QStringLiteral("silent, drop, bad_frame, invalid_utf8, oversized, bad_json or gap."), QStringLiteral("KIND"));
    const QCommandLineOption after(QStringLiteral("after"), QStringLiteral("Data messages before the misbehaviour."),
                                   QStringLiteral("K"));
    const QCommandLineOption silentMs(QStringLiteral("silent-ms"), QStringLiteral("silent: resume after D ms."),
                                      QStringLiteral("D"));
    const QCommandLineOption dropEvery(QStringLiteral("drop-every"),
                                       QStringLiteral("drop: on every connection, not only the first."));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("oversized: message size in bytes (default 20 MiB)."),
                                  QStringLiteral("BYTES"));
    const QCommandLineOption gap(QStringLiteral("gap"), QStringLiteral("gap: depth-diff updates to skip (default 1)."),
                                 QStringLiteral("k"));
    const QCommandLineOption authSession(QStringLiteral("auth-session"),
                                         QStringLiteral("line: the session that authentication must carry."),
                                         QStringLiteral("TOKEN"));
    const QCommandLineOption pingMs(QStringLiteral("ping-ms"), QStringLiteral("websocket: ping every T ms."),
                                    QStringLiteral("T"));
    const QCommandLineOption idleExit(QStringLiteral("exit-after-idle-ms"),
                                      QStringLiteral("Exit when no client has been connected for this long."),
                                      QStringLiteral("MS"));
    const QCommandLineOption market(
        QStringLiteral("market"),
        QStringLiteral("Connections share one event sequence (a new one starts where the others are)."));
    const QCommandLineOption shutdownGraceMs(
        QStringLiteral("shutdown-grace-ms"),
        QStringLiteral("shutdown: close this long after the serverShutdown notice."), QStringLiteral("T"));
    const QCommandLineOption maxAgeMs(QStringLiteral("max-age-ms"),
                                      QStringLiteral("Close connections this old (Binance's 24 h limit, scaled down)."),
                                      QStringLiteral("T"));
    const QCommandLineOption maxStreams(QStringLiteral("max-streams"),
                                        QStringLiteral("websocket: streams per connection (default 1024)."),
                                        QStringLiteral("N"));
    const QCommandLineOption perStream(QStringLiteral("per-stream"),
                                       QStringLiteral("websocket: one event per newly subscribed stream."));
    const QCommandLineOption status503(QStringLiteral("status503"),
                                       QStringLiteral("line: messages AFTER to AFTER+COUNT-1 carry status 503."),
                                       QStringLiteral("AFTER,COUNT"));
    const QCommandLineOption conflatedEvery(QStringLiteral("conflated-every"),
                                            QStringLiteral("line: every K-th message has con=true."),
                                            QStringLiteral("K"));
    const QCommandLineOption segmentEvery(
        QStringLiteral("segment-every"),
        QStringLiteral("line: every group of K messages ends in SEG_START, SEG, SEG_END."), QStringLiteral("K"));
    const QCommandLineOption file(
        QStringLiteral("file"),
        QStringLiteral("Serve a capture (.ndjson.zst or .ndjson) instead of a scenario: "
                       "websocket captures over websocket, Betfair/tcp/tls captures as lines."),
        QStringLiteral("CAPTURE"));
    const QCommandLineOption speed(QStringLiteral("speed"),
                                   QStringLiteral("--file: the recorded pace times N (1, 10, ...), or max."),
                                   QStringLiteral("N|max"), QStringLiteral("1"));
    const QCommandLineOption imageAfter(QStringLiteral("image-after"),
                                        QStringLiteral("line: message K is a SUB_IMAGE mid-stream."),
                                        QStringLiteral("K"));
    const QCommandLineOption clockOffsetMs(
        QStringLiteral("clock-offset-ms"),
        QStringLiteral("Shift the server's clock by N ms (event times and every venue's server-time answer; may be "
                       "negative)."),
        QStringLiteral("N"));
    parser.addOptions({port,         clockOffsetMs,   address,  scenario,   count,       rate,      loop,
                       stamp,        protocol,        tls,      cert,       key,         misbehave, after,
                       silentMs,     dropEvery,       size,     gap,        authSession, pingMs,    idleExit,
                       market,       shutdownGraceMs, maxAgeMs, maxStreams, perStream,   status503, conflatedEvery,
                       segmentEvery, imageAfter,      file,     speed});
    parser.addPositionalArgument(QStringLiteral("CERT KEY"), QStringLiteral("With --tls: certificate and key files."),
                                 QStringLiteral("[CERT KEY]"));
    // parse(), not process(): Qt would print an unknown option's name as it was typed.
    if (!parser.parse(QCoreApplication::arguments()))
        return fail(parser.errorText());
    if (parser.isSet(help)) {
        streamscope::console::out(ConsoleText::escapeLines(parser.helpText()));
        return 0;
    }
    if (parser.isSet(version)) {
        streamscope::console::out(
            ConsoleText::escape(QStringLiteral("streamscope-replay ") + QStringLiteral(STREAMSCOPE_VERSION)));
        return 0;
    }

    auto number = [&](const QCommandLineOption &option, quint64 fallback, bool *ok) {
        if (!parser.isSet(option))
            return fallback;
        return parser.value(option).toULongLong(ok);
    };
    bool ok = true;
    ReplayOptions options;
    options.scenario = parser.value(scenario);
    options.count = number(count, 0, &ok);
    options.rate = parser.isSet(rate) ? parser.value(rate).toDouble(&ok) : 0;
    if (!ok)
        return fail(QStringLiteral("--count and --rate take numbers"));
    options.loop = parser.isSet(loop);
    options.stamp = parser.isSet(stamp);
    const QString protocolName = parser.value(protocol);
    if (protocolName == QLatin1String("line"))
        options.protocol = ReplayOptions::Protocol::Line;
    else if (protocolName != QLatin1String("ws"))
        return fail(QStringLiteral("--protocol must be ws or line, not \"%1\"").arg(protocolName));
    options.tls = parser.isSet(tls);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() == 2 && options.tls) {
        options.certFile = positional[0];
        options.keyFile = positional[1];
    } else if (!positional.isEmpty()) {
        return fail(QStringLiteral("unexpected arguments: %1 (--tls takes CERT KEY or nothing)")
                        .arg(positional.join(QLatin1Char(' '))));
    }
    if (parser.isSet(cert) || parser.isSet(key)) {
        options.tls = true;
        options.certFile = parser.value(cert);
        options.keyFile = parser.value(key);
    }
    options.misbehave = parser.value(misbehave);
    options.after = number(after, 0, &ok);
    options.silentMs = number(silentMs, 0, &ok);
    options.dropEvery = parser.isSet(dropEvery);
    options.oversizedBytes = number(size, options.oversizedBytes, &ok);
    options.gapCount = number(gap, 1, &ok);
    options.authSession = parser.value(authSession);
    options.pingMs = number(pingMs, 0, &ok);
    options.market = parser.isSet(market);
    options.shutdownGraceMs = number(shutdownGraceMs, options.shutdownGraceMs, &ok);
    options.maxAgeMs = number(maxAgeMs, 0, &ok);
    options.maxStreams = int(number(maxStreams, quint64(options.maxStreams), &ok));
    options.perStream = parser.isSet(perStream);
    if (parser.isSet(status503)) {
        const QStringList parts = parser.value(status503).split(QLatin1Char(','));
        bool ok2 = parts.size() == 2;
        options.status503After = ok2 ? parts[0].toULongLong(&ok2) : 0;
        if (ok2)
            options.status503Count = parts[1].toULongLong(&ok2);
        if (!ok2)
            return fail(QStringLiteral("--status503 takes AFTER,COUNT"));
    }
    if (parser.isSet(clockOffsetMs)) {
        bool offsetOk = false;
        options.clockOffsetMs = parser.value(clockOffsetMs).toLongLong(&offsetOk);
        if (!offsetOk)
            return fail(QStringLiteral("--clock-offset-ms takes an integer (ms, may be negative)"));
    }
    options.conflatedEvery = number(conflatedEvery, 0, &ok);
    options.segmentEvery = number(segmentEvery, 0, &ok);
    options.imageAfter = number(imageAfter, 0, &ok);
    const quint64 portNumber = number(port, 0, &ok);
    const quint64 idleExitMs = number(idleExit, 0, &ok);
    if (!ok || portNumber > 65535)
        return fail(QStringLiteral("numeric options take non-negative integers (port <= 65535)"));
    const QHostAddress listenAddress(parser.value(address));
    if (listenAddress.isNull())
        return fail(QStringLiteral("--address: not an IP address: %1").arg(parser.value(address)));
    if (const QString error = options.validate(); !error.isEmpty())
        return fail(error);

    // Quit through the event loop, so that the server is destroyed (its connections aborted)
    // rather than the process killed mid-write.
    TerminationSignals terminationSignals;
    QObject::connect(&terminationSignals, &TerminationSignals::terminationRequested, &app, &QCoreApplication::quit);
    std::unique_ptr<QObject> running;
    if (parser.isSet(file)) {
        CaptureServer::Options captureOptions;
        const QString speedText = parser.value(speed);
        if (speedText == QLatin1String("max")) {
            captureOptions.speed = 0;
        } else {
            captureOptions.speed = speedText.toDouble(&ok);
            if (!ok || !(captureOptions.speed > 0) || captureOptions.speed > 1e6)
                return fail(QStringLiteral("--speed takes a positive number or max, not \"%1\"").arg(speedText));
        }
        captureOptions.loop = options.loop;
        captureOptions.tls = options.tls;
        if (!options.certFile.isEmpty() || !options.keyFile.isEmpty()) {
            if (options.certFile.isEmpty() || options.keyFile.isEmpty())
                return fail(QStringLiteral("--cert and --key go together"));
            InputFile::Limits limits;
            limits.maxBytes = InputFile::kMaxPemBytes;
            limits.timeout = InputFile::kSmallFileTimeout;
            QString error;
            const auto certPem = InputFile::readAll(options.certFile, limits, &error);
            const auto keyPem = certPem ? InputFile::readAll(options.keyFile, limits, &error) : std::nullopt;
            if (!certPem || !keyPem)
                return fail(error);
            captureOptions.certPem = *certPem;
            captureOptions.keyPem = *keyPem;
        }
        auto *server = new CaptureServer(captureOptions);
        running.reset(server);
        // Refused when it holds no capture line at all; later problems (a file cut short, lines
        // skipped) are said once, after what could be served was.
        if (!server->open(parser.value(file)))
            return fail(server->errorString());
        QObject::connect(server, &CaptureServer::problem, server, &say);
        if (!server->listen(listenAddress, quint16(portNumber)))
            return fail(QStringLiteral("cannot listen: %1").arg(server->errorString()));
        printPort(server->port());
        if (idleExitMs > 0) {
            auto *idleTimer = new QTimer(&app);
            idleTimer->setSingleShot(true);
            idleTimer->setInterval(std::chrono::milliseconds(idleExitMs));
            QObject::connect(idleTimer, &QTimer::timeout, &app, &QCoreApplication::quit);
            QObject::connect(server, &CaptureServer::clientConnected, idleTimer, &QTimer::stop);
            QObject::connect(server, &CaptureServer::clientDisconnected, idleTimer, [server, idleTimer] {
                if (server->connectionCount() <= 1)
                    idleTimer->start();
            });
            idleTimer->start();
        }
        return app.exec();
    }
    ReplayServer server(options);
    if (!server.listen(listenAddress, quint16(portNumber)))
        return fail(QStringLiteral("cannot listen: %1").arg(server.errorString()));
    printPort(server.port());

    if (idleExitMs > 0) {
        auto *idleTimer = new QTimer(&app);
        idleTimer->setSingleShot(true);
        idleTimer->setInterval(std::chrono::milliseconds(idleExitMs));
        QObject::connect(idleTimer, &QTimer::timeout, &app, &QCoreApplication::quit);
        QObject::connect(&server, &ReplayServer::clientConnected, idleTimer, &QTimer::stop);
        QObject::connect(&server, &ReplayServer::clientDisconnected, idleTimer, [&server, idleTimer] {
            if (server.connectionCount() == 0)
                idleTimer->start();
        });
        idleTimer->start();
    }
    return app.exec();
}
