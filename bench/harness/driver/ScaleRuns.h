#pragma once

// The scale curve of the benchmark (docs/benchmarks.md, "Scale"): many streams sharing one
// total rate (100,000 msgs/s by default) at 100, 1,000, 3,000 and 10,000 streams, each point
// read by the engine on QtWebSockets (`scale`), on the native transport (`scale-native`) and by
// bare QWebSockets (`scale-qws`), each in a client process of its own
// (streamscope-bench-client --client scale...): CPU, RSS and RSS per stream, the lag of the
// thread that polls the streams at 10 Hz, how many rows a poll read, and whether every message
// arrived once.
//
// Thread contract: the benchmark driver's thread.

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <functional>

namespace streamscope::bench {

struct ScaleRunOptions {
    QList<int> streams{100, 1000, 3000, 10000};
    double totalRate = 100000; // msgs/s over all streams; each stream gets totalRate / streams
    double seconds = 30;       // the measured window of each run
};

struct ScaleRunResult {
    QJsonObject json; // "points": one object per stream count: {streams, rate, engine, native, qws}
    QString markdown;
};

// `runClient(args, timeoutS)` runs the bench client and returns its JSON; `scenarioUrl(name,
// query)` is the replay server's websocket URL of a scenario.
ScaleRunResult runScaleCurve(const ScaleRunOptions &options,
                             const std::function<QJsonObject(const QStringList &, double)> &runClient,
                             const std::function<QString(const QString &, const QString &)> &scenarioUrl);

} // namespace streamscope::bench
