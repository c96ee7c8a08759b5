#pragma once

// The measured window the many-stream runs share (scale, scale-qws, books): wait until every
// stream has data, settle, then count messages and the process's CPU over the window; and the
// engine's figures they read.
//
// Thread contract: the client process's main thread (it runs the event loop while it waits).

#include "Engine.h"

#include <QtCore/QJsonObject>

#include <functional>

namespace streamscope::bench {

// How many of the engine's streams have had data, and how many messages they all received.
int streamsWithData(Engine &engine);
quint64 messagesReceived(Engine &engine);

// Waits until every stream has data (60 s, longer while more streams come up), settles for 2 s, then counts messages and
// process CPU over `seconds` (`onTick` runs at each 1 ms tick of it). Returns streams,
// live_streams, all_live, seconds, msgs_per_s, cpu_percent and rss_mb.
QJsonObject measureScaleWindow(int streams, double seconds, const std::function<int()> &liveStreams,
                               const std::function<quint64()> &messages, const std::function<void()> &onTick = {});

} // namespace streamscope::bench
