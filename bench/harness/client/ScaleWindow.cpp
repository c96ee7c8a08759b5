#include "ScaleWindow.h"

#include "BenchClock.h"
#include "ClientSupport.h"

namespace streamscope::bench {

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

QJsonObject measureScaleWindow(int streams, double seconds, const std::function<int()> &liveStreams,
                               const std::function<quint64()> &messages, const std::function<void()> &onTick)
{
    // Every stream connects, or the ramp stops moving: 60 s, and 30 s more each time more
    // streams came up, at most 10 minutes (10,000 streams on a busy 2-core machine take minutes).
    bool allLive = waitFor([&] { return liveStreams() >= streams; }, 60000);
    for (int lastLive = liveStreams(), turns = 0; !allLive && turns < 18; ++turns) {
        allLive = waitFor([&] { return liveStreams() >= streams; }, 30000);
        const int nowLive = liveStreams();
        if (nowLive <= lastLive)
            break;
        lastLive = nowLive;
    }
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

} // namespace streamscope::bench
