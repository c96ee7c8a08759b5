#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

class QUrl;

namespace streamscope::replay {

// What a replay server sends and how it misbehaves. The server holds one set of defaults;
// a websocket client can override any of them for its own connection through the request
// path and query (see fromUrl). A plain value type: copy it freely between threads.
struct ReplayOptions {
    enum class Protocol { WebSocket, Line };
    enum class Misbehaviour {
        None = 0,
        Silent,      // stop sending data after `after` messages, keep the connection
        Drop,        // abort the connection after `after` messages
        BadFrame,    // a frame with RSV1 set: the client must close with 1002
        InvalidUtf8, // a text frame holding invalid UTF-8: the client closes with 1007
        Oversized,   // one message of `oversizedBytes`: 1009 on a client with a lower limit
        BadJson,     // every `after`-th message is malformed JSON (counts as sent)
        Gap,         // depth diff: skip `gapCount` updates once, after `after` messages
        Shutdown,    // a Binance serverShutdown notice after `after` messages (once per URL
                     // unless dropEvery), then the connection closes `shutdownGraceMs` later
    };

    QString scenario = QStringLiteral("small_aggtrade");
    quint64 count = 0;  // 0 = the scenario's default count (docs/benchmarks.md)
    double rate = 0;    // messages per second; 0 = firehose
    bool loop = false;  // send forever, round-robin over the pool; count is ignored
    bool stamp = false; // prefix each message with "ts":<send time, ns since epoch>
    Protocol protocol = Protocol::WebSocket;
    bool tls = false; // wss / TLS lines; without files, the built-in certificate
    QString certFile;
    QString keyFile;

    QString misbehave;      // empty|silent|drop|bad_frame|invalid_utf8|oversized|bad_json|gap|shutdown
    quint64 after = 0;      // data messages sent before the misbehaviour
    quint64 silentMs = 0;   // silent: resume after this long (0 = never)
    bool dropEvery = false; // drop: every connection drops, not only the first one
    quint64 oversizedBytes = 20ull * 1024 * 1024;
    quint64 gapCount = 1; // gap: depth-diff updates skipped

    bool waitSubscribe = false; // websocket: no data until the first SUBSCRIBE
    bool idle = false;          // never send data; still answer control messages
    quint64 pingMs = 0;         // websocket: the server pings every pingMs (0 = never)
    QString authSession;        // line protocol: authentication must carry this session
    qint64 clockOffsetMs = 0;   // event times and the server-time answer shifted by this (ms)
    quint64 lagMsPerS = 0;      // data event times fall further behind by this much every second

    // Venue behaviour (Binance-like)
    bool market = false;            // connections of one scenario share one event sequence: a new
                                    // connection starts where the furthest one is (trade ids "a"
                                    // follow the sequence), as two real connections would see
    quint64 shutdownGraceMs = 1000; // shutdown: the connection closes this long after the notice
    quint64 maxAgeMs = 0;           // the server closes a connection this old (Binance: 24 h); 0 never
    int maxStreams = 1024;          // SUBSCRIBE beyond this many streams on one connection: error
    bool perStream = false;         // after each SUBSCRIBE, one message per newly subscribed stream
    // depth_books: the connection sends the instruments S<first>USDT .. in turn, each its own book
    quint64 instruments = 1;
    quint64 firstInstrument = 0;

    // Venue behaviour (Betfair-like, line protocol; message indices count from 0)
    quint64 status503After = 0; // messages [after, after + count) carry "status":503
    quint64 status503Count = 0;
    quint64 conflatedEvery = 0; // every K-th message has mc[].con=true
    quint64 segmentEvery = 0;   // every K-th group of messages ends with SEG_START, SEG, SEG_END (K >= 4)
    quint64 imageAfter = 0;     // message K is a SUB_IMAGE (mid-stream), 0 never

    // The count actually sent (count, or the scenario's default when count is 0).
    quint64 effectiveCount() const;
    Misbehaviour misbehaviour() const;

    // A copy of base with the overrides of a websocket request target applied:
    //   /<scenario>?count=N&rate=R&loop=1&stamp=1&misbehave=KIND&after=K&silent_ms=D
    //   &drop_every=1&size=BYTES&gap=k&wait_subscribe=1&idle=1&ping_ms=T&scenario=NAME
    //   &market=1&shutdown_grace_ms=T&max_age_ms=T&max_streams=N&per_stream=1&clock_offset_ms=N
    //   &lag_ms_per_s=N
    // A path that is not a scenario name ("/", "/stream", "/ws/btcusdt@aggTrade") keeps
    // the default scenario, so real Binance URLs work unchanged.
    static ReplayOptions fromUrl(const ReplayOptions &base, const QUrl &url);
    // The Binance streams named by the URL (/ws/<name> or /stream?streams=a/b).
    static QStringList streamsFromUrl(const QUrl &url);
    // Empty if the options are usable, otherwise what is wrong with them.
    QString validate() const;
};

// Scenario names in the order of docs/benchmarks.md.
QStringList scenarioNames();
// The message count of a scenario in docs/benchmarks.md (0 if unknown).
quint64 scenarioDefaultCount(const QString &scenario);

} // namespace streamscope::replay
