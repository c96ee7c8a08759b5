#pragma once

// The engine clients (engine-raw, engine-parsed and, through their hooks, app and record): the
// Engine with one stream, watched by a 1 ms poll of its snapshot, the only observer (a few µs
// a millisecond, in the measured CPU). The first poll that sees data opens the window, the one
// that sees `count` messages closes it. The stream's websocket client is the process's
// (setWebSocketClient(), ClientSupport.h).
//
// Thread contract: the client process's main thread; run() runs the event loop until the
// window closes or the time limit passes.

#include "ThroughputWindow.h"

#include "Engine.h"

#include <QtCore/QJsonObject>
#include <QtCore/QUrl>

namespace streamscope::bench {

// What a client built on the engine client adds to its run (AppClient, RecordClient).
class EngineRunHooks {
public:
    virtual ~EngineRunHooks() = default;
    // The stream's configuration, before the engine gets it; false (with `error`): no run.
    virtual bool configure(StreamConfig &config, QString *error) = 0;
    // The engine runs the stream; the window is not open yet.
    virtual void started(Engine &engine) = 0;
    // The window closed (or the time ran out); `window.extra` takes the client's figures.
    virtual void finished(Engine &engine, StreamId id, ThroughputWindow &window) = 0;
};

struct EngineRun {
    bool parsed = false;  // engine-parsed: every message decoded; else counted (engine-raw)
    bool stamped = false; // the latency runs' {"ts":ns} stamp is the latency
    double timeoutS = 120;
    QJsonObject *latency = nullptr; // receives latencyJson() of the stream's histogram
    EngineRunHooks *hooks = nullptr;
};

ThroughputWindow runEngine(const QUrl &url, quint64 count, const EngineRun &run);

} // namespace streamscope::bench
