#include "Clients.h"

#include "BenchClock.h"
#include "ClientSupport.h"
#include "GuiSidePoll.h"
#include "ScaleWindow.h"

#include "Engine.h"

#include <QtCore/QHash>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtWebSockets/QWebSocket>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

namespace streamscope::bench {

// Many streams at a modest rate each: CPU, RSS, and the lag of the thread that would be the
// GUI's (a 10 ms probe timer's lateness) while it polls the streams at 10 Hz as the window does.
// `count` > 0: each connection carries that many messages (the URL says so), and after the
// window the run waits for all of them: counts_exact when every one arrived, none twice.
QJsonObject runScale(const QUrl &url, int streams, double seconds, quint64 count)
{
    Engine engine;
    waitFor([] { return false; }, 200); // the workers started
    // Why connections ended: every Disconnected and ReconnectScheduled event's text with its
    // numbers blanked, counted (a few per reconnect, never per message).
    QHash<QString, quint64> reasons;
    QObject::connect(&engine, &Engine::eventOccurred, [&reasons](const StreamEvent &e) {
        if (e.kind != EventKind::Disconnected && e.kind != EventKind::ReconnectScheduled)
            return;
        static const QRegularExpression digits(QStringLiteral("[0-9]+(\\.[0-9]+)?"));
        QString text = e.text.left(160);
        text.replace(digits, QStringLiteral("N"));
        ++reasons[(e.kind == EventKind::Disconnected ? QStringLiteral("disconnected: ") : QStringLiteral("reconnect: "))
                  + text];
    });
    const long rssBaseKiB = residentKiB();
    QList<StreamId> ids;
    for (int i = 0; i < streams; ++i) {
        StreamConfig c = streamConfigFor(url, true, false);
        c.name = QStringLiteral("s%1").arg(i);
        c.reconnectBaseMs = 200;
        // The application's keep-alive: a connection whose count is all sent stays silent until
        // the run ends, and without pings the dead-connection watchdog would reconnect it.
        c.pingIntervalMs = StreamConfig{}.pingIntervalMs;
        ids << engine.addStream(c);
    }
    // Which streams have had data, read incrementally (a full read of 10,000 streams at every
    // turn of the wait would be the client's main cost).
    Engine::SnapshotCursor liveCursor;
    QSet<StreamId> live;
    // Read every 50 ms, not at each 1 ms turn of the wait: during the ramp every stream changes,
    // and reading them all each millisecond took the CPU the workers connect with.
    qint64 liveReadNs = 0;
    auto liveCount = [&] {
        if (const qint64 now = monotonicNs(); now - liveReadNs >= 50'000'000) {
            liveReadNs = now;
            for (const StreamSnapshot &s : engine.changedSnapshots(liveCursor))
                if (s.dataMessages > 0)
                    live.insert(s.id);
        }
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
        // 90 s, and 30 s more each time more messages came, at most 10 minutes: the streams
        // that connected last send their count last.
        bool all = waitFor([&] { return messagesReceived(engine) >= expected; }, 90000);
        for (quint64 last = messagesReceived(engine), turns = 0; !all && turns < 17; ++turns) {
            all = waitFor([&] { return messagesReceived(engine) >= expected; }, 30000);
            const quint64 now = messagesReceived(engine);
            if (now <= last)
                break;
            last = now;
        }
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
        QJsonObject why;
        for (auto it = reasons.cbegin(); it != reasons.cend(); ++it)
            why[it.key()] = double(it.value());
        out[QStringLiteral("disconnect_reasons")] = why;
        out[QStringLiteral("counts_exact")] = received == expected && parseErrors == 0 && gaps == 0 && reconnects == 0;
    }
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

} // namespace streamscope::bench
