#include "ClientSupport.h"

#include "BenchClock.h"
#include "ReplayServer.h"

#include <QtCore/QEventLoop>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTimer>

#include <cstdio>

namespace streamscope::bench {

namespace {

WebSocketClient s_webSocketClient = WebSocketClient::Qt;
QEventLoop *g_waiting = nullptr; // the innermost waitFor()'s loop

} // namespace

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

void printJson(const QJsonObject &o)
{
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

void setWebSocketClient(WebSocketClient client)
{
    s_webSocketClient = client;
}

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

QJsonObject latencyJson(const LatencySnapshot &l)
{
    return QJsonObject{{QStringLiteral("p50"), l.percentileUs(0.5)},
                       {QStringLiteral("p99"), l.percentileUs(0.99)},
                       {QStringLiteral("p999"), l.percentileUs(0.999)},
                       {QStringLiteral("count"), double(l.count)},
                       {QStringLiteral("negative"), double(l.negative)}};
}

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

} // namespace streamscope::bench
