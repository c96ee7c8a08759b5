// Workspace files: every error names the file, the key and what was expected; unknown keys
// warn; secrets stay references; a saved workspace loads back the same.

#include "../common/TestRegistry.h"
#include "../common/Unprivileged.h"
#include "ChannelSubscription.h"
#include "Workspace.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace streamscope;
using streamscope::testing::Unprivileged;

namespace {
const QString kReferenceExpected =
    QStringLiteral("expected a reference such as \"env:NAME\" or \"keychain:NAME\"; secrets are never stored in a "
                   "workspace");

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

namespace {
// Saves an empty workspace over `path` as an unprivileged user, so that permissions bind even
// when the tests run as root; `*ran` false when the process cannot act as one here.
bool saveUnprivileged(const QString &path, QString *error, bool *ran)
{
    const Unprivileged as;
    *ran = as.active();
    if (!*ran)
        return false;
    if (!QFileInfo::exists(path)) { // reachable: only the permission under test stops the save
        *error = QStringLiteral("not reachable");
        return false;
    }
    return Workspace().save(path, error);
}
} // namespace

class TestWorkspace : public QObject {
    Q_OBJECT
private slots:
    void rejects_data();
    void rejects();
    void readsDesignExample();
    void warnsOnUnknownKeys();
    void roundTrip();
    void transportPerStreamAndForAll();
    void missingFileNamesIt();
    void venueKeys();
    void bookKeys();
    void keepAliveKeys();
    void channelSubscriptions();
    void refusesLiteralCredentials_data();
    void refusesLiteralCredentials();
    void acceptsCredentialReferences();
    void neverWritesAPassword();
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void refusesAFileOverTheCap();
    void saveFailureNamesThePathAndKeepsTheOldFile();
    void saveIntoReadOnlyFolderKeepsTheOldFile();
    void saveOverReadOnlyFileKeepsIt();
    void saveThatRunsOutOfSpaceKeepsTheOldFile();
};

void TestWorkspace::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected"); // substring of the error, after "ws.json: "

    const QByteArray ok = R"({"name":"a","url":"ws://127.0.0.1:1/x"})";
    const auto one = [](const QByteArray &stream) { return QByteArray(R"({"version":1,"streams":[)") + stream + "]}"; };
    QTest::newRow("not JSON") << QByteArray("{\"version\":1,") << QStringLiteral("ws.json:1:14: not valid JSON");
    QTest::newRow("top level array") << QByteArray("[]") << QStringLiteral("expected a JSON object at the top level");
    QTest::newRow("no version") << QByteArray(R"({"streams":[]})") << QStringLiteral("version: missing, expected 1");
    QTest::newRow("future version") << QByteArray(R"({"version":2,"streams":[]})")
                                    << QStringLiteral("version: expected an integer from 1 to 1, found 2");
    QTest::newRow("no streams") << QByteArray(R"({"version":1})")
                                << QStringLiteral("streams: missing, expected an array");
    QTest::newRow("streams not array") << QByteArray(R"({"version":1,"streams":{}})")
                                       << QStringLiteral("streams: expected an array, found an object");
    QTest::newRow("stream not object") << one("3") << QStringLiteral("streams[0]: expected an object, found a number");
    QTest::newRow("rest_url not http") << one(R"({"name":"a","url":"ws://h:1/","rest_url":"ftp://h/"})")
                                       << QStringLiteral("streams[0].rest_url: expected an http or https URL without a "
                                                         "query, found \"ftp://h/\"");
    QTest::newRow("rest_url with a query") << one(R"({"name":"a","url":"ws://h:1/","rest_url":"http://h/?a=1"})")
                                           << QStringLiteral("streams[0].rest_url: expected an http or https URL");
    QTest::newRow("rest_url token") << one(R"({"name":"a","url":"ws://h:1/","rest_url":"http://h/?token=abc123"})")
                                    << QStringLiteral("streams[0].rest_url: expected the query parameter 'token'");
    QTest::newRow("book not a boolean") << one(R"({"name":"a","url":"ws://h:1/","book":"no"})")
                                        << QStringLiteral("streams[0].book: expected");
    QTest::newRow("book_audit_s negative")
        << one(R"({"name":"a","url":"ws://h:1/","book_audit_s":-1})")
        << QStringLiteral("streams[0].book_audit_s: expected an integer from 0 to 86400");
    QTest::newRow("max_connection_age_ms negative")
        << one(R"({"name":"a","url":"ws://h:1/","max_connection_age_ms":-1})")
        << QStringLiteral("streams[0].max_connection_age_ms: expected an integer from 0 to");
    QTest::newRow("max_streams_per_connection over the venue's 1024")
        << one(R"({"name":"a","url":"ws://h:1/","max_streams_per_connection":2000})")
        << QStringLiteral("streams[0].max_streams_per_connection: expected an integer from 1 to 1024, found 2000");
    // The venues that subscribe by channel and instrument (OKX, docs/workspace.md): one shape.
    QTest::newRow("okx: an entry without a channel")
        << one(R"({"name":"a","venue":"okx","url":"wss://h:1/","subscribe":["books:BTC-USDT","BTC-USDT"]})")
        << QStringLiteral("streams[0].subscribe[1]: expected \"channel:instrument\" such as \"books:BTC-USDT\", found "
                          "\"BTC-USDT\" (OKX subscribes by channel and instrument)");
    QTest::newRow("okx: an empty instrument")
        << one(R"({"name":"a","venue":"okx","url":"wss://h:1/","subscribe":["books:"]})")
        << QStringLiteral("streams[0].subscribe[0]: expected \"channel:instrument\"");
    QTest::newRow("okx: an empty channel")
        << one(R"({"name":"a","venue":"okx","url":"wss://h:1/","subscribe":[":BTC-USDT"]})")
        << QStringLiteral("streams[0].subscribe[0]: expected \"channel:instrument\"");
    QTest::newRow("okx: whitespace inside")
        << one(R"({"name":"a","venue":"okx","url":"wss://h:1/","subscribe":["books: BTC-USDT"]})")
        << QStringLiteral("streams[0].subscribe[0]: expected \"channel:instrument\" such as \"books:BTC-USDT\", found "
                          "\"books: BTC-USDT\" (OKX subscribes by channel and instrument)");
    QTest::newRow("okx: not a string") << one(
        R"({"name":"a","venue":"okx","url":"wss://h:1/","subscribe":[{"channel":"books"}]})")
                                       << QStringLiteral("streams[0].subscribe[0]: expected a string, found an object");
    QTest::newRow("futures not boolean") << one(R"({"name":"a","url":"ws://h:1/","futures":"yes"})")
                                         << QStringLiteral(
                                                "streams[0].futures: expected true or false, found a string");
    QTest::newRow("missing url") << one(R"({"name":"a"})")
                                 << QStringLiteral("streams[0].url: missing, expected a string");
    QTest::newRow("missing name") << one(R"({"url":"ws://h:1/"})")
                                  << QStringLiteral("streams[0].name: missing, expected a string");
    QTest::newRow("url wrong type") << one(R"({"name":"a","url":5})")
                                    << QStringLiteral("streams[0].url: expected a string, found a number");
    QTest::newRow("url bad scheme") << one(R"({"name":"a","url":"http://h/x"})")
                                    << QStringLiteral(
                                           "streams[0].url: expected a ws, wss, tcp or tls URL, found scheme 'http'");
    QTest::newRow("tls without port") << one(R"({"name":"a","url":"tls://h"})")
                                      << QStringLiteral("streams[0].url: expected a port in a tls URL");
    QTest::newRow("bad venue")
        << one(R"({"name":"a","url":"ws://h:1/","venue":"nosuchvenue"})")
        << QStringLiteral("streams[0].venue: expected \"binance\", \"betfair\", \"okx\", \"bybit\", \"hyperliquid\", "
                          "\"kraken\", \"coinbase\" or \"generic\", found \"nosuchvenue\"");
    QTest::newRow("bad mode") << one(R"({"name":"a","url":"ws://h:1/","mode":"fast"})")
                              << QStringLiteral("streams[0].mode: expected \"parsed\" or \"raw\"");
    QTest::newRow("bad transport") << one(R"({"name":"a","url":"ws://h:1/","transport":"quick"})")
                                   << QStringLiteral(
                                          "streams[0].transport: expected \"qt\" or \"native\", found \"quick\"");
    QTest::newRow("transport not a string")
        << one(R"({"name":"a","url":"ws://h:1/","transport":1})")
        << QStringLiteral("streams[0].transport: expected a string, found a number");
    QTest::newRow("bad workspace transport")
        << QByteArray(R"({"version":1,"transport":"Native","streams":[]})")
        << QStringLiteral("transport: expected \"qt\" or \"native\", found \"Native\"");
    QTest::newRow("pointer") << one(R"({"name":"a","url":"ws://h:1/","latency_field":"ts"})")
                             << QStringLiteral("streams[0].latency_field: expected a JSON pointer starting with '/'");
    QTest::newRow("pointer with a quote") << one(R"({"name":"a","url":"ws://h:1/","latency_field":"/a\":1,\"b"})")
                                          << QStringLiteral("streams[0].latency_field: expected a JSON pointer without "
                                                            "'\"' or '\\' in its keys");
    QTest::newRow("unit") << one(R"({"name":"a","url":"ws://h:1/","latency_unit":"min"})")
                          << QStringLiteral("streams[0].latency_unit: expected \"s\", \"ms\", \"us\" or \"ns\"");
    QTest::newRow("stall string") << one(R"({"name":"a","url":"ws://h:1/","stall_timeout_ms":"5"})")
                                  << QStringLiteral("streams[0].stall_timeout_ms: expected an integer, found a string");
    QTest::newRow("stall fraction") << one(R"({"name":"a","url":"ws://h:1/","stall_timeout_ms":500.5})")
                                    << QStringLiteral("streams[0].stall_timeout_ms: expected an integer");
    // Found by fuzz_workspace: a number beyond int64 was converted to one (undefined; in
    // practice INT64_MIN, and the message said "found a number").
    QTest::newRow("integer beyond int64")
        << one(R"({"name":"a","url":"ws://h:1/","stall_timeout_ms":1e55})")
        << QStringLiteral("streams[0].stall_timeout_ms: expected an integer from 100 to 86400000, found 1e+55");
    QTest::newRow("version beyond int64") << QByteArray(R"({"version":-1e300,"streams":[]})")
                                          << QStringLiteral("version: expected an integer from 1 to 1, found -1e+300");
    QTest::newRow("heartbeat range")
        << one(R"({"name":"a","url":"tls://h:1","venue":"betfair","heartbeat_ms":100})")
        << QStringLiteral("streams[0].heartbeat_ms: expected an integer from 500 to 30000, found 100");
    // Betfair's session keep-alive: an http(s) URL, with the credentials it sends, at most daily.
    const QByteArray bfAuth = R"("auth":{"app_key":"env:K","session":"env:S"})";
    QTest::newRow("keep_alive_url not http")
        << one(R"({"name":"a","url":"tls://h:1","venue":"betfair",)" + bfAuth + R"(,"keep_alive_url":"ftp://h/"})")
        << QStringLiteral("streams[0].keep_alive_url: expected an http or https URL");
    QTest::newRow("keep_alive_url without auth")
        << one(R"({"name":"a","url":"tls://h:1","venue":"betfair","keep_alive_url":"https://h/api/keepAlive"})")
        << QStringLiteral("streams[0].keep_alive_url: expected with \"auth\"");
    QTest::newRow("keep_alive_url with a token") << one(R"({"name":"a","url":"tls://h:1","venue":"betfair",)" + bfAuth
                                                        + R"(,"keep_alive_url":"https://h/k?token=abc123"})")
                                                 << QStringLiteral("streams[0].keep_alive_url: expected");
    QTest::newRow("keep_alive_s zero") << one(R"({"name":"a","url":"tls://h:1","venue":"betfair",)" + bfAuth
                                              + R"(,"keep_alive_url":"https://h/k","keep_alive_s":0})")
                                       << QStringLiteral(
                                              "streams[0].keep_alive_s: expected an integer from 1 to 86400, found 0");
    QTest::newRow("keep_alive_s not an integer")
        << one(R"({"name":"a","url":"tls://h:1","venue":"betfair",)" + bfAuth
               + R"(,"keep_alive_url":"https://h/k","keep_alive_s":"60"})")
        << QStringLiteral("streams[0].keep_alive_s: expected an integer, found a string");
    QTest::newRow("keep_alive_s without keep_alive_url")
        << one(R"({"name":"a","url":"tls://h:1","venue":"betfair",)" + bfAuth + R"(,"keep_alive_s":60})")
        << QStringLiteral("streams[0].keep_alive_s: expected only with keep_alive_url");
    QTest::newRow("subscribe item") << one(R"({"name":"a","url":"ws://h:1/","subscribe":["x",1]})")
                                    << QStringLiteral("streams[0].subscribe[1]: expected a string, found a number");
    // Found by fuzz_workspace: any header name was taken, and the handshake writes "name: value"
    // lines as given, so a name with ':' or a value with a line break wrote other headers.
    QTest::newRow("header name with a colon")
        << one(R"({"name":"a","url":"ws://h:1/","headers":{"X-A: b":"c"}})")
        << QStringLiteral("streams[0].headers: expected header names of letters, digits and !#$%&'*+-.^_`|~, "
                          "found \"X-A: b\"");
    QTest::newRow("header name with a colon, value not a string")
        << one(R"({"name":"a","url":"ws://h:1/","headers":{"X-A: b":{}}})")
        << QStringLiteral("streams[0].headers: expected header names of letters, digits and !#$%&'*+-.^_`|~, "
                          "found \"X-A: b\"");
    QTest::newRow("header value with a line break")
        << one(R"({"name":"a","url":"ws://h:1/","headers":{"X-A":"b\r\nX-Injected: 1"}})")
        << QStringLiteral("streams[0].headers.X-A: expected a value on one line, without CR, LF or NUL");
    QTest::newRow("header type") << one(R"({"name":"a","url":"ws://h:1/","headers":{"X":1}})")
                                 << QStringLiteral("streams[0].headers.X: expected a string, found a number");
    QTest::newRow("literal secret")
        << one(R"({"name":"a","url":"tls://h:1","venue":"betfair","auth":{"app_key":"abc123"}})")
        << QStringLiteral("streams[0].auth.app_key: expected a reference such as \"env:NAME\"");
    QTest::newRow("betfair over ws") << one(R"({"name":"a","url":"ws://h:1/","venue":"betfair"})")
                                     << QStringLiteral(
                                            "streams[0].url: expected a tcp or tls URL for a Betfair stream");
    QTest::newRow("missing ca") << one(R"({"name":"a","url":"wss://h:1/","tls":{"ca_file":"/nonexistent/ca.pem"}})")
                                << QStringLiteral("streams[0].tls.ca_file: expected a readable PEM file");
    QTest::newRow("duplicate name") << QByteArray(R"({"version":1,"streams":[)") + ok + "," + ok + "]}"
                                    << QStringLiteral("streams[1].name: expected a unique name, \"a\" is used twice");
    QTest::newRow("alerts type") << QByteArray(R"({"version":1,"streams":[],"alerts":{}})")
                                 << QStringLiteral("alerts: expected an array, found an object");
}

void TestWorkspace::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    Workspace ws;
    const Workspace::LoadResult r = Workspace::parse(json, QStringLiteral("ws.json"), ws);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.startsWith(QLatin1String("ws.json")), qPrintable(r.error));
    QVERIFY2(r.error.contains(expected), qPrintable(r.error));
}

void TestWorkspace::readsDesignExample()
{
    QTemporaryDir dir;
    QFile ca(dir.filePath(QStringLiteral("ca.pem")));
    QVERIFY(ca.open(QIODevice::WriteOnly));
    ca.write("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n");
    ca.close();
    const QByteArray json = R"({ "version": 1,
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
          "heartbeat_ms": 5000, "tls": {"ca_file": "ca.pem"} } ] })";
    const QString path = dir.filePath(QStringLiteral("design.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(json);
    f.close();
    Workspace ws;
    const auto r = Workspace::load(path, ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
    QCOMPARE(ws.streams.size(), 3);
    QCOMPARE(ws.streams[0].venue, Venue("binance"));
    QCOMPARE(ws.streams[0].subscribe, QStringList{QStringLiteral("ethusdt@aggTrade")});
    QCOMPARE(ws.streams[0].latencyField, QStringLiteral("/data/E"));
    QCOMPARE(ws.streams[1].latencyUnit, LatencyUnit::Microseconds);
    QCOMPARE(ws.streams[1].headers.size(), 1);
    QCOMPARE(ws.streams[1].headers[0].second, QStringLiteral("env:FEED_TOKEN"));
    QCOMPARE(ws.streams[1].sendOnConnect.size(), 1);
    QCOMPARE(ws.streams[2].venue, Venue("betfair"));
    QCOMPARE(ws.streams[2].appKey, QStringLiteral("keychain:betfair-app-key"));
    QCOMPARE(ws.streams[2].caFile, dir.filePath(QStringLiteral("ca.pem"))); // relative to the workspace
    QVERIFY(ws.streams[2].marketSubscription.contains(QStringLiteral("marketFilter")));
}

void TestWorkspace::warnsOnUnknownKeys()
{
    Workspace ws;
    const auto r =
        Workspace::parse(R"({"version":1,"colour":"red","streams":[{"name":"a","url":"ws://h:1/","speed":3}]})",
                         QStringLiteral("w.json"), ws);
    QVERIFY(r.ok);
    QCOMPARE(r.warnings.size(), 2);
    QVERIFY(r.warnings.contains(QStringLiteral("w.json: colour: unknown key, ignored")));
    QVERIFY(r.warnings.contains(QStringLiteral("w.json: streams[0].speed: unknown key, ignored")));
}

// "transport" chooses the websocket client: per stream, or at the top for the streams that do
// not say; "native" when neither does. Saved per stream, only when not "native".
void TestWorkspace::transportPerStreamAndForAll()
{
    Workspace ws;
    auto r = Workspace::parse(R"({"version":1,"transport":"qt","streams":[
        {"name":"a","url":"ws://h:1/"}, {"name":"b","url":"ws://h:1/","transport":"native"}]})",
                              QStringLiteral("w.json"), ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.warnings.isEmpty());
    QCOMPARE(ws.streams[0].transport, WebSocketClient::Qt);
    QCOMPARE(ws.streams[1].transport, WebSocketClient::Native);
    QCOMPARE(Workspace::streamToJson(ws.streams[0]).value(QStringLiteral("transport")).toString(),
             QStringLiteral("qt"));
    QVERIFY(!Workspace::streamToJson(ws.streams[1]).contains(QStringLiteral("transport")));
    Workspace back;
    r = Workspace::parse(QJsonDocument(ws.toJson()).toJson(), QStringLiteral("w.json"), back);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(back.streams[0].transport, WebSocketClient::Qt);
    QCOMPARE(back.streams[1].transport, WebSocketClient::Native);

    r = Workspace::parse(R"({"version":1,"streams":[{"name":"a","url":"ws://h:1/"}]})", QStringLiteral("w.json"), ws);
    QVERIFY(r.ok);
    QCOMPARE(ws.streams[0].transport, WebSocketClient::Native);
}

void TestWorkspace::roundTrip()
{
    Workspace ws;
    StreamConfig a;
    a.name = QStringLiteral("a");
    a.venue = Venue("binance");
    a.url = QUrl(QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@trade"));
    a.subscribe = {QStringLiteral("ethusdt@trade")};
    a.mode = DecodeMode::Raw;
    a.stallTimeoutMs = 1234;
    a.headers = {{QStringLiteral("X-Key"), QStringLiteral("env:KEY")}};
    StreamConfig b;
    b.name = QStringLiteral("b");
    b.venue = Venue("betfair");
    b.url = QUrl(QStringLiteral("tls://127.0.0.1:4443"));
    b.appKey = QStringLiteral("keychain:app");
    b.session = QStringLiteral("env:SESSION");
    b.heartbeatMs = 2000;
    b.marketSubscription = QJsonObject{{QStringLiteral("marketFilter"), QJsonObject{}}};
    ws.streams = {a, b};
    ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("a")}}};
    ws.layout = QJsonObject{{QStringLiteral("geometry"), QStringLiteral("AAAA")}};

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("w.json"));
    QString error;
    QVERIFY2(ws.save(path, &error), qPrintable(error));
    Workspace back;
    const auto r = Workspace::load(path, back);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.warnings.isEmpty());
    QCOMPARE(back.toJson(), ws.toJson());
    QCOMPARE(back.streams[0].stallTimeoutMs, 1234);
    QCOMPARE(back.streams[0].mode, DecodeMode::Raw);
    QCOMPARE(back.streams[1].heartbeatMs, 2000);
    QCOMPARE(back.streams[1].session, QStringLiteral("env:SESSION"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("\"env:SESSION\"")); // the reference, never a value
}

void TestWorkspace::missingFileNamesIt()
{
    Workspace ws;
    const auto r = Workspace::load(QStringLiteral("/nonexistent/ws.json"), ws);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.startsWith(QLatin1String("/nonexistent/ws.json: cannot read the file")), qPrintable(r.error));
}

void TestWorkspace::venueKeys()
{
    Workspace ws;
    const auto r = Workspace::parse(
        R"({"version":1,"streams":[{"name":"a","venue":"binance","url":"wss://fstream.binance.com/stream",
        "max_connection_age_ms":3600000,"rollover_overlap_max_ms":2000,"max_streams_per_connection":500,"futures":true},
        {"name":"b","venue":"binance","url":"wss://stream.binance.com:9443/ws"}]})",
        QStringLiteral("ws.json"), ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
    const StreamConfig &a = ws.streams.at(0);
    QCOMPARE(a.maxConnectionAgeMs, qint64(3600000));
    QCOMPARE(a.rolloverOverlapMaxMs, 2000);
    QCOMPARE(a.maxStreamsPerConnection, 500);
    QVERIFY(a.futures);
    const StreamConfig &b = ws.streams.at(1);
    QCOMPARE(b.maxConnectionAgeMs, qint64(-1)); // the venue's default (23 h 50 min)
    QCOMPARE(b.maxStreamsPerConnection, 0);     // the venue's default (Binance 1,024)
    QVERIFY(!b.futures);
    const QJsonObject saved = Workspace::streamToJson(a);
    QCOMPARE(saved.value(QStringLiteral("max_connection_age_ms")).toInteger(), qint64(3600000));
    QCOMPARE(saved.value(QStringLiteral("futures")).toBool(), true);
    QVERIFY(!Workspace::streamToJson(b).contains(QStringLiteral("max_connection_age_ms")));
    QVERIFY(!Workspace::streamToJson(b).contains(QStringLiteral("max_streams_per_connection")));
}

void TestWorkspace::bookKeys()
{
    Workspace ws;
    const auto r = Workspace::parse(
        R"({"version":1,"streams":[{"name":"a","venue":"binance","url":"wss://stream.binance.com:9443/ws/btcusdt@depth",
        "rest_url":"https://api.binance.com","book_audit_s":300},
        {"name":"b","venue":"binance","url":"wss://stream.binance.com:9443/ws/ethusdt@depth","book":false}]})",
        QStringLiteral("ws.json"), ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
    const StreamConfig &a = ws.streams.at(0);
    QCOMPARE(a.restUrl, QUrl(QStringLiteral("https://api.binance.com")));
    QCOMPARE(a.bookAuditS, 300);
    QVERIFY(a.book); // on by default
    const StreamConfig &b = ws.streams.at(1);
    QVERIFY(!b.book);
    QCOMPARE(b.bookAuditS, 0); // off by default
    QVERIFY(b.restUrl.isEmpty());
    const QJsonObject savedA = Workspace::streamToJson(a);
    QCOMPARE(savedA.value(QStringLiteral("rest_url")).toString(), QStringLiteral("https://api.binance.com"));
    QCOMPARE(savedA.value(QStringLiteral("book_audit_s")).toInteger(), qint64(300));
    QVERIFY(!savedA.contains(QStringLiteral("book")));
    const QJsonObject savedB = Workspace::streamToJson(b);
    QCOMPARE(savedB.value(QStringLiteral("book")), QJsonValue(false));
    QVERIFY(!savedB.contains(QStringLiteral("book_audit_s")));
    QVERIFY(!savedB.contains(QStringLiteral("rest_url")));
}

void TestWorkspace::keepAliveKeys()
{
    Workspace ws;
    const auto r = Workspace::parse(
        R"({"version":1,"streams":[{"name":"a","venue":"betfair","url":"tls://127.0.0.1:4443",
        "auth":{"app_key":"env:K","session":"env:S"},"keep_alive_url":"https://127.0.0.1:8443/api/keepAlive",
        "keep_alive_s":600},{"name":"b","venue":"betfair","url":"tls://127.0.0.1:4443"}]})",
        QStringLiteral("ws.json"), ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
    const StreamConfig &a = ws.streams.at(0);
    QCOMPARE(a.keepAliveUrl, QUrl(QStringLiteral("https://127.0.0.1:8443/api/keepAlive")));
    QCOMPARE(a.keepAliveS, 600);
    const StreamConfig &b = ws.streams.at(1);
    QVERIFY(b.keepAliveUrl.isEmpty());
    QCOMPARE(b.keepAliveS, 1200); // every 20 minutes by default
    const QJsonObject savedA = Workspace::streamToJson(a);
    QCOMPARE(savedA.value(QStringLiteral("keep_alive_url")).toString(),
             QStringLiteral("https://127.0.0.1:8443/api/keepAlive"));
    QCOMPARE(savedA.value(QStringLiteral("keep_alive_s")).toInteger(), qint64(600));
    QVERIFY(!Workspace::streamToJson(b).contains(QStringLiteral("keep_alive_url")));
    QVERIFY(!Workspace::streamToJson(b).contains(QStringLiteral("keep_alive_s")));
}

void TestWorkspace::channelSubscriptions()
{
    // The new venues' one shape: "channel:instrument" pairs, the instrument after the first ':'
    // (it may hold more). Any other venue's entries are its own stream names.
    Workspace ws;
    const auto r = Workspace::parse(
        R"({"version":1,"streams":[{"name":"a","venue":"okx","url":"wss://ws.okx.com:8443/ws/v5/public",
        "subscribe":["books:BTC-USDT","trades:BTC-USDT","books:dex:COIN"],"max_streams_per_connection":2},
        {"name":"b","venue":"binance","url":"wss://stream.binance.com:9443/ws","subscribe":["btcusdt@trade"]}]})",
        QStringLiteral("ws.json"), ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
    const StreamConfig &a = ws.streams.at(0);
    QCOMPARE(a.venue, Venue("okx"));
    QCOMPARE(a.subscribe,
             (QStringList{QStringLiteral("books:BTC-USDT"), QStringLiteral("trades:BTC-USDT"),
                          QStringLiteral("books:dex:COIN")}));
    QCOMPARE(a.maxStreamsPerConnection, 2);
    const auto pair = ChannelSubscription::parse(a.subscribe.at(2));
    QVERIFY(pair);
    QCOMPARE(pair->channel, QStringLiteral("books"));
    QCOMPARE(pair->instrument, QStringLiteral("dex:COIN"));
    QCOMPARE(Workspace::streamToJson(a).value(QStringLiteral("subscribe")).toArray().size(), 3);
    QCOMPARE(ws.streams.at(1).subscribe, QStringList{QStringLiteral("btcusdt@trade")});
}

void TestWorkspace::refusesLiteralCredentials_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("error"); // the whole message
    const QString urlPassword =
        QStringLiteral("ws.json: streams[0].url: expected a URL without a password; secrets are never stored in a "
                       "workspace, send it in a header whose value is a reference such as \"env:NAME\" or "
                       "\"keychain:NAME\"");
    QTest::newRow("ws URL with a password")
        << QByteArray(R"({"name":"a","url":"ws://user:pass@127.0.0.1:1/x"})") << urlPassword;
    QTest::newRow("wss URL with a password")
        << QByteArray(R"({"name":"a","url":"wss://u:s3cret@example.com/feed"})") << urlPassword;
    QTest::newRow("tls URL with a password")
        << QByteArray(R"({"name":"a","venue":"betfair","url":"tls://u:p@127.0.0.1:443"})") << urlPassword;
    const auto queryError = [](const char *name) {
        return QStringLiteral("ws.json: streams[0].url: expected the query parameter '%1' as a reference such as "
                              "\"env:NAME\" or \"keychain:NAME\"; secrets are never stored in a workspace")
            .arg(QLatin1String(name));
    };
    QTest::newRow("URL query token") << QByteArray(R"({"name":"a","url":"wss://example.com/feed?token=abc123"})")
                                     << queryError("token");
    QTest::newRow("URL query apiKey after other parameters")
        << QByteArray(R"({"name":"a","url":"wss://example.com/feed?streams=a@trade&apiKey=abc123"})")
        << queryError("apiKey");
    QTest::newRow("URL query signature") << QByteArray(
        R"({"name":"a","url":"wss://example.com/feed?signature=abc123"})")
                                         << queryError("signature");
    // The ways round the check that a hostile-input run found: each was loaded, and written
    // verbatim to the report, the CSV and /api.
    QTest::newRow("user name with an encoded colon")
        << QByteArray(R"({"name":"a","url":"ws://user%3Aabc123@127.0.0.1:1/x"})") << urlPassword;
    QTest::newRow("user name with a doubly encoded colon")
        << QByteArray(R"({"name":"a","url":"ws://user%253Aabc123@127.0.0.1:1/x"})") << urlPassword;
    QTest::newRow("URL query token after ';'")
        << QByteArray(R"({"name":"a","url":"wss://example.com/feed?a=1;token=abc123"})") << queryError("token");
    QTest::newRow("URL query pwd") << QByteArray(R"({"name":"a","url":"wss://example.com/feed?pwd=abc123"})")
                                   << queryError("pwd");
    QTest::newRow("URL query passwd") << QByteArray(R"({"name":"a","url":"wss://example.com/feed?passwd=abc123"})")
                                      << queryError("passwd");
    QTest::newRow("URL query name percent-encoded")
        << QByteArray(R"({"name":"a","url":"wss://example.com/feed?%74oken=abc123"})") << queryError("token");
    const auto partError = [](const char *part, const char *name) {
        return QStringLiteral("ws.json: streams[0].url: expected the %1 parameter '%2' as a reference such as "
                              "\"env:NAME\" or \"keychain:NAME\"; secrets are never stored in a workspace")
            .arg(QLatin1String(part), QLatin1String(name));
    };
    QTest::newRow("URL fragment token") << QByteArray(R"({"name":"a","url":"wss://example.com/feed#token=abc123"})")
                                        << partError("fragment", "token");
    QTest::newRow("URL fragment token after a route")
        << QByteArray(R"({"name":"a","url":"wss://example.com/feed#/cb?x=1&access_token=abc123"})")
        << partError("fragment", "access_token");
    QTest::newRow("URL path parameter") << QByteArray(
        R"({"name":"a","url":"wss://example.com/feed;jsessionid=abc123/x"})")
                                        << partError("path", "jsessionid");
    QTest::newRow("server_time_url query token")
        << QByteArray(
               R"({"name":"a","url":"ws://127.0.0.1:1/x","server_time_url":"http://127.0.0.1:1/t?token=abc123"})")
        << QStringLiteral("ws.json: streams[0].server_time_url: expected the query parameter 'token' as a reference "
                          "such as \"env:NAME\" or \"keychain:NAME\"; secrets are never stored in a workspace");
    QTest::newRow("server_time_url password")
        << QByteArray(R"({"name":"a","url":"ws://127.0.0.1:1/x","server_time_url":"http://u:abc123@127.0.0.1:1/t"})")
        << QStringLiteral("ws.json: streams[0].server_time_url: expected a URL without a password; secrets are never "
                          "stored in a workspace, send it in a header whose value is a reference such as "
                          "\"env:NAME\" or \"keychain:NAME\"");
    QTest::newRow("invalid URL with a password is not quoted")
        << QByteArray(R"({"name":"a","url":"ws://u:abc123@127.0.0.1:1/x y"})") << urlPassword;
    const auto header = [](const char *name) {
        return QByteArray(R"({"name":"a","url":"ws://127.0.0.1:1/x","headers":{")") + name + R"(":"abc123"}})";
    };
    const auto headerError = [](const QString &name) {
        return QStringLiteral("ws.json: streams[0].headers.%1: ").arg(name) + kReferenceExpected;
    };
    for (const char *name :
         {"Authorization", "authorization", "Proxy-Authorization", "Cookie", "X-MBX-APIKEY", "X-Authentication",
          "X-Api-Key", "X-Token", "X-Client-Secret", "Api-Key", "X-Auth", "X-Password"})
        QTest::newRow(name) << header(name) << headerError(QString::fromLatin1(name));
}

void TestWorkspace::refusesLiteralCredentials()
{
    QFETCH(QByteArray, stream);
    QFETCH(QString, error);
    Workspace ws;
    const auto r =
        Workspace::parse(QByteArray(R"({"version":1,"streams":[)") + stream + "]}", QStringLiteral("ws.json"), ws);
    QVERIFY(!r.ok);
    QCOMPARE(r.error, error);
    QVERIFY2(!r.error.contains(QLatin1String("pass@")) && !r.error.contains(QLatin1String("s3cret"))
                 && !r.error.contains(QLatin1String("abc123")),
             qPrintable(r.error)); // the message never repeats the secret
}

void TestWorkspace::acceptsCredentialReferences()
{
    Workspace ws;
    const auto r = Workspace::parse(
        R"({"version":1,"streams":[{"name":"a","url":"ws://user@127.0.0.1:1/x?streams=a@trade&token=env:TOKEN",
        "headers":{"Authorization":"env:AUTH","X-MBX-APIKEY":"keychain:binance","X-Client":"streamscope"}}]})",
        QStringLiteral("ws.json"), ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(ws.streams.at(0).headers.size(), 3);
    QCOMPARE(ws.streams.at(0).url.userName(), QStringLiteral("user")); // a user name alone is no secret
    QCOMPARE(ws.streams.at(0).url.query(), QStringLiteral("streams=a@trade&token=env:TOKEN"));
}

// A URL's password or a literal credential header that reached a config some other way (the
// desktop dialog, code) is never written to a workspace.
void TestWorkspace::neverWritesAPassword()
{
    Workspace ws;
    StreamConfig c;
    c.name = QStringLiteral("a");
    c.url = QUrl(QStringLiteral("ws://user:pass@127.0.0.1:1/x?streams=a@trade&token=abc123&key=env:KEY"));
    c.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer abc123")},
                 {QStringLiteral("X-Token"), QStringLiteral("env:TOKEN")}};
    ws.streams = {c};
    const QByteArray json = QJsonDocument(ws.toJson()).toJson();
    QVERIFY2(!json.contains("pass") && !json.contains("abc123"), json.constData());
    QVERIFY2(json.contains("ws://user@127.0.0.1:1/x?streams=a@trade&key=env:KEY") && json.contains("env:TOKEN"),
             json.constData());
    Workspace back;
    const auto r = Workspace::parse(json, QStringLiteral("ws.json"), back);
    QVERIFY2(r.ok, qPrintable(r.error));
}

void TestWorkspace::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QString>("kind"); // made in the test's temporary folder
    QTest::addColumn<QString>("expected");
    QTest::newRow("a directory") << QStringLiteral("dir")
                                 << QStringLiteral("expected a regular file, found a directory");
#ifdef Q_OS_UNIX // no /dev/zero and no mkfifo() on Windows
    QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero")
                               << QStringLiteral("expected a regular file, found a character device");
    QTest::newRow("a FIFO without a writer")
        << QStringLiteral("fifo") << QStringLiteral("expected a regular file, found a FIFO");
#endif
}

void TestWorkspace::refusesWhatIsNotARegularFile()
{
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path = kind;
    if (kind == QLatin1String("dir")) {
        path = dir.filePath(QStringLiteral("w.json"));
        QVERIFY(QDir().mkdir(path));
    }
#ifdef Q_OS_UNIX
    if (kind == QLatin1String("fifo")) {
        path = dir.filePath(QStringLiteral("w.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    }
#endif
    // Returns at all: a FIFO without a writer blocks whoever opens it, /dev/zero never ends.
    Workspace ws;
    const auto r = Workspace::load(path, ws);
    QVERIFY(!r.ok);
    QCOMPARE(r.error, path + QStringLiteral(": ") + expected);
}

void TestWorkspace::refusesAFileOverTheCap()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.json"));
    // Valid JSON padded with spaces: only the size is wrong.
    QByteArray json = R"({"version":1,"streams":[]})";
    QByteArray atCap = json + QByteArray(Workspace::kMaxFileBytes - json.size(), ' ');
    QVERIFY(writeFile(path, atCap));
    Workspace ws;
    auto r = Workspace::load(path, ws);
    QVERIFY2(r.ok, qPrintable(r.error)); // exactly 16 MB is allowed
    QVERIFY(writeFile(path, atCap + ' '));
    r = Workspace::load(path, ws);
    QVERIFY(!r.ok);
    QCOMPARE(r.error, path + QStringLiteral(": expected a file of at most 16 MiB, found 16777217 bytes"));
}

// Saving goes through a temporary file renamed over the old one (QSaveFile): a save that
// fails says where and why, and the old file is untouched. Tests may run as root, whom
// permissions do not stop, so the failure here is a folder that cannot exist.
void TestWorkspace::saveFailureNamesThePathAndKeepsTheOldFile()
{
    QTemporaryDir dir;
    const QString old = dir.filePath(QStringLiteral("w.json"));
    QVERIFY(writeFile(old, "old content"));
    Workspace ws;
    QString error;
    const QString underAFile = old + QStringLiteral("/w.json"); // "w.json" is a file, not a folder
    QVERIFY(!ws.save(underAFile, &error));
    QVERIFY2(error.startsWith(underAFile + QStringLiteral(": cannot write: ")), qPrintable(error));
    QCOMPARE(readFile(old), QByteArray("old content"));
    const QString missingFolder = dir.filePath(QStringLiteral("no/such/folder/w.json"));
    QVERIFY(!ws.save(missingFolder, &error));
    QVERIFY2(error.startsWith(missingFolder + QStringLiteral(": cannot write: ")), qPrintable(error));
    QVERIFY(!ws.save(dir.path(), &error)); // a folder
    QVERIFY2(error.startsWith(dir.path() + QStringLiteral(": cannot write: ")), qPrintable(error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("w.json")});
    QCOMPARE(readFile(old), QByteArray("old content"));
}

// A folder that cannot be written: the file in it could be, but an atomic save needs a
// temporary file beside it, so nothing is written at all (never the file in place).
void TestWorkspace::saveIntoReadOnlyFolderKeepsTheOldFile()
{
    QTemporaryDir dir;
    const QString old = dir.filePath(QStringLiteral("w.json"));
    QVERIFY(writeFile(old, "old content"));
    const auto anyone = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther;
    QVERIFY(QFile::setPermissions(old, anyone | QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther));
    QVERIFY(QFile::setPermissions(dir.path(), anyone | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
    QString error;
    bool ran = false;
    const bool saved = saveUnprivileged(old, &error, &ran);
    QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (!ran)
        QSKIP("cannot act as an unprivileged user: permissions would not stop the save");
    QVERIFY(!saved);
    QVERIFY2(error.startsWith(old + QStringLiteral(": cannot write: ")), qPrintable(error));
    QCOMPARE(readFile(old), QByteArray("old content"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("w.json")});
}

// A file without write permission in a folder that has it: refused, though a rename over it
// would succeed; the file stays as it is.
void TestWorkspace::saveOverReadOnlyFileKeepsIt()
{
    QTemporaryDir dir;
    const QString old = dir.filePath(QStringLiteral("w.json"));
    QVERIFY(writeFile(old, "old content"));
    const auto anyone = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther;
    QVERIFY(QFile::setPermissions(old, anyone));
    QVERIFY(QFile::setPermissions(dir.path(),
                                  anyone | QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther | QFile::ExeOwner
                                      | QFile::ExeGroup | QFile::ExeOther));
    QString error;
    bool ran = false;
    const bool saved = saveUnprivileged(old, &error, &ran);
    QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (!ran)
        QSKIP("cannot act as an unprivileged user: permissions would not stop the save");
    QVERIFY(!saved);
    QVERIFY2(error.startsWith(old + QStringLiteral(": cannot write: ")), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("not writable")), qPrintable(error));
    QCOMPARE(readFile(old), QByteArray("old content"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("w.json")});
}

// The disk fills up while the workspace is written. The process's file size limit stands in
// for the full disk (the same failed write, EFBIG instead of ENOSPC, and root is bound by
// it too): the save says so, the temporary file is gone, the old file is whole.
void TestWorkspace::saveThatRunsOutOfSpaceKeepsTheOldFile()
{
#ifdef Q_OS_UNIX
    QTemporaryDir dir;
    const QString old = dir.filePath(QStringLiteral("w.json"));
    QVERIFY(writeFile(old, "old content"));
    Workspace ws;
    for (int i = 0; i < 20; ++i) {
        StreamConfig c;
        c.name = QStringLiteral("feed-%1").arg(i);
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:9000/feed"));
        ws.streams.append(c);
    }
    constexpr rlim_t kRoomBytes = 1024;
    QVERIFY(QJsonDocument(ws.toJson()).toJson().size() > qsizetype(kRoomBytes));

    rlimit saved{};
    QCOMPARE(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit full = saved;
    full.rlim_cur = kRoomBytes;
    const auto previous = std::signal(SIGXFSZ, SIG_IGN); // the write fails instead of killing us
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &full), 0);
    QString error;
    const bool written = ws.save(old, &error);
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous);

    QVERIFY(!written);
    QCOMPARE(error,
             old + QStringLiteral(": cannot write: only part of the workspace could be written (is the disk full?)"));
    QCOMPARE(readFile(old), QByteArray("old content"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("w.json")});
#else
    QSKIP("needs a process file size limit (RLIMIT_FSIZE) to stand in for the full disk");
#endif
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
