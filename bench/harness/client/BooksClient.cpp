#include "Clients.h"

#include "BenchClock.h"
#include "ClientSupport.h"
#include "ScaleWindow.h"

#include "Engine.h"

#include <QtCore/QUrlQuery>

namespace streamscope::bench {

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

} // namespace streamscope::bench
