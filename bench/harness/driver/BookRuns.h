#pragma once

// The order-book runs of the benchmark (docs/benchmarks.md, "Order books"): depth_books_1000
// (1,000 instruments × 10 diffs/s of the replay's depth_books scenario, as 100 Binance depth
// streams of 10 instruments each) and depth_firehose (one instrument's diffs as fast as they
// are read), each with the engine's local books off and on, in a client process of its own
// (streamscope-bench-client --client books).
//
// Thread contract: the benchmark driver's thread.

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <functional>

namespace streamscope::bench {

struct BookRunOptions {
    int streams = 100;
    int instrumentsPerStream = 10;
    double ratePerInstrument = 10;
    double seconds = 30;         // depth_books_1000's measured window, each of off and on
    double firehoseSeconds = 10; // depth_firehose's
};

struct BookRunResult {
    QJsonObject json; // depth_books_1000 and depth_firehose, each {off, on}
    QString markdown;
};

// `runClient(args, timeoutS)` runs the bench client and returns its JSON; `scenarioUrl(name,
// query)` is the replay server's websocket URL of a scenario.
BookRunResult runBookBench(const BookRunOptions &options,
                           const std::function<QJsonObject(const QStringList &, double)> &runClient,
                           const std::function<QString(const QString &, const QString &)> &scenarioUrl);

} // namespace streamscope::bench
