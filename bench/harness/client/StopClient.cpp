#include "Clients.h"

#include "BenchClock.h"
#include "ClientSupport.h"

#include "Engine.h"

#include <algorithm>
#include <vector>

namespace streamscope::bench {

// Stop and restart as a user sees them: stopStream() on the Engine's thread, until the
// Engine reports Stopped there; restartStream() until the first data message (state Live).
// counted_after_stop: messages the stream counted after it reported Stopped (0: counts exact
// across the stop).
QJsonObject runStop(const QUrl &idleUrl, const QUrl &firehoseUrl, int iterations)
{
    Engine engine;
    StreamId watched = 0;
    StreamState lastState = StreamState::Unknown;
    qint64 stateAtNs = 0;
    QObject::connect(&engine, &Engine::stateChanged, [&](StreamId id, StreamState state, const QString &) {
        if (id != watched)
            return;
        lastState = state;
        stateAtNs = monotonicNs();
        wake();
    });
    QJsonObject out;
    std::vector<double> restartMs;
    for (const bool firehose : {false, true}) {
        StreamConfig c = streamConfigFor(firehose ? firehoseUrl : idleUrl, true, false);
        const StreamId id = engine.addStream(c);
        watched = id;
        auto connectedState = [&] {
            const StreamState s = engine.snapshot(id).state;
            return firehose ? s == StreamState::Live : (s == StreamState::Subscribing || s == StreamState::Live);
        };
        std::vector<double> stopMs;
        int failures = 0;
        quint64 countedAfterStop = 0;
        for (int i = 0; i < iterations; ++i) {
            if (!waitFor(connectedState, 5000)) {
                ++failures;
                continue;
            }
            waitFor([] { return false; }, firehose ? 20 : 5); // let it run (or sit idle) a moment
            lastState = StreamState::Unknown;
            const qint64 t0 = monotonicNs();
            engine.stopStream(id);
            if (!waitFor([&] { return lastState == StreamState::Stopped; }, 5000)) {
                ++failures;
                continue;
            }
            stopMs.push_back(double(stateAtNs - t0) / 1e6);
            // Counts exact across the stop: once Stopped is reported, no message is counted.
            const quint64 atStop = engine.snapshot(id).messages;
            waitFor([] { return false; }, firehose ? 5 : 1);
            countedAfterStop += engine.snapshot(id).messages - atStop;
            const qint64 t1 = monotonicNs();
            engine.restartStream(id);
            if (firehose) {
                if (!waitFor([&] { return lastState == StreamState::Live; }, 5000)) {
                    ++failures;
                    continue;
                }
                restartMs.push_back(double(stateAtNs - t1) / 1e6);
            }
        }
        engine.removeStream(id);
        QJsonObject o{{QStringLiteral("p50"), quantile(stopMs, 0.5)},
                      {QStringLiteral("p99"), quantile(stopMs, 0.99)},
                      {QStringLiteral("max"), stopMs.empty() ? 0.0 : *std::max_element(stopMs.begin(), stopMs.end())},
                      {QStringLiteral("n"), double(stopMs.size())},
                      {QStringLiteral("failures"), failures},
                      {QStringLiteral("counted_after_stop"), double(countedAfterStop)}};
        out[firehose ? QStringLiteral("firehose") : QStringLiteral("idle")] = o;
    }
    out[QStringLiteral("restart_first_message_ms")] = QJsonObject{{QStringLiteral("p50"), quantile(restartMs, 0.5)},
                                                                  {QStringLiteral("p99"), quantile(restartMs, 0.99)},
                                                                  {QStringLiteral("n"), double(restartMs.size())}};
    return out;
}

} // namespace streamscope::bench
