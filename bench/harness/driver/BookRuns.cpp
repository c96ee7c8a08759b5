#include "BookRuns.h"

#include "BenchFormat.h"

#include <QtCore/QJsonDocument>

namespace streamscope::bench {

namespace {

// One table row of a run: its rate, CPU, µs a message (process and workers), RSS, books synced.
QString row(const QString &name, const QJsonObject &o)
{
    const int total = o.value(QStringLiteral("books_total")).toInt();
    const QString books = o.value(QStringLiteral("books")).toBool()
        ? QStringLiteral("%1/%2").arg(o.value(QStringLiteral("books_synced")).toInt()).arg(total)
        : QStringLiteral("off");
    return QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 |\n")
        .arg(name, num(o.value(QStringLiteral("msgs_per_s")).toDouble(), 0),
             num(o.value(QStringLiteral("cpu_percent")).toDouble(), 1),
             num(o.value(QStringLiteral("cpu_us_per_msg")).toDouble(), 2),
             num(o.value(QStringLiteral("worker_cpu_us_per_msg")).toDouble(), 2),
             num(o.value(QStringLiteral("rss_mb")).toDouble(), 1), books,
             num(o.value(QStringLiteral("gaps")).toDouble() + o.value(QStringLiteral("parse_errors")).toDouble(), 0));
}

} // namespace

BookRunResult runBookBench(const BookRunOptions &options,
                           const std::function<QJsonObject(const QStringList &, double)> &runClient,
                           const std::function<QString(const QString &, const QString &)> &scenarioUrl)
{
    BookRunResult result;
    const double streamRate = options.ratePerInstrument * options.instrumentsPerStream;
    auto run = [&](const QString &query, int streams, int instruments, double seconds, bool books) {
        return runClient(QStringList{QStringLiteral("--client"), QStringLiteral("books"), QStringLiteral("--url"),
                                     scenarioUrl(QStringLiteral("depth_books"), query), QStringLiteral("--streams"),
                                     QString::number(streams), QStringLiteral("--instruments"),
                                     QString::number(instruments), QStringLiteral("--seconds"),
                                     QString::number(seconds), QStringLiteral("--books"),
                                     books ? QStringLiteral("on") : QStringLiteral("off")},
                         seconds + 240);
    };
    const QString paced = QStringLiteral("loop=1&rate=%1").arg(streamRate);
    const QJsonObject manyOff = run(paced, options.streams, options.instrumentsPerStream, options.seconds, false);
    const QJsonObject manyOn = run(paced, options.streams, options.instrumentsPerStream, options.seconds, true);
    const QJsonObject fireOff = run(QStringLiteral("loop=1"), 1, 1, options.firehoseSeconds, false);
    const QJsonObject fireOn = run(QStringLiteral("loop=1"), 1, 1, options.firehoseSeconds, true);
    result.json = QJsonObject{{QStringLiteral("depth_books_1000"),
                               QJsonObject{{QStringLiteral("off"), manyOff}, {QStringLiteral("on"), manyOn}}},
                              {QStringLiteral("depth_firehose"),
                               QJsonObject{{QStringLiteral("off"), fireOff}, {QStringLiteral("on"), fireOn}}}};

    const int books = options.streams * options.instrumentsPerStream;
    const double perBookKiB =
        (manyOn.value(QStringLiteral("rss_mb")).toDouble() - manyOff.value(QStringLiteral("rss_mb")).toDouble())
        * 1024.0 / books;
    const QString header =
        QStringLiteral("| run | msgs/s | CPU % of one core | CPU µs/msg | worker CPU µs/msg | RSS MB | "
                       "books synced | gaps + parse errors |\n|---|---|---|---|---|---|---|---|\n");
    result.markdown =
        QStringLiteral("## Order books\n\n`depth_books_1000`: %1 instruments × %2 diffs/s (%3 streams of %4), %5 s "
                       "each; `depth_firehose`: one instrument as fast as it is read, %6 s each.\n\n")
            .arg(books)
            .arg(options.ratePerInstrument)
            .arg(options.streams)
            .arg(options.instrumentsPerStream)
            .arg(options.seconds)
            .arg(options.firehoseSeconds)
        + header + row(QStringLiteral("depth_books_1000, books off"), manyOff)
        + row(QStringLiteral("depth_books_1000, books on"), manyOn)
        + row(QStringLiteral("depth_firehose, books off"), fireOff)
        + row(QStringLiteral("depth_firehose, books on"), fireOn)
        + QStringLiteral("\nMemory per book (RSS with books on − off, ÷ %1 books; 40 levels a side): %2 KiB.\n\n")
              .arg(books)
              .arg(num(perBookKiB, 1));
    return result;
}

} // namespace streamscope::bench
