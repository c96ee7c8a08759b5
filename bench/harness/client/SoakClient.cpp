#include "Clients.h"

#include "BenchClock.h"
#include "ClientSupport.h"

#include "Engine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QTimer>

#include <algorithm>

namespace streamscope::bench {

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

} // namespace streamscope::bench
