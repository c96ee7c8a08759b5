#pragma once

// The clients and measurements of streamscope-bench-client, one entry point each, each in a
// file of its own; ClientMain.cpp picks one by --client. Throughput clients return their
// window (ThroughputWindow.h); the other measurements the JSON object the driver reads.
//
// Thread contract: the client process's main thread; each runs the event loop until done.

#include "ThroughputWindow.h"

#include <QtCore/QJsonObject>
#include <QtCore/QUrl>

namespace streamscope::bench {

// wire (WireClient.cpp): the physical limit, WireReader; over TLS lines, a QSslSocket that only
// splits lines. `latency` (stamped runs) receives the stamp's latency in the engine's buckets.
ThroughputWindow runWire(const QUrl &url, quint64 count, bool stamped, double timeoutS, QJsonObject *latency);
// qws (QwsClient.cpp): a bare QWebSocket counting its messages; over TLS lines
// QSslSocket::readLine(), or with `wireLines` the wire client's line splitter.
ThroughputWindow runQws(const QUrl &url, quint64 count, bool wireLines, double timeoutS);
// engine-raw, engine-parsed: runEngine() (EngineClient.h). app (AppClient.cpp) and record
// (RecordClient.cpp) are engine-parsed with more around it.
ThroughputWindow runApp(const QUrl &url, quint64 count, double timeoutS);
ThroughputWindow runRecord(const QUrl &url, quint64 count, bool stamped, double timeoutS, QJsonObject *latency);

// stop (StopClient.cpp): stop → Stopped and restart → first message on an idle stream and on
// a firehose, `iterations` each.
QJsonObject runStop(const QUrl &idleUrl, const QUrl &firehoseUrl, int iterations);
// scale, scale-qws (ScaleClient.cpp): `streams` streams sharing the URL's rate; the engine
// with the GUI-side poll, or bare QWebSockets. `count` > 0: every connection's exact count.
QJsonObject runScale(const QUrl &url, int streams, double seconds, quint64 count);
QJsonObject runScaleQws(const QUrl &url, int streams, double seconds);
// books (BooksClient.cpp): depth streams with local order books on or off.
QJsonObject runBooks(const QUrl &url, int streams, int instruments, double seconds, bool books);
// soak (SoakClient.cpp): a long paced run, RSS over time and the exact count.
QJsonObject runSoak(const QUrl &url, quint64 count, double seconds);

} // namespace streamscope::bench
