#pragma once

// What the clients of streamscope-bench-client share: the replay server's certificate as a CA
// file, the kinds of URL, the one JSON line a client prints, the stream configuration every
// engine client runs (and which websocket client it uses), the latency figures as JSON, and a
// wait that runs the event loop.
//
// Thread contract: the client process's main thread (the one running the event loop).

#include "LatencySnapshot.h"
#include "StreamConfig.h"
#include "StreamSnapshot.h"

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QTemporaryDir>
#include <QtCore/QUrl>

#include <functional>

namespace streamscope::bench {

// The process's temporary folder (the CA file, a workspace, a recording), removed at exit.
QTemporaryDir &tempDir();
// The replay server's built-in certificate, written once into tempDir(): every client's CA.
QString caFile();

bool isLineUrl(const QUrl &url); // tcp:// or tls://: Betfair-style lines
bool isWssUrl(const QUrl &url);

// One compact JSON object on its own line of standard output (the driver reads the last one).
void printJson(const QJsonObject &o);

// The websocket client of every engine stream this process opens (QtWebSockets by default; a
// client name ending in "-native" asks for our own framing, NativeWebSocketTransport).
void setWebSocketClient(WebSocketClient client);

// The stream an engine client watches: Binance on a websocket URL, Betfair over tls://, or
// with `stamped` a generic stream whose latency is the {"ts":ns} stamp; order books off (the
// read and decode alone: `books` measures them).
StreamConfig streamConfigFor(const QUrl &url, bool parsed, bool stamped);
// The messages a stream delivered: data, and on a line stream its heartbeats too.
quint64 delivered(const StreamSnapshot &s, bool line);
// p50, p99, p99.9, count and negative of a latency histogram.
QJsonObject latencyJson(const LatencySnapshot &l);

// Waits (running the event loop, never spinning) until pred() holds or timeoutMs passes;
// pred() is checked every millisecond and whenever wake() is called. False on the timeout.
bool waitFor(const std::function<bool()> &pred, int timeoutMs);
void wake();

} // namespace streamscope::bench
