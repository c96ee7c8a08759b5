#include "EngineClient.h"

#include "BenchClock.h"
#include "ClientSupport.h"

#include <QtCore/QEventLoop>
#include <QtCore/QTimer>

namespace streamscope::bench {

ThroughputWindow runEngine(const QUrl &url, quint64 count, const EngineRun &run)
{
    ThroughputWindow w;
    w.count = count;
    const bool line = isLineUrl(url);
    StreamConfig config = streamConfigFor(url, run.parsed, run.stamped);
    if (run.hooks && !run.hooks->configure(config, &w.error))
        return w;
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
    if (run.hooks)
        run.hooks->started(engine);
    QTimer::singleShot(int(run.timeoutS * 1000), &loop, [&] {
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
    if (run.hooks)
        run.hooks->finished(engine, id, w);
    if (run.latency)
        *run.latency = latencyJson(s.latency);
    return w;
}

} // namespace streamscope::bench
