// The `record` client: engine-parsed while the stream records to disk (zstd level 1,
// docs/capture.md). The measured CPU is the whole process's, so it includes the capture
// writer thread's compression; worker_cpu_us_per_msg is the hot path's share. After the window
// it waits for the writer to write (or drop) what it holds, and reports recorded, dropped and
// bytes written.

#include "Clients.h"

#include "ClientSupport.h"
#include "EngineClient.h"

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QThread>

namespace streamscope::bench {

namespace {

class RecordHooks final : public EngineRunHooks {
public:
    bool configure(StreamConfig &config, QString *) override
    {
        const QString dir = tempDir().filePath(QStringLiteral("record"));
        QDir(dir).removeRecursively();
        config.record.dir = dir;
        config.record.compress = true;
        return true;
    }

    void started(Engine &) override { }

    void finished(Engine &engine, StreamId id, ThroughputWindow &w) override
    {
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
};

} // namespace

ThroughputWindow runRecord(const QUrl &url, quint64 count, bool stamped, double timeoutS, QJsonObject *latency)
{
    RecordHooks hooks;
    EngineRun run;
    run.parsed = true;
    run.stamped = stamped;
    run.timeoutS = timeoutS;
    run.latency = latency;
    run.hooks = &hooks;
    return runEngine(url, count, run);
}

} // namespace streamscope::bench
