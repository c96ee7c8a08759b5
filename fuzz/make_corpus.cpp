// Writes the fuzzers' seed corpora (fuzz/corpus/<target>/) from the replay server's scenarios
// (replay/ScenarioPool) and from the unit tests' examples, in each fuzzer's input format
// (its option bytes first; the fuzz_<target>.cpp headers describe them). Run by hand when a
// scenario or a seed changes:
//   build/fuzz/fuzz/fuzz_make_corpus fuzz/corpus
// Existing files of the same name are overwritten; nothing else is removed.

#include "ScenarioPool.h"
#include "WebSocketWire.h"

#include <QtCore/QByteArray>
#include <QtCore/QCryptographicHash>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QList>

#include <zstd.h>

#include <cstdio>

using namespace streamscope::replay;

namespace {

// The decoder fuzzer's long messages reach its prefix path; larger ones are left out, so
// that seeds stay within its -max_len (scripts/fuzz.sh).
constexpr qsizetype kMaxSeedBytes = 24 * 1024;

const char *const kScenarios[] = {"small_aggtrade",    "medium_kline",  "large_depth20",
                                  "xlarge_depth_diff", "multiplex_mix", "betfair_mcm"};

class Corpus {
public:
    Corpus(const QString &root, const char *target)
        : m_dir(QDir(root).filePath(QLatin1String(target)))
    {
        QDir().mkpath(m_dir);
    }
    // Named after the content, as libFuzzer names what it adds.
    void add(const QByteArray &input)
    {
        const QByteArray name = QCryptographicHash::hash(input, QCryptographicHash::Sha1).toHex();
        QFile f(QDir(m_dir).filePath(QString::fromLatin1(name)));
        if (!f.open(QIODevice::WriteOnly) || f.write(input) != input.size()) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(f.fileName()));
            std::exit(1);
        }
        ++m_count;
    }
    int count() const { return m_count; }

private:
    QString m_dir;
    int m_count = 0;
};

QList<QByteArray> scenarioMessages(const char *name, int count)
{
    QList<QByteArray> out;
    const auto pool = ScenarioPool::get(QLatin1String(name));
    if (!pool)
        return out;
    for (const PoolMessage &m : pool->messages()) {
        if (out.size() >= count)
            break;
        if (m.json.size() <= kMaxSeedBytes)
            out.append(m.json);
    }
    if (pool->isChangeStream()) {
        for (const PoolMessage *m : {&pool->heartbeat(), &pool->subImage(), &pool->resubDelta(), &pool->status503(),
                                     &pool->conflated(), &pool->segment(0), &pool->segment(1), &pool->segment(2)})
            out.append(m->json);
    }
    out.append(pool->badJson().json);
    return out;
}

// Responses and control messages that the head scanner and the decoder see besides data
// (tst_headscanner, tst_betfairvenue, docs/venues.md).
const QList<QByteArray> kResponses = {
    R"({"result":null,"id":1})",
    R"({"result":["btcusdt@aggTrade"],"id":"list-7"})",
    R"({"error":{"code":2,"msg":"Invalid request"},"id":3})",
    R"({"code":-1121,"msg":"Invalid symbol."})",
    R"({"id":"abc","status":200,"result":{"serverTime":1700000000000}})",
    R"({"id":9,"status":429,"error":{"code":-1003,"msg":"Too many requests."}})",
    R"({"op":"connection","connectionId":"002-051134157842-432409"})",
    R"({"op":"status","id":1,"statusCode":"SUCCESS","connectionClosed":false,"connectionsAvailable":9})",
    R"({"op":"status","id":2,"statusCode":"FAILURE","errorCode":"NO_APP_KEY","connectionClosed":true})",
    R"({"op":"mcm","id":2,"clk":"AIEBAJ4BAIEB","pt":1449855402068,"ct":"HEARTBEAT"})",
    R"({"e":"serverShutdown","E":1700000000000})",
    R"([{"e":"24hrTicker","E":1700000000000,"s":"BTCUSDT"},{"e":"24hrTicker","E":1700000000001,"s":"ETHUSDT"}])",
    R"({"stream":"btcusdt@depth@100ms","data":{"e":"depthUpdate","E":1700000000000,"s":"BTCUSDT","U":10,"u":12,"pu":9,"b":[],"a":[]}})",
    R"({"ts":1700000000000123,"E":"1700000000000"})",
    R"(  {"E" : 1.5e12 , "s":"A\u0042"} )",
    R"("just a string")",
    R"(null)",
};

QByteArray le64(qint64 v)
{
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[i] = char(quint64(v) >> (8 * i));
    return out;
}

// A masked client frame (RFC 6455 §5.2) with a fixed key.
QByteArray clientFrame(quint8 opcode, const QByteArray &payload, bool fin = true)
{
    QByteArray out;
    out.append(char((fin ? kFin : 0) | opcode));
    const auto n = quint64(payload.size());
    if (n <= kMaxInlineLength) {
        out.append(char(kMask | n));
    } else if (n <= kMaxLength16) {
        out.append(char(kMask | kLength16Marker));
        out.append(char(n >> 8)).append(char(n & 0xff));
    } else {
        out.append(char(kMask | kLength64Marker));
        for (int k = 7; k >= 0; --k)
            out.append(char((n >> (8 * k)) & 0xff));
    }
    const char key[kMaskKeySize] = {'\x12', '\x34', '\x56', '\x78'};
    out.append(key, kMaskKeySize);
    for (qsizetype k = 0; k < payload.size(); ++k)
        out.append(char(payload[k] ^ key[k % kMaskKeySize]));
    return out;
}

// An unmasked server frame, as the native websocket transport reads them; `rsv` in the first byte.
QByteArray serverFrame(quint8 opcode, const QByteArray &payload, bool fin = true, quint8 rsv = 0)
{
    QByteArray out;
    out.append(char((fin ? kFin : 0) | rsv | opcode));
    const auto n = quint64(payload.size());
    if (n <= kMaxInlineLength) {
        out.append(char(n));
    } else if (n <= kMaxLength16) {
        out.append(char(kLength16Marker));
        out.append(char(n >> 8)).append(char(n & 0xff));
    } else {
        out.append(char(kLength64Marker));
        for (int k = 7; k >= 0; --k)
            out.append(char((n >> (8 * k)) & 0xff));
    }
    return out + payload;
}

QByteArray closePayload(quint16 code, const QByteArray &reason)
{
    QByteArray out;
    out.append(char(code >> 8)).append(char(code & 0xff));
    return out + reason;
}

const QList<QByteArray> kWorkspaces = {
    // docs/workspace.md's example, without its notes.
    R"({ "version": 1,
  "streams": [
    { "name": "btc-trades", "venue": "binance",
      "url": "wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade",
      "subscribe": ["ethusdt@aggTrade"], "mode": "parsed",
      "latency_field": "/data/E", "latency_unit": "ms", "stall_timeout_ms": 30000 },
    { "name": "any-feed", "venue": "generic", "url": "ws://127.0.0.1:9000/feed",
      "headers": {"X-Token": "env:FEED_TOKEN"}, "send_on_connect": ["{\"op\":\"hello\"}"],
      "latency_field": "/ts", "latency_unit": "us" },
    { "name": "bf-markets", "venue": "betfair", "url": "tls://stream-api.betfair.com:443",
      "auth": {"app_key": "keychain:betfair-app-key", "session": "env:BF_SESSION"},
      "market_subscription": {"marketFilter": {"marketIds": ["1.120684740"]},
                              "marketDataFilter": {"fields": ["EX_BEST_OFFERS"]}},
      "heartbeat_ms": 5000 } ],
  "alerts": [{"stream": "btc-trades", "metric": "latency_p99_ms", "above": 250}],
  "layout": {"splitter": [3, 1]} })",
    R"({"version":1,"streams":[{"name":"a","url":"tcp://127.0.0.1:9000","venue":"betfair","reconnect_on_stall":true,
 "reconnect_base_ms":500,"reconnect_max_ms":30000,"ping_interval_ms":0,"pong_timeout_ms":10000,
 "connect_timeout_ms":5000,"max_message_bytes":65536,"inspector_capacity":100,"futures":false,
 "max_connection_age_ms":0,"rollover_overlap_max_ms":5000,"max_streams_per_connection":200,
 "order_subscription":{},"tls":{"ca_file":"ca.pem"},"colour":"red"}]})",
    R"({"version":1,"streams":[{"name":"a","url":"ws://user:pass@127.0.0.1:1/x"}]})",
    R"({"version":1,"streams":[{"name":"a","url":"ws://127.0.0.1:1/x","headers":{"Authorization":"Bearer x"}}]})",
    R"({"version":1,"streams":[{"name":"a","url":"ws://127.0.0.1:1/x","stall_timeout_ms":"30000"}]})",
    R"({"version":2,"streams":[]})",
    R"({"version":1,"streams":[{"name":"a","url":"ws://127.0.0.1:1/x"},{"name":"a","url":"ws://[::1]:2/y"}]})",
    R"([1,2,3])",
    R"({"version":1,"streams":[{"name":"a","url":"ws://127.0.0.1:1/x",)",
};

// A capture (docs/capture.md) of the scenario's messages: the header event, messages, a binary
// frame, a message with CR LF, a close; `broken` adds a line that is not a capture line and
// ends inside a line.
QByteArray captureText(const char *scenario, const char *venue, const char *url, bool broken)
{
    QByteArray text = QByteArray("2026-11-30T10:00:00.000000Z#{\"event\":\"capture\",\"venue\":\"") + venue
        + "\",\"url\":\"" + url + "\",\"stream\":\"s\"}\n";
    int n = 0;
    for (const QByteArray &m : scenarioMessages(scenario, 4))
        text += "2026-11-30T10:00:00." + QByteArray::number(100000 + ++n).rightJustified(6, '0') + "Z " + m + '\n';
    text += "2026-11-30T10:00:01.000000Z=AAH/\n2026-11-30T10:00:01.000001Z=YQ0KYg==\n";
    if (broken)
        text += "not a capture line\n2026-11-30T10:00:01.000002Z!x\n";
    text += "2026-11-30T10:00:01.500000Z#{\"event\":\"closed\",\"code\":1006,\"reason\":\"\",\"shard\":0}\n";
    if (broken)
        text += "2026-11-30T10:00:02.000000Z {\"cut";
    return text;
}

QByteArray zstd(const QByteArray &text)
{
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(text.size()))), Qt::Uninitialized);
    const std::size_t n =
        ZSTD_compress(out.data(), std::size_t(out.size()), text.constData(), std::size_t(text.size()), 3);
    return ZSTD_isError(n) ? QByteArray() : out.left(qsizetype(n));
}

const QList<QByteArray> kRequests = {
    "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9464\r\nAccept: application/openmetrics-text;version=1.0.0,"
    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\nUser-Agent: Prometheus/2.45.0\r\n\r\n",
    "HEAD /metrics HTTP/1.0\nHost: x\nConnection: keep-alive\n\n",
    "GET /metrics?a=b HTTP/1.1\r\n\r\nGET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n",
    "POST /metrics HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello",
    "GET / HTTP/2.0\r\n\r\n",
    "GET /\r\n\r\n",
    "GET /metrics HTTP/1.1\r\nConnection: Keep-Alive\r\nconnection: TE\r\n folded\r\n\r\n",
};

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    const QString root = QString::fromLocal8Bit(argv[1]);

    QList<QByteArray> messages = kResponses;
    for (const char *name : kScenarios)
        messages += scenarioMessages(name, 3);

    Corpus head(root, "headscanner");
    for (const QByteArray &m : messages)
        head.add(m);

    // Option byte: profile (0 generic, 1 Binance, 2 Betfair) and pointer index (fuzz_messagedecoder.cpp).
    Corpus decoder(root, "messagedecoder");
    for (const QByteArray &m : messages) {
        const bool betfair = m.contains("\"op\"") || m.contains("\"pt\"");
        decoder.add(char(betfair ? 2 : 1) + m);
        decoder.add(char(0) + m);
    }
    decoder.add(char(1 << 2) + QByteArray(R"({"E":1700000000000})"));        // "/E"
    decoder.add(char(4 << 2) + QByteArray(R"({"ts":"1700000000000123"})"));  // "/ts"
    decoder.add(char(15 << 2) + QByteArray("/data/1/E\n") + kResponses[11]); // a pointer of its own

    // Option byte (profile, identity, symbol, leave some out), split seed, then the messages of
    // one read separated by '\n' (fuzz_messagebatch.cpp): a scenario's messages in a row, with
    // its responses and a bad message among them, and the responses alone.
    Corpus batch(root, "messagebatch");
    qint64 batchSeed = 1;
    for (const char *name : kScenarios) {
        QList<QByteArray> read;
        for (const QByteArray &m : scenarioMessages(name, 8))
            if (m.size() < 2048 && !m.contains('\n'))
                read.append(m);
        if (read.isEmpty())
            continue;
        const bool betfair = qstrcmp(name, "betfair_mcm") == 0;
        const char profile = char(betfair ? 2 : 1);
        batch.add(profile + le64(batchSeed++) + read.join('\n'));
        batch.add(char(profile | 4 | 8) + le64(batchSeed++) + read.join('\n'));
        QList<QByteArray> mixed = read;
        mixed.insert(1, kResponses[0]);
        mixed.insert(mixed.size() / 2, kResponses[13]);
        batch.add(char(profile | 16) + le64(batchSeed++) + mixed.join('\n'));
    }
    batch.add(char(0) + le64(batchSeed++) + kResponses.join('\n'));

    // Option bytes: limit (0: 16 MiB), split seed.
    Corpus lines(root, "lineframer");
    const QList<QByteArray> betfair = scenarioMessages("betfair_mcm", 6);
    QByteArray session;
    for (const QByteArray &m : betfair)
        session += m + "\r\n";
    lines.add(QByteArray(2, '\0') + session);
    lines.add(QByteArray("\x00\x07", 2) + session.left(400) + "\n\n\r\n" + session.mid(400, 300));
    lines.add(QByteArray("\x20\x01", 2) + "short\r\nline over thirty-two bytes long, to the limit\r\n\r\r\nx\r");
    lines.add(QByteArray("\x05\x02", 2) + "abcde\r\nabcdef\nabcde\r\r\n");

    // Flag byte, U, u (and pu with bit 4) per event (fuzz_sequencetracker.cpp).
    Corpus seq(root, "sequencetracker");
    QByteArray spot;
    QByteArray futures;
    qint64 u = qint64(ScenarioPool::kFirstSeq);
    for (int i = 0; i < 6; ++i) {
        const qint64 first = u + 1;
        const qint64 last = first + qint64(ScenarioPool::kSeqSpan);
        spot += char(i % 2) + le64(first) + le64(last);
        futures += char(16 | (i % 2)) + le64(first) + le64(last) + le64(u);
        u = last;
    }
    seq.add(spot);
    seq.add(futures);
    seq.add(char(0) + le64(INT64_MAX - 2) + le64(INT64_MAX) + char(0) + le64(INT64_MAX) + le64(INT64_MAX) + char(0)
            + le64(INT64_MIN) + le64(INT64_MIN));
    seq.add(char(8)
            + QByteArray("\x03"
                         "BNB",
                         4)
            + le64(1) + le64(5) + char(32 | 8)
            + QByteArray("\x03"
                         "BNB",
                         4)
            + le64(100) + le64(90) + char(16) + le64(0) + le64(0) + le64(-1));

    Corpus ws(root, "workspace");
    for (const QByteArray &w : kWorkspaces)
        ws.add(w);

    // Option bytes: limit (0: 1 MiB), split seed.
    Corpus frames(root, "websocketframes");
    const QByteArray subscribe = R"({"method":"SUBSCRIBE","params":["btcusdt@aggTrade"],"id":1})";
    frames.add(QByteArray(2, '\0') + clientFrame(kOpText, subscribe) + clientFrame(kOpPing, "ping")
               + clientFrame(kOpClose, closePayload(kCloseNormal, "bye")));
    frames.add(QByteArray("\x00\x03", 2) + clientFrame(kOpText, subscribe.left(10), false)
               + clientFrame(kOpPong, QByteArray()) + clientFrame(kOpContinuation, subscribe.mid(10), false)
               + clientFrame(kOpContinuation, QByteArray(), true) + clientFrame(kOpClose, QByteArray()));
    frames.add(QByteArray("\x00\x05", 2) + clientFrame(kOpBinary, QByteArray(300, 'b'))
               + clientFrame(kOpText, QByteArray(70000, 't')).left(40));
    frames.add(QByteArray("\x10\x09", 2) + clientFrame(kOpText, QByteArray(100, 'x')));
    frames.add(QByteArray("\x00\x0b", 2) + QByteArray("\x81\x05hello", 7));
    frames.add(QByteArray("\x00\x0c", 2) + clientFrame(kOpText | kRsv1, "x") + clientFrame(0x3, "y"));

    // Option bytes: limit (0: 1 MiB, else n × 16), split seed (fuzz_wsframereader.cpp).
    Corpus reader(root, "wsframereader");
    const QByteArray agg = R"({"e":"aggTrade","E":1700000000000,"s":"BTCUSDT","a":1,"p":"1.5","q":"2"})";
    reader.add(QByteArray(2, '\0') + serverFrame(kOpText, agg) + serverFrame(kOpText, agg) + serverFrame(kOpPing, "p")
               + serverFrame(kOpClose, closePayload(kCloseNormal, "bye")));
    reader.add(QByteArray("\x00\x03", 2) + serverFrame(kOpText, agg.left(10), false) + serverFrame(kOpPing, "x")
               + serverFrame(kOpContinuation, agg.mid(10, 20), false) + serverFrame(kOpPong, QByteArray())
               + serverFrame(kOpContinuation, agg.mid(30)) + serverFrame(kOpClose, QByteArray()));
    reader.add(QByteArray("\x00\x05", 2) + serverFrame(kOpBinary, QByteArray(300, 'b'))
               + serverFrame(kOpText, QByteArray(70000, 't')).left(40));
    reader.add(QByteArray("\x04\x09", 2) + serverFrame(kOpText, QByteArray(100, 'x')));
    reader.add(QByteArray("\x00\x0b", 2) + clientFrame(kOpText, agg));
    reader.add(QByteArray("\x00\x0c", 2) + serverFrame(kOpText, "\"\xe2\x82", false)
               + serverFrame(kOpContinuation, "\xac\"") + serverFrame(kOpText, "x", true, kRsv1));
    reader.add(QByteArray("\x00\x0d", 2) + serverFrame(kOpText, "\"\xe2\x82", false)
               + serverFrame(kOpContinuation, "(\""));
    reader.add(QByteArray("\x00\x0e", 2) + serverFrame(kOpText, "{}") + serverFrame(kOpClose, closePayload(1012, "")));

    // Option bytes: request-line limit, header limit (0: the product's), split seed.
    Corpus http(root, "httprequesthead");
    for (const QByteArray &r : kRequests)
        http.add(QByteArray(3, '\0') + r);
    http.add(QByteArray("\x08\x04\x01", 3) + kRequests[0]);

    const QList<QByteArray> captures = {
        captureText("small_aggtrade", "binance", "wss://stream.binance.com:9443/ws/btcusdt@aggTrade", false),
        captureText("betfair_mcm", "betfair", "tls://stream-api.betfair.com:443", false),
        captureText("multiplex_mix", "generic", "ws://127.0.0.1:9000/feed", true),
    };
    // Option bytes: mode (0 as it is, 1 zstd frames, 2 frames cut short, 3 a byte changed),
    // line limit (28 + 16 · n), split seed (fuzz_capturereader.cpp).
    Corpus captureReader(root, "capturereader");
    for (const QByteArray &c : captures) {
        for (char mode = 0; mode < 4; ++mode)
            captureReader.add(QByteArray(1, mode) + QByteArray("\xff\x01", 2) + c);
        captureReader.add(QByteArray("\x00\x08\x02", 3) + c);       // a limit that skips the long lines
        captureReader.add(QByteArray("\x00\xff\x03", 3) + zstd(c)); // zstd data for the fuzzer to change
    }
    // Option bytes: bit 0 compress, bit 1 --loop; the clients' seed (fuzz_replayfile.cpp).
    Corpus replayFile(root, "replayfile");
    for (const QByteArray &c : captures) {
        for (char options = 0; options < 4; ++options)
            replayFile.add(QByteArray(1, options) + char(0x5a) + c);
        replayFile.add(QByteArray("\x02\x11", 2) + zstd(c));
    }

    // Option byte: strict parsing (bit 0), the secret to plant (bits 1-3), its name (bits 4-7)
    // (fuzz_urlsecrets.cpp); then the URL.
    Corpus urls(root, "urlsecrets");
    const std::pair<int, const char *> kUrls[] = {
        {0x00, "wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade/ethusdt@depth"},
        {0x01, "ws://user%3ASECRET@127.0.0.1:1/feed"},
        {0x02, "wss://host/feed?a=1;token=SECRET&b=2"},
        {0x17, "https://host/#/cb?state=1&access_token=SECRET"},
        {0x2c, "https://host/app;jsessionid=SECRET/feed?x=1#section"},
        {0x08, "ws://u:p@host/a b?pwd=x&passwd=y"},
        {0x39, "wss://host/feed?token=env:FEED_TOKEN;key=keychain:k#pwd=env:P"},
        {0x4a, "tls://stream-api.betfair.com:443"},
        {0x05, "http://127.0.0.1:9464/api/v1/streams"},
        {0x06, "wss://host/feed?%2574oken=SECRET&x=%26token%3Dy"},
    };
    for (const auto &[options, url] : kUrls)
        urls.add(char(options) + QByteArray(url));

    std::printf(
        "seeds: headscanner %d, messagedecoder %d, messagebatch %d, lineframer %d, sequencetracker %d, workspace %d, "
        "websocketframes %d, wsframereader %d, httprequesthead %d, capturereader %d, replayfile %d, urlsecrets %d\n",
        head.count(), decoder.count(), batch.count(), lines.count(), seq.count(), ws.count(), frames.count(),
        reader.count(), http.count(), captureReader.count(), replayFile.count(), urls.count());
    return 0;
}
