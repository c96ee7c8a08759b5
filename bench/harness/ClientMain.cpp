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

#include "BenchClock.h"
#include "PacedSender.h"
#include "WireReader.h"

#include "Engine.h"
#include "ReplayServer.h"
#include "Report.h"
#include "StatsFormat.h"
#include "TlsConfiguration.h"
#include "Workspace.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTextStream>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QSslSocket>
#include <QtWebSockets/QWebSocket>

#ifdef Q_OS_UNIX
#include <sys/resource.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>

using namespace streamscope;
using namespace streamscope::bench;

namespace {

QTemporaryDir &tempDir()
{
    static QTemporaryDir dir;
    return dir;
}

QString caFile()
{
    const QString path = tempDir().filePath(QStringLiteral("ca.pem"));
    if (!QFile::exists(path)) {
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(replay::builtinCertificatePem());
    }
    return path;
}

bool isLineUrl(const QUrl &url)
{
    return url.scheme() == QLatin1String("tls") || url.scheme() == QLatin1String("tcp");
}

bool isWssUrl(const QUrl &url)
{
    return url.scheme() == QLatin1String("wss");
}

void print(const QJsonObject &o)
{
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

// The window of one throughput run, as every client reports it.
struct Window {
    quint64 count = 0;
    quint64 received = 0;
    quint64 receivedAtFirst = 0;
    qint64 firstNs = 0;
    qint64 lastNs = 0;
    double cpuFirstUs = 0;
    double cpuLastUs = 0;
    double sizeMedian = 0;
    QString error;
    QJsonObject extra;

    QJsonObject json(const QString &client) const
    {
        QJsonObject o = extra;
        o[QStringLiteral("client")] = client;
        o[QStringLiteral("count")] = double(count);
        o[QStringLiteral("received")] = double(received);
        const double n = double(count - std::min(count, receivedAtFirst));
        const double seconds = double(lastNs - firstNs) / 1e9;
        const bool ok = received >= count && seconds > 0 && n > 0;
        o[QStringLiteral("ok")] = ok;
        o[QStringLiteral("seconds")] = seconds;
        o[QStringLiteral("msgs_per_s")] = ok ? n / seconds : 0.0;
        o[QStringLiteral("cpu_us_per_msg")] = ok ? (cpuLastUs - cpuFirstUs) / n : 0.0;
        o[QStringLiteral("size_bytes")] = sizeMedian;
        o[QStringLiteral("rss_kib")] = double(residentKiB());
        if (!error.isEmpty())
            o[QStringLiteral("error")] = error;
        return o;
    }
};

// The websocket client of every engine stream this process opens: a client name ending in
// "-native" (engine-raw-native, engine-parsed-native, scale-native...) runs the engine with
// our own framing (NativeWebSocketTransport) instead of QtWebSockets.
WebSocketClient s_webSocketClient = WebSocketClient::Qt;
const QString kNativeSuffix = QStringLiteral("-native");

StreamConfig streamConfigFor(const QUrl &url, bool parsed, bool stamped)
{
    StreamConfig c;
    c.name = QStringLiteral("bench");
    c.url = url;
    c.transport = s_webSocketClient;
    c.mode = parsed ? DecodeMode::Parsed : DecodeMode::Raw;
    c.stallTimeoutMs = 600000;
    c.pingIntervalMs = 0;
    c.book = false; // the read and decode alone: `--books` measures the books (BookRuns)
    if (isLineUrl(url)) {
        qputenv("STREAMSCOPE_BENCH_APP_KEY", "app-key");
        qputenv("STREAMSCOPE_BENCH_SESSION", "session-token");
        c.venue = Venue("betfair");
        c.appKey = QStringLiteral("env:STREAMSCOPE_BENCH_APP_KEY");
        c.session = QStringLiteral("env:STREAMSCOPE_BENCH_SESSION");
        c.marketSubscription =
            QJsonObject{{QStringLiteral("marketFilter"),
                         QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.2345")}}}}};
        c.caFile = caFile();
    } else if (stamped) {
        c.venue = Venue::Generic;
        c.latencyField = QStringLiteral("/ts");
        c.latencyUnit = LatencyUnit::Nanoseconds;
    } else {
        c.venue = Venue("binance");
    }
    if (isWssUrl(url))
        c.caFile = caFile();
    return c;
}

quint64 delivered(const StreamSnapshot &s, bool line)
{
    return line ? s.dataMessages + s.heartbeats : s.dataMessages;
}

// Engine clients: the 1 ms poll of one stream's snapshot is the only observer (a few µs a
// millisecond, in the measured CPU). The first poll that sees data opens the window.
// `record`: the stream also records to disk (zstd, docs/capture.md); the measured CPU is the
// whole process's, so it includes the capture writer thread's compression.
Window runEngine(const QUrl &url, quint64 count, bool parsed, bool stamped, bool app, double timeoutS,
                 QJsonObject *latency, bool record = false)
{
    Window w;
    w.count = count;
    const bool line = isLineUrl(url);
    StreamConfig config = streamConfigFor(url, parsed, stamped);
    if (record) {
        QDir(tempDir().filePath(QStringLiteral("record"))).removeRecursively();
        config.record.dir = tempDir().filePath(QStringLiteral("record"));
        config.record.compress = true;
    }
    if (app) {
        // The application path: a workspace file on disk, read by Workspace::load as the app reads it.
        QJsonObject stream = Workspace::streamToJson(config);
        QJsonObject ws{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), QJsonArray{stream}}};
        const QString path = tempDir().filePath(QStringLiteral("workspace.json"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(ws).toJson());
        f.close();
        Workspace workspace;
        const Workspace::LoadResult loaded = Workspace::load(path, workspace);
        if (!loaded.ok || workspace.streams.isEmpty()) {
            w.error = QStringLiteral("workspace: ") + loaded.error;
            return w;
        }
        config = workspace.streams.first();
    }
    Engine engine;
    const StreamId id = engine.addStream(config);
    QEventLoop loop;
    QTimer poll;
    poll.setTimerType(Qt::PreciseTimer);
    poll.setInterval(1);
    double workerFirstUs = 0;
    double workerLastUs = 0;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        const StreamSnapshot s = engine.snapshot(id);
        const quint64 n = delivered(s, line);
        if (n && !w.firstNs) {
            w.firstNs = monotonicNs();
            w.cpuFirstUs = processCpuUs();
            workerFirstUs = threadsCpuUs("engine-worker");
            w.receivedAtFirst = n;
        }
        if (n >= count) {
            w.lastNs = monotonicNs();
            w.cpuLastUs = processCpuUs();
            workerLastUs = threadsCpuUs("engine-worker");
            w.received = n;
            loop.quit();
        }
    });
    // What the running application does besides: the GUI models' 10 Hz snapshot poll of
    // every stream with latency, and the headless runner's live line once a second.
    QTimer guiPoll;
    QTimer liveLines;
    QVector<StreamSnapshot> previous;
    QTextStream err(stderr);
    if (app) {
        guiPoll.setInterval(100);
        QObject::connect(&guiPoll, &QTimer::timeout, [&] { (void)engine.snapshot(true); });
        liveLines.setInterval(1000);
        previous = engine.snapshot(true);
        QObject::connect(&liveLines, &QTimer::timeout, [&] {
            const QVector<StreamSnapshot> now = engine.snapshot(true);
            for (qsizetype i = 0; i < now.size() && i < previous.size(); ++i)
                err << app::liveLine(now[i], app::ratesBetween(previous[i], now[i]),
                                     now[i].latency.minus(previous[i].latency))
                    << '\n';
            err.flush();
            previous = now;
        });
        guiPoll.start();
        liveLines.start();
    }
    QTimer::singleShot(int(timeoutS * 1000), &loop, [&] {
        w.error = QStringLiteral("timeout");
        loop.quit();
    });
    poll.start();
    loop.exec();
    poll.stop();
    const StreamSnapshot s = engine.snapshot(id, true);
    if (!w.received)
        w.received = delivered(s, line);
    w.extra[QStringLiteral("parse_errors")] = double(s.parseErrors);
    w.extra[QStringLiteral("gaps")] = double(s.gaps);
    // The worker threads alone (Linux; in 10 ms ticks): what recording costs the hot path,
    // without the capture writer's compression.
    if (workerFirstUs >= 0 && w.lastNs && w.received > w.receivedAtFirst)
        w.extra[QStringLiteral("worker_cpu_us_per_msg")] =
            (workerLastUs - workerFirstUs) / double(w.received - w.receivedAtFirst);
    if (record) {
        // After the window: what the writer still holds is written (or dropped) within moments.
        QElapsedTimer drain;
        drain.start();
        StreamSnapshot r = engine.snapshot(id);
        while (r.record.messages + r.record.dropped < r.messages && drain.elapsed() < 10000) {
            QThread::msleep(20);
            r = engine.snapshot(id);
        }
        w.extra[QStringLiteral("recorded")] = double(r.record.messages);
        w.extra[QStringLiteral("record_dropped")] = double(r.record.dropped);
        w.extra[QStringLiteral("record_bytes")] = double(r.record.bytesWritten);
        if (!r.record.error.isEmpty())
            w.extra[QStringLiteral("record_error")] = r.record.error;
    }
    if (app) {
        QString error;
        app::writeReport(tempDir().filePath(QStringLiteral("report.json")),
                         app::buildReport(engine.snapshot(true), 1.0), &error);
    }
    if (latency) {
        const LatencySnapshot &l = s.latency;
        *latency = QJsonObject{{QStringLiteral("p50"), l.percentileUs(0.5)},
                               {QStringLiteral("p99"), l.percentileUs(0.99)},
                               {QStringLiteral("p999"), l.percentileUs(0.999)},
                               {QStringLiteral("count"), double(l.count)},
                               {QStringLiteral("negative"), double(l.negative)}};
    }
    return w;
}

// qws over a websocket; over TLS lines, the transport library's own limit is QSslSocket
// with readLine().
Window runQt(const QUrl &url, quint64 count, bool wireLines, double timeoutS)
{
    Window w;
    w.count = count;
    QEventLoop loop;
    std::vector<quint32> sizes;
    sizes.reserve(count);
    auto onMessage = [&](qsizetype size) {
        if (!w.received) {
            w.firstNs = monotonicNs();
            w.cpuFirstUs = processCpuUs();
            w.receivedAtFirst = 1;
        }
        ++w.received;
        sizes.push_back(quint32(size));
        if (w.received == count) {
            w.lastNs = monotonicNs();
            w.cpuLastUs = processCpuUs();
            loop.quit();
        }
    };
    QWebSocket ws;
    QSslSocket ssl;
    QByteArray buffer;
    bool dataStarted = false;
    if (isLineUrl(url)) {
        QString error;
        StreamConfig c = streamConfigFor(url, false, false);
        ssl.setSslConfiguration(tlsConfiguration(c, &error));
        QObject::connect(&ssl, &QSslSocket::encrypted, [&] {
            ssl.write("{\"op\":\"authentication\",\"id\":1,\"appKey\":\"app-key\",\"session\":\"session-token\"}\r\n"
                      "{\"op\":\"marketSubscription\",\"id\":2,\"marketFilter\":{\"marketIds\":[\"1.2345\"]}}\r\n");
        });
        QObject::connect(&ssl, &QSslSocket::readyRead, [&] {
            if (wireLines) {
                // wire: split lines in a reused buffer, count, nothing else.
                buffer += ssl.readAll();
                qsizetype start = 0;
                for (;;) {
                    const qsizetype nl = buffer.indexOf('\n', start);
                    if (nl < 0)
                        break;
                    if (!dataStarted && buffer.mid(start, 11) == "{\"op\":\"mcm\"")
                        dataStarted = true;
                    if (dataStarted)
                        onMessage(nl - start - 1);
                    start = nl + 1;
                    if (w.received >= count)
                        break;
                }
                buffer.remove(0, start);
            } else {
                while (ssl.canReadLine()) {
                    const QByteArray lineBytes = ssl.readLine();
                    if (!dataStarted && lineBytes.startsWith("{\"op\":\"mcm\""))
                        dataStarted = true;
                    if (dataStarted)
                        onMessage(lineBytes.size() - 2);
                    if (w.received >= count)
                        break;
                }
            }
        });
        ssl.connectToHostEncrypted(url.host(), quint16(url.port()), QStringLiteral("127.0.0.1"));
    } else {
        QObject::connect(&ws, &QWebSocket::textMessageReceived, [&](const QString &m) { onMessage(m.size()); });
        QObject::connect(&ws, &QWebSocket::binaryMessageReceived, [&](const QByteArray &m) { onMessage(m.size()); });
        if (isWssUrl(url)) {
            // The CA trusted and the peer verified, as the engine's transport does.
            QString error;
            ws.setSslConfiguration(tlsConfiguration(streamConfigFor(url, false, false), &error));
            QObject::connect(&ws, &QWebSocket::sslErrors, [&](const QList<QSslError> &errors) {
                w.error = QStringLiteral("TLS: ") + errors.value(0).errorString();
                loop.quit();
            });
        }
        ws.setMaxAllowedIncomingMessageSize(64 * 1024 * 1024);
        ws.setMaxAllowedIncomingFrameSize(64 * 1024 * 1024);
        ws.open(url);
    }
    QTimer::singleShot(int(timeoutS * 1000), &loop, [&] {
        w.error = QStringLiteral("timeout");
        loop.quit();
    });
    if (w.received < count)
        loop.exec();
    w.sizeMedian = quantile(sizes, 0.5);
    return w;
}

Window runWire(const QUrl &url, quint64 count, bool stamped, double timeoutS, QJsonObject *latency)
{
    if (isLineUrl(url))
        return runQt(url, count, true, timeoutS);
    WireReader::Result r =
        WireReader::run(url.toString().toStdString(), count, stamped, timeoutS,
                        isWssUrl(url) ? replay::builtinCertificatePem().toStdString() : std::string());
    Window w;
    w.count = count;
    w.received = r.received;
    w.receivedAtFirst = r.receivedAtFirst;
    w.firstNs = r.firstNs;
    w.lastNs = r.lastNs;
    w.cpuFirstUs = r.cpuFirstUs;
    w.cpuLastUs = r.cpuLastUs;
    w.sizeMedian = quantile(r.sizes, 0.5);
    w.error = QString::fromStdString(r.error);
    if (latency) {
        // The engine's own buckets, so that both sides are bucketed alike.
        LatencySnapshot l;
        for (const std::int64_t ns : r.latencyNs)
            l.record(ns / 1000);
        *latency = QJsonObject{{QStringLiteral("p50"), l.percentileUs(0.5)},
                               {QStringLiteral("p99"), l.percentileUs(0.99)},
                               {QStringLiteral("p999"), l.percentileUs(0.999)},
                               {QStringLiteral("count"), double(l.count)},
                               {QStringLiteral("negative"), double(l.negative)}};
    }
    return w;
}

// Waits (running the event loop, never spinning) until pred() holds or timeoutMs passes;
// pred() is checked every millisecond and whenever wake() is called.
QEventLoop *g_waiting = nullptr;
void wake()
{
    if (g_waiting)
        g_waiting->quit();
}
bool waitFor(const std::function<bool()> &pred, int timeoutMs)
{
    const qint64 deadline = monotonicNs() + qint64(timeoutMs) * 1000000;
    QEventLoop loop;
    QEventLoop *outer = g_waiting;
    g_waiting = &loop;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    QObject::connect(&tick, &QTimer::timeout, &loop, &QEventLoop::quit);
    tick.start(1);
    bool ok = true;
    while (!pred()) {
        if (monotonicNs() > deadline) {
            ok = false;
            break;
        }
        loop.exec();
    }
    g_waiting = outer;
    return ok;
}

// Stop and restart as a user sees them: stopStream() on the Engine's thread, until the
// Engine reports Stopped there; restartStream() until the first data message (state Live).
// counted_after_stop: messages the stream counted after it reported Stopped (0: counts exact
// across the stop).
QJsonObject runStop(const QUrl &idleUrl, const QUrl &firehoseUrl, int iterations)
{
    Engine engine;
    StreamId watched = 0;
    StreamState lastState = StreamState::Unknown;
    qint64 stateAtNs = 0;
    QObject::connect(&engine, &Engine::stateChanged, [&](StreamId id, StreamState state, const QString &) {
        if (id != watched)
            return;
        lastState = state;
        stateAtNs = monotonicNs();
        wake();
    });
    QJsonObject out;
    std::vector<double> restartMs;
    for (const bool firehose : {false, true}) {
        StreamConfig c = streamConfigFor(firehose ? firehoseUrl : idleUrl, true, false);
        const StreamId id = engine.addStream(c);
        watched = id;
        auto connectedState = [&] {
            const StreamState s = engine.snapshot(id).state;
            return firehose ? s == StreamState::Live : (s == StreamState::Subscribing || s == StreamState::Live);
        };
        std::vector<double> stopMs;
        int failures = 0;
        quint64 countedAfterStop = 0;
        for (int i = 0; i < iterations; ++i) {
            if (!waitFor(connectedState, 5000)) {
                ++failures;
                continue;
            }
            waitFor([] { return false; }, firehose ? 20 : 5); // let it run (or sit idle) a moment
            lastState = StreamState::Unknown;
            const qint64 t0 = monotonicNs();
            engine.stopStream(id);
            if (!waitFor([&] { return lastState == StreamState::Stopped; }, 5000)) {
                ++failures;
                continue;
            }
            stopMs.push_back(double(stateAtNs - t0) / 1e6);
            // Counts exact across the stop: once Stopped is reported, no message is counted.
            const quint64 atStop = engine.snapshot(id).messages;
            waitFor([] { return false; }, firehose ? 5 : 1);
            countedAfterStop += engine.snapshot(id).messages - atStop;
            const qint64 t1 = monotonicNs();
            engine.restartStream(id);
            if (firehose) {
                if (!waitFor([&] { return lastState == StreamState::Live; }, 5000)) {
                    ++failures;
                    continue;
                }
                restartMs.push_back(double(stateAtNs - t1) / 1e6);
            }
        }
        engine.removeStream(id);
        QJsonObject o{{QStringLiteral("p50"), quantile(stopMs, 0.5)},
                      {QStringLiteral("p99"), quantile(stopMs, 0.99)},
                      {QStringLiteral("max"), stopMs.empty() ? 0.0 : *std::max_element(stopMs.begin(), stopMs.end())},
                      {QStringLiteral("n"), double(stopMs.size())},
                      {QStringLiteral("failures"), failures},
                      {QStringLiteral("counted_after_stop"), double(countedAfterStop)}};
        out[firehose ? QStringLiteral("firehose") : QStringLiteral("idle")] = o;
    }
    out[QStringLiteral("restart_first_message_ms")] = QJsonObject{{QStringLiteral("p50"), quantile(restartMs, 0.5)},
                                                                  {QStringLiteral("p99"), quantile(restartMs, 0.99)},
                                                                  {QStringLiteral("n"), double(restartMs.size())}};
    return out;
}

// How many of the engine's streams have had data, and how many messages they all received.
int streamsWithData(Engine &engine)
{
    int n = 0;
    for (const StreamSnapshot &s : engine.snapshot())
        n += s.dataMessages > 0;
    return n;
}

quint64 messagesReceived(Engine &engine)
{
    quint64 n = 0;
    for (const StreamSnapshot &s : engine.snapshot())
        n += s.messages;
    return n;
}

// The frame both scale runs share: wait until every stream has data, settle for 2 s, then
// count messages and process CPU over `seconds` (`onTick` runs at each 1 ms tick of it).
// Returns streams, live_streams, all_live, seconds, msgs_per_s, cpu_percent and rss_mb.
QJsonObject measureScaleWindow(int streams, double seconds, const std::function<int()> &liveStreams,
                               const std::function<quint64()> &messages, const std::function<void()> &onTick = {})
{
    const bool allLive = waitFor([&] { return liveStreams() >= streams; }, 60000);
    const int live = liveStreams();
    waitFor([] { return false; }, 2000); // settle
    const quint64 messages0 = messages();
    const double cpu0 = processCpuUs();
    const qint64 t0 = monotonicNs();
    waitFor(
        [&] {
            if (onTick)
                onTick();
            return monotonicNs() - t0 > qint64(seconds * 1e9);
        },
        int(seconds * 1000) + 5000);
    const double cpu1 = processCpuUs();
    const qint64 t1 = monotonicNs();
    const quint64 messages1 = messages();
    const double wall = double(t1 - t0) / 1e9;
    return QJsonObject{{QStringLiteral("streams"), streams},
                       {QStringLiteral("live_streams"), live},
                       {QStringLiteral("all_live"), allLive},
                       {QStringLiteral("seconds"), wall},
                       {QStringLiteral("msgs_per_s"), double(messages1 - messages0) / wall},
                       {QStringLiteral("cpu_percent"), (cpu1 - cpu0) / 1e6 / wall * 100.0},
                       {QStringLiteral("rss_mb"), double(residentKiB()) / 1024.0}};
}

// The poll the desktop window makes (ui/sources/SnapshotHub): ten times a second, reading only
// the streams that changed (Engine::changedSnapshots) into rows kept until the next reading
// replaces them, each poll with the latency of the tenth of the streams it is due for (id
// modulo 10), so that every stream's latency is read once a second. It counts what it read
// and times itself.
class GuiSidePoll {
public:
    explicit GuiSidePoll(Engine &engine)
        : m_engine(engine)
    {
    }
    void poll()
    {
        const qint64 t0 = monotonicNs();
        const StreamId phase = StreamId(++m_polls % 10);
        QVector<StreamSnapshot> read =
            m_engine.changedSnapshots(m_cursor, [phase](StreamId id) { return id % 10 == phase; });
        for (StreamSnapshot &s : read) {
            const auto it = m_rowOf.constFind(s.id);
            if (it == m_rowOf.cend()) {
                m_rowOf.insert(s.id, m_rows.size());
                m_rows.append(std::move(s));
            } else {
                m_rows[*it] = std::move(s);
            }
        }
        m_readRows += quint64(m_cursor.lastRead());
        m_unchangedRows += quint64(m_cursor.lastUnchanged());
        m_pollMs.push_back(double(monotonicNs() - t0) / 1e6);
    }
    void addTo(QJsonObject &out)
    {
        const double polls = double(std::max<quint64>(1, m_pollMs.size()));
        out[QStringLiteral("polls")] = double(m_pollMs.size());
        out[QStringLiteral("poll_rows_read_per_poll")] = double(m_readRows) / polls;
        out[QStringLiteral("poll_rows_unchanged_per_poll")] = double(m_unchangedRows) / polls;
        out[QStringLiteral("poll_ms_p50")] = quantile(m_pollMs, 0.5);
        out[QStringLiteral("poll_ms_p99")] = quantile(m_pollMs, 0.99);
        out[QStringLiteral("poll_ms_max")] =
            m_pollMs.empty() ? 0.0 : *std::max_element(m_pollMs.begin(), m_pollMs.end());
    }

private:
    Engine &m_engine;
    Engine::SnapshotCursor m_cursor;
    QVector<StreamSnapshot> m_rows;
    QHash<StreamId, qsizetype> m_rowOf;
    quint64 m_polls = 0;
    quint64 m_readRows = 0;
    quint64 m_unchangedRows = 0;
    std::vector<double> m_pollMs;
};

// Many streams at a modest rate each: CPU, RSS, and the lag of the thread that would be the
// GUI's (a 10 ms probe timer's lateness) while it polls the streams at 10 Hz as the window does.
// `count` > 0: each connection carries that many messages (the URL says so), and after the
// window the run waits for all of them: counts_exact when every one arrived, none twice.
QJsonObject runScale(const QUrl &url, int streams, double seconds, quint64 count)
{
    Engine engine;
    waitFor([] { return false; }, 200); // the workers started
    const long rssBaseKiB = residentKiB();
    QList<StreamId> ids;
    for (int i = 0; i < streams; ++i) {
        StreamConfig c = streamConfigFor(url, true, false);
        c.name = QStringLiteral("s%1").arg(i);
        c.reconnectBaseMs = 200;
        ids << engine.addStream(c);
    }
    // Which streams have had data, read incrementally (a full read of 10,000 streams at every
    // turn of the wait would be the client's main cost).
    Engine::SnapshotCursor liveCursor;
    QSet<StreamId> live;
    auto liveCount = [&] {
        for (const StreamSnapshot &s : engine.changedSnapshots(liveCursor))
            if (s.dataMessages > 0)
                live.insert(s.id);
        return int(live.size());
    };
    auto messages = [&] { return messagesReceived(engine); };
    std::vector<double> lagMs;
    GuiSidePoll gui(engine);
    long rssMaxKiB = 0;
    QTimer guiPoll;
    guiPoll.setInterval(100);
    QObject::connect(&guiPoll, &QTimer::timeout, [&] {
        gui.poll();
        rssMaxKiB = std::max(rssMaxKiB, residentKiB());
    });
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10);
    qint64 lastProbe = 0;
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = monotonicNs();
        if (lastProbe)
            lagMs.push_back(std::max(0.0, double(now - lastProbe) / 1e6 - 10.0));
        lastProbe = now;
    });
    bool started = false;
    QJsonObject out = measureScaleWindow(streams, seconds, liveCount, messages, [&] {
        if (!started) { // the poll and the probe run only in the measured window
            started = true;
            guiPoll.start();
            probe.start();
        }
    });
    guiPoll.stop();
    probe.stop();
    const double rssMb = out.value(QStringLiteral("rss_mb")).toDouble();
    out[QStringLiteral("rss_max_mb")] = double(rssMaxKiB) / 1024.0;
    out[QStringLiteral("rss_base_mb")] = double(rssBaseKiB) / 1024.0;
    out[QStringLiteral("rss_per_stream_kb")] = (rssMb * 1024.0 - double(rssBaseKiB)) * 1.024 / std::max(1, streams);
    out[QStringLiteral("gui_lag_p50_ms")] = quantile(lagMs, 0.5);
    out[QStringLiteral("gui_lag_p99_ms")] = quantile(lagMs, 0.99);
    out[QStringLiteral("gui_lag_max_ms")] = lagMs.empty() ? 0.0 : *std::max_element(lagMs.begin(), lagMs.end());
    out[QStringLiteral("gui_lag_probe")] =
        QStringLiteral("QCoreApplication, 10 ms timer, 10 Hz poll of the streams that changed");
    gui.addTo(out);
    if (count > 0) {
        const quint64 expected = count * quint64(streams);
        waitFor([&] { return messagesReceived(engine) >= expected; }, 90000);
        waitFor([] { return false; }, 300); // anything beyond the count would show here
        quint64 received = 0, parseErrors = 0, gaps = 0, reconnects = 0;
        for (const StreamSnapshot &s : engine.snapshot()) {
            received += s.dataMessages;
            parseErrors += s.parseErrors;
            gaps += s.gaps;
            reconnects += s.reconnects;
        }
        out[QStringLiteral("expected")] = double(expected);
        out[QStringLiteral("received")] = double(received);
        out[QStringLiteral("parse_errors")] = double(parseErrors);
        out[QStringLiteral("reconnects")] = double(reconnects);
        out[QStringLiteral("counts_exact")] = received == expected && parseErrors == 0 && gaps == 0 && reconnects == 0;
    }
    return out;
}

// Order books at scale (depth_books_1000, depth_firehose; docs/benchmarks.md): `streams`
// Binance depth streams of the replay's depth_books scenario, each carrying `instruments`
// instruments in turn, with a local book per instrument (`books`) or none. With books, the
// window opens once every book is synced (each stream's REST budget syncs 12 at once, so at
// most 12 instruments a stream). Adds books_total, books_synced (at the end), the worker
// threads' CPU µs a message and the whole process's.
QJsonObject runBooks(const QUrl &url, int streams, int instruments, double seconds, bool books)
{
    Engine engine;
    QUrl rest = url;
    rest.setScheme(QStringLiteral("http"));
    rest.setQuery(QString());
    for (int i = 0; i < streams; ++i) {
        QUrl streamUrl = url;
        QUrlQuery query(url);
        query.addQueryItem(QStringLiteral("instruments"), QString::number(instruments));
        query.addQueryItem(QStringLiteral("first_instrument"), QString::number(i * instruments));
        streamUrl.setQuery(query);
        StreamConfig c = streamConfigFor(streamUrl, true, false);
        c.name = QStringLiteral("books%1").arg(i);
        c.restUrl = rest;
        c.book = books;
        c.reconnectBaseMs = 200;
        engine.addStream(c);
    }
    const int total = streams * instruments;
    auto synced = [&] {
        int n = 0;
        for (const StreamSnapshot &s : engine.snapshot(true))
            for (const BookStatus &b : s.books)
                n += b.state == BookState::Synced;
        return n;
    };
    if (books)
        waitFor([&] { return synced() >= total; }, 120000);
    const int syncedAtStart = books ? synced() : 0;
    auto liveCount = [&] { return streamsWithData(engine); };
    auto messages = [&] { return messagesReceived(engine); };
    double worker0 = -1;
    QJsonObject out = measureScaleWindow(streams, seconds, liveCount, messages, [&] {
        if (worker0 < 0)
            worker0 = threadsCpuUs("engine-worker");
    });
    const double worker1 = threadsCpuUs("engine-worker");
    const double perSecond = out.value(QStringLiteral("msgs_per_s")).toDouble();
    const double wall = out.value(QStringLiteral("seconds")).toDouble();
    if (perSecond > 0 && wall > 0) {
        out[QStringLiteral("cpu_us_per_msg")] = out.value(QStringLiteral("cpu_percent")).toDouble() * 1e4 / perSecond;
        if (worker0 >= 0)
            out[QStringLiteral("worker_cpu_us_per_msg")] = (worker1 - worker0) / (perSecond * wall);
    }
    out[QStringLiteral("books")] = books;
    out[QStringLiteral("books_total")] = books ? total : 0;
    out[QStringLiteral("books_synced_at_start")] = syncedAtStart;
    out[QStringLiteral("books_synced")] = books ? synced() : 0;
    quint64 gaps = 0;
    quint64 parseErrors = 0;
    for (const StreamSnapshot &s : engine.snapshot(true)) {
        gaps += s.gaps;
        parseErrors += s.parseErrors;
    }
    out[QStringLiteral("gaps")] = double(gaps);
    out[QStringLiteral("parse_errors")] = double(parseErrors);
    return out;
}

// The transport library's own cost in the scale scenario: bare QWebSockets spread over as many
// threads as the engine has workers, each socket only counting its messages. Same window and
// CPU accounting as runScale, without the engine and without the GUI-side poll.
QJsonObject runScaleQws(const QUrl &url, int streams, double seconds)
{
    struct Group {
        QThread thread;
        QObject *context = nullptr; // lives on `thread`; the sockets are its children
        std::atomic<quint64> messages{0};
        std::atomic<int> started{0};
    };
    const int threads = std::clamp(QThread::idealThreadCount(), 1, 8); // the engine's default worker count
    std::vector<std::unique_ptr<Group>> groups;
    for (int t = 0; t < threads; ++t) {
        auto g = std::make_unique<Group>();
        g->context = new QObject;
        g->context->moveToThread(&g->thread);
        QObject::connect(&g->thread, &QThread::finished, g->context, &QObject::deleteLater);
        g->thread.start();
        Group *group = g.get();
        const int mine = streams / threads + (t < streams % threads ? 1 : 0);
        QMetaObject::invokeMethod(group->context, [group, mine, url] {
            for (int i = 0; i < mine; ++i) {
                auto *ws = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, group->context);
                ws->setMaxAllowedIncomingMessageSize(1024 * 1024);
                auto first = std::make_shared<bool>(true);
                QObject::connect(ws, &QWebSocket::textMessageReceived, ws, [group, first](const QString &) {
                    group->messages.fetch_add(1, std::memory_order_relaxed);
                    if (*first) {
                        *first = false;
                        group->started.fetch_add(1, std::memory_order_relaxed);
                    }
                });
                ws->open(url);
            }
        });
        groups.push_back(std::move(g));
    }
    auto started = [&] {
        int n = 0;
        for (const auto &g : groups)
            n += g->started.load(std::memory_order_relaxed);
        return n;
    };
    auto messages = [&] {
        quint64 n = 0;
        for (const auto &g : groups)
            n += g->messages.load(std::memory_order_relaxed);
        return n;
    };
    QJsonObject out = measureScaleWindow(streams, seconds, started, messages);
    out[QStringLiteral("threads")] = threads;
    for (const auto &g : groups) {
        g->thread.quit();
        g->thread.wait();
    }
    return out;
}

// A long paced run: RSS over time and the exact count at the end.
QJsonObject runSoak(const QUrl &url, quint64 count, double seconds)
{
    Engine engine;
    const StreamId id = engine.addStream(streamConfigFor(url, true, false));
    const qint64 t0 = monotonicNs();
    QJsonArray samples;
    double rssAtMark = 0;
    const double markS = std::min(60.0, seconds / 10.0);
    const double sampleEveryS = std::max(1.0, seconds / 60.0);
    double nextSample = 0;
    quint64 received = 0;
    QTimer guiPoll;
    guiPoll.setInterval(100);
    QObject::connect(&guiPoll, &QTimer::timeout, [&] { (void)engine.snapshot(true); });
    guiPoll.start();
    waitFor(
        [&] {
            const double t = double(monotonicNs() - t0) / 1e9;
            received = engine.snapshot(id).dataMessages;
            if (t >= nextSample) {
                const double rss = double(residentKiB()) / 1024.0;
                samples.append(QJsonArray{t, rss, double(received)});
                if (rssAtMark == 0 && t >= markS)
                    rssAtMark = rss;
                nextSample += sampleEveryS;
            }
            return received >= count;
        },
        int(seconds * 1000) + 30000);
    waitFor([] { return false; }, 500); // anything beyond count would show here
    const StreamSnapshot s = engine.snapshot(id);
    const double rssEnd = double(residentKiB()) / 1024.0;
    return QJsonObject{{QStringLiteral("seconds"), double(monotonicNs() - t0) / 1e9},
                       {QStringLiteral("sent"), double(count)},
                       {QStringLiteral("received"), double(s.dataMessages)},
                       {QStringLiteral("parse_errors"), double(s.parseErrors)},
                       {QStringLiteral("reconnects"), double(s.reconnects)},
                       {QStringLiteral("rss_mark_s"), markS},
                       {QStringLiteral("rss_at_mark_mb"), rssAtMark},
                       {QStringLiteral("rss_end_mb"), rssEnd},
                       {QStringLiteral("rss_growth_percent"), rssAtMark > 0 ? (rssEnd / rssAtMark - 1.0) * 100.0 : 0.0},
                       {QStringLiteral("samples_t_rss_received"), samples}};
}

// The scale run opens up to 10,000 connections: the soft limit raised to the hard one. Windows
// has no such limit on sockets.
void raiseFileLimit()
{
#ifdef Q_OS_UNIX
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
#endif
}

} // namespace

int main(int argc, char **argv)
{
    raiseFileLimit();
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
    if (name.endsWith(kNativeSuffix)) {
        s_webSocketClient = WebSocketClient::Native;
        name.chop(kNativeSuffix.size());
    }
    const QUrl u(parser.value(url));
    const quint64 n = parser.value(count).toULongLong();
    const double timeoutS = parser.value(timeout).toDouble();
    const bool stamp = parser.isSet(stamped);
    QJsonObject latency;
    QJsonObject *lat = stamp ? &latency : nullptr;
    Window w;
    if (name == QLatin1String("sender"))
        return PacedSender::run(parser.value(size).toULongLong(), parser.value(rate).toDouble(), n);
    if (name == QLatin1String("wire")) {
        w = runWire(u, n, stamp, timeoutS, lat);
    } else if (name == QLatin1String("qws")) {
        w = runQt(u, n, false, timeoutS);
    } else if (name == QLatin1String("engine-raw")) {
        w = runEngine(u, n, false, false, false, timeoutS, nullptr);
    } else if (name == QLatin1String("engine-parsed")) {
        w = runEngine(u, n, true, stamp, false, timeoutS, lat);
    } else if (name == QLatin1String("record")) {
        w = runEngine(u, n, true, stamp, false, timeoutS, lat, true);
    } else if (name == QLatin1String("app")) {
        w = runEngine(u, n, true, false, true, timeoutS, nullptr);
    } else if (name == QLatin1String("stop")) {
        print(runStop(QUrl(parser.value(urlIdle)), QUrl(parser.value(urlFirehose)), parser.value(iterations).toInt()));
        return 0;
    } else if (name == QLatin1String("scale")) {
        print(
            runScale(u, parser.value(streams).toInt(), parser.value(seconds).toDouble(), parser.isSet(count) ? n : 0));
        return 0;
    } else if (name == QLatin1String("scale-qws")) {
        print(runScaleQws(u, parser.value(streams).toInt(), parser.value(seconds).toDouble()));
        return 0;
    } else if (name == QLatin1String("books")) {
        print(runBooks(u, parser.value(streams).toInt(), parser.value(instruments).toInt(),
                       parser.value(seconds).toDouble(), parser.value(books) != QLatin1String("off")));
        return 0;
    } else if (name == QLatin1String("soak")) {
        print(runSoak(u, n, parser.value(seconds).toDouble()));
        return 0;
    } else {
        std::fprintf(stderr, "unknown --client %s\n", qPrintable(name));
        return 2;
    }
    if (stamp)
        w.extra[QStringLiteral("latency_us")] = latency;
    print(w.json(requested));
    return w.received >= n ? 0 : 1;
}
