// The server time of the venues that have one (docs/clock.md, docs/venues.md): each venue's
// answer read by its own reader (real shapes from the venues' documentation, and what is no
// time); each venue's endpoint under its REST host (the known stream hosts' REST hosts, the
// stream's rest_url, else the stream's own host); and end to end on loopback: a stream of each
// venue against a websocket server of this test's own, its server time asked of an HTTP server
// of this test's own that answers in that venue's shape with a clock 500 ms ahead, the offset
// estimated within the uncertainty given (Kraken's whole seconds narrowed by its samples).
// Hyperliquid documents no server time: none is asked.

#include "../common/ClockOffsetCheck.h"
#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "venues/VenueHandler.h"

#include <QtCore/QDateTime>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <memory>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

constexpr qint64 kAheadMs = 500;

StreamConfig configOf(const char *venue, const QString &url, const QString &restUrl = {})
{
    StreamConfig c;
    c.venue = Venue(venue);
    c.url = QUrl(url);
    if (!restUrl.isEmpty())
        c.restUrl = QUrl(restUrl);
    return c;
}

// The venue's answer for a venue clock at `ms`, in its documented shape.
QByteArray answerOf(const QByteArray &venue, qint64 ms)
{
    const QByteArray n = QByteArray::number(ms);
    if (venue == "okx")
        return R"({"code":"0","msg":"","data":[{"ts":")" + n + R"("}]})";
    if (venue == "bybit")
        return R"({"retCode":0,"retMsg":"OK","result":{"timeSecond":")" + QByteArray::number(ms / 1000)
            + R"(","timeNano":")" + n + R"(123456"},"retExtInfo":{},"time":)" + n + "}";
    if (venue == "kraken")
        return R"({"error":[],"result":{"unixtime":)" + QByteArray::number(ms / 1000)
            + R"(,"rfc1123":"Thu, 06 Jul 23 18:50:48 +0000"}})";
    if (venue == "coinbase")
        return R"({"iso":"2023-05-09T17:25:32.160Z","epochSeconds":")" + QByteArray::number(ms / 1000)
            + R"(","epochMillis":")" + n + R"("})";
    return R"({"serverTime":)" + n + "}";
}

// An HTTP server of the test's own on 127.0.0.1: GET `path` is answered in `venue`'s shape with
// a clock kAheadMs ahead of this machine's; any other path gets 404.
class VenueTimeServer : public QTcpServer {
public:
    VenueTimeServer(QByteArray venue, QByteArray path)
        : m_venue(std::move(venue))
        , m_path(std::move(path))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                auto request = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::readyRead, s, [this, s, request] {
                    *request += s->readAll();
                    if (!request->contains("\r\n\r\n"))
                        return;
                    const QByteArray line = request->left(request->indexOf("\r\n"));
                    request->clear();
                    const QList<QByteArray> parts = line.split(' ');
                    const bool ours = parts.size() == 3 && parts[0] == "GET" && parts[1] == m_path;
                    if (ours)
                        ++answered;
                    else
                        ++refused;
                    const QByteArray body =
                        ours ? answerOf(m_venue, QDateTime::currentMSecsSinceEpoch() + kAheadMs) : "{}";
                    s->write((ours ? "HTTP/1.1 200 OK" : "HTTP/1.1 404 Not Found")
                             + QByteArray("\r\nContent-Type: application/json\r\nContent-Length: ")
                             + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    int answered = 0;
    int refused = 0;

private:
    QByteArray m_venue;
    QByteArray m_path;
};

} // namespace

class TestVenueServerTime : public QObject {
    Q_OBJECT
private slots:
    void readsEachVenuesAnswer_data();
    void readsEachVenuesAnswer();
    void endpointUnderTheRestHost_data();
    void endpointUnderTheRestHost();
    void offsetFromEachVenue_data();
    void offsetFromEachVenue();
    void noServerTimeForHyperliquid();
};

void TestVenueServerTime::readsEachVenuesAnswer_data()
{
    QTest::addColumn<QByteArray>("venue");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<qint64>("timeUs"); // -1: no server time
    QTest::addColumn<qint64>("resolutionUs");
    // The documentation's examples.
    QTest::newRow("okx") << QByteArray("okx") << QByteArray(R"({"code":"0","msg":"","data":[{"ts":"1597026383085"}]})")
                         << qint64(1597026383085000) << qint64(1000);
    QTest::newRow("bybit: the nanoseconds, to the µs")
        << QByteArray("bybit")
        << QByteArray(R"({"retCode":0,"retMsg":"OK","result":{"timeSecond":"1688639403",)"
                      R"("timeNano":"1688639403423213947"},"retExtInfo":{},"time":1688639403423})")
        << qint64(1688639403423213) << qint64(1);
    QTest::newRow("kraken: whole seconds")
        << QByteArray("kraken")
        << QByteArray(R"({"error":[],"result":{"unixtime":1688669448,"rfc1123":"Thu, 06 Jul 23 18:50:48 +0000"}})")
        << qint64(1688669448000000) << qint64(1000000);
    QTest::newRow("coinbase: epochMillis as text")
        << QByteArray("coinbase")
        << QByteArray(R"({"iso":"2023-05-09T17:25:32.160Z","epochSeconds":"1683653132","epochMillis":"1683653132160"})")
        << qint64(1683653132160000) << qint64(1000);
    QTest::newRow("coinbase: epochMillis as a number")
        << QByteArray("coinbase") << QByteArray(R"({"epochMillis":1683653132160})") << qint64(1683653132160000)
        << qint64(1000);
    QTest::newRow("binance unchanged") << QByteArray("binance") << QByteArray(R"({"serverTime":1700000000000})")
                                       << qint64(1700000000000000) << qint64(1000);
    // What is none.
    QTest::newRow("okx: an error code") << QByteArray(
        "okx") << QByteArray(R"({"code":"50001","msg":"busy","data":[{"ts":"1597026383085"}]})")
                                        << qint64(-1) << qint64(0);
    QTest::newRow("okx: Binance's shape")
        << QByteArray("okx") << QByteArray(R"({"serverTime":1700000000000})") << qint64(-1) << qint64(0);
    QTest::newRow("okx: ts with a fraction")
        << QByteArray("okx") << QByteArray(R"({"code":"0","data":[{"ts":"1597026383085.5"}]})") << qint64(-1)
        << qint64(0);
    QTest::newRow("bybit: retCode not 0")
        << QByteArray("bybit") << QByteArray(R"({"retCode":10002,"result":{"timeNano":"1688639403423213947"}})")
        << qint64(-1) << qint64(0);
    QTest::newRow("bybit: timeNano beyond 2100")
        << QByteArray("bybit") << QByteArray(R"({"retCode":0,"result":{"timeNano":"9223372036854775807"}})")
        << qint64(-1) << qint64(0);
    QTest::newRow("bybit: timeNano beyond int64")
        << QByteArray("bybit") << QByteArray(R"({"retCode":0,"result":{"timeNano":"99999999999999999999"}})")
        << qint64(-1) << qint64(0);
    QTest::newRow("kraken: errors") << QByteArray(
        "kraken") << QByteArray(R"({"error":["EService:Unavailable"],"result":{"unixtime":1688669448}})")
                                    << qint64(-1) << qint64(0);
    QTest::newRow("kraken: milliseconds are no seconds")
        << QByteArray("kraken") << QByteArray(R"({"error":[],"result":{"unixtime":1688669448000}})") << qint64(-1)
        << qint64(0);
    QTest::newRow("coinbase: epochMillis not digits")
        << QByteArray("coinbase") << QByteArray(R"({"epochMillis":"16836531x2160"})") << qint64(-1) << qint64(0);
    QTest::newRow("coinbase: not JSON") << QByteArray("coinbase") << QByteArray("\x1b[31mred") << qint64(-1)
                                        << qint64(0);
}

void TestVenueServerTime::readsEachVenuesAnswer()
{
    QFETCH(QByteArray, venue);
    QFETCH(QByteArray, body);
    QFETCH(qint64, timeUs);
    QFETCH(qint64, resolutionUs);
    RecordingHost host;
    const StreamConfig config = configOf(venue.constData(), QStringLiteral("wss://example.invalid/ws"));
    const auto handler = VenueHandler::create(config, host);
    const ServerTimeReader reader = handler->serverTimeReader();
    QVERIFY(reader);
    const std::optional<ServerTimeReading> r = reader(body);
    if (timeUs < 0) {
        QVERIFY2(!r, qPrintable(QString::number(r ? r->timeUs : 0)));
        return;
    }
    QVERIFY(r);
    QCOMPARE(r->timeUs, timeUs);
    QCOMPARE(r->resolutionUs, resolutionUs);
}

void TestVenueServerTime::endpointUnderTheRestHost_data()
{
    QTest::addColumn<QByteArray>("venue");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("restUrl");
    QTest::addColumn<QString>("expected");
    QTest::newRow("okx") << QByteArray("okx") << QStringLiteral("wss://ws.okx.com:8443/ws/v5/public") << QString()
                         << QStringLiteral("https://www.okx.com/api/v5/public/time");
    QTest::newRow("okx demo trading") << QByteArray("okx") << QStringLiteral("wss://wspap.okx.com:8443/ws/v5/public")
                                      << QString() << QStringLiteral("https://www.okx.com/api/v5/public/time");
    QTest::newRow("bybit spot") << QByteArray("bybit") << QStringLiteral("wss://stream.bybit.com/v5/public/spot")
                                << QString() << QStringLiteral("https://api.bybit.com/v5/market/time");
    QTest::newRow("bybit testnet") << QByteArray("bybit")
                                   << QStringLiteral("wss://stream-testnet.bybit.com/v5/public/linear") << QString()
                                   << QStringLiteral("https://api-testnet.bybit.com/v5/market/time");
    QTest::newRow("kraken") << QByteArray("kraken") << QStringLiteral("wss://ws.kraken.com/v2") << QString()
                            << QStringLiteral("https://api.kraken.com/0/public/Time");
    QTest::newRow("coinbase") << QByteArray("coinbase") << QStringLiteral("wss://advanced-trade-ws.coinbase.com")
                              << QString() << QStringLiteral("https://api.coinbase.com/api/v3/brokerage/time");
    QTest::newRow("another host is asked itself, ws → http")
        << QByteArray("bybit") << QStringLiteral("ws://127.0.0.1:9000/v5/public/spot") << QString()
        << QStringLiteral("http://127.0.0.1:9000/v5/market/time");
    QTest::newRow("another host is asked itself, wss → https")
        << QByteArray("kraken") << QStringLiteral("wss://127.0.0.1:9443/v2") << QString()
        << QStringLiteral("https://127.0.0.1:9443/0/public/Time");
    QTest::newRow("rest_url, its path kept")
        << QByteArray("okx") << QStringLiteral("wss://ws.okx.com:8443/ws/v5/public")
        << QStringLiteral("http://127.0.0.1:8080/proxy/")
        << QStringLiteral("http://127.0.0.1:8080/proxy/api/v5/public/time");
    QTest::newRow("binance unchanged") << QByteArray("binance") << QStringLiteral("wss://stream.binance.com:9443/ws")
                                       << QString() << QStringLiteral("https://api.binance.com/api/v3/time");
    QTest::newRow("hyperliquid: none") << QByteArray("hyperliquid") << QStringLiteral("wss://api.hyperliquid.xyz/ws")
                                       << QString() << QString();
}

void TestVenueServerTime::endpointUnderTheRestHost()
{
    QFETCH(QByteArray, venue);
    QFETCH(QString, url);
    QFETCH(QString, restUrl);
    QFETCH(QString, expected);
    RecordingHost host;
    const StreamConfig config = configOf(venue.constData(), url, restUrl);
    const auto handler = VenueHandler::create(config, host);
    QCOMPARE(handler->serverTimeUrl().toString(), expected);
}

void TestVenueServerTime::offsetFromEachVenue_data()
{
    QTest::addColumn<QByteArray>("venue");
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QString>("subscription");
    QTest::newRow("okx") << QByteArray("okx") << QByteArray("/api/v5/public/time") << QStringLiteral("trades:BTC-USDT");
    QTest::newRow("bybit") << QByteArray("bybit") << QByteArray("/v5/market/time")
                           << QStringLiteral("publicTrade:BTCUSDT");
    QTest::newRow("kraken (whole seconds)")
        << QByteArray("kraken") << QByteArray("/0/public/Time") << QStringLiteral("trade:BTC/USD");
    QTest::newRow("coinbase") << QByteArray("coinbase") << QByteArray("/api/v3/brokerage/time")
                              << QStringLiteral("market_trades:BTC-USD");
}

void TestVenueServerTime::offsetFromEachVenue()
{
    QFETCH(QByteArray, venue);
    QFETCH(QByteArray, path);
    QFETCH(QString, subscription);
    VenueTimeServer time(venue, path);
    QVERIFY(time.listen(QHostAddress::LocalHost));
    LoopbackVenueServer stream(QStringLiteral("/ws"), QStringLiteral("ping"), QStringLiteral("pong"));
    QVERIFY(stream.listen());
    Engine engine;
    StreamConfig c = channelStream(venue.constData(), stream.url(), {subscription});
    c.restUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(time.serverPort()));
    const StreamId id = engine.addStream(c);
    // The burst of the first samples (five, 0.7 s apart).
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).clock.serverTimeSamples >= 5, scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).clock.source, ClockOffsetSource::ServerTime, scaledMs(5000));
    const StreamSnapshot s = engine.snapshot(id);
    QCOMPARE(s.clock.serverTimeUrl.toString(),
             QStringLiteral("http://127.0.0.1:%1%2").arg(time.serverPort()).arg(QString::fromLatin1(path)));
    QCOMPARE(s.clock.serverTimeErrors, quint64(0));
    QCOMPARE(time.refused, 0);
    QVERIFY(time.answered >= 5);
    QVERIFY(s.clock.uncertaintyMs > 0);
    qInfo("%s: %s", venue.constData(), qPrintable(offsetText(s.clock, kAheadMs)));
    QVERIFY2(offsetWithin(s.clock, kAheadMs), qPrintable(offsetText(s.clock, kAheadMs)));
    // Whole seconds alone would leave ±500 ms; answers read at other fractions of the venue's
    // second narrow it (the burst's 0.7 s steps cover the second).
    QVERIFY2(s.clock.uncertaintyMs < 450.0, qPrintable(QString::number(s.clock.uncertaintyMs)));
}

void TestVenueServerTime::noServerTimeForHyperliquid()
{
    LoopbackVenueServer stream(QStringLiteral("/ws"), QStringLiteral(R"({"method":"ping"})"),
                               QStringLiteral(R"({"channel":"pong"})"));
    QVERIFY(stream.listen());
    Engine engine;
    const StreamId id = engine.addStream(channelStream("hyperliquid", stream.url(), {QStringLiteral("trades:BTC")}));
    QTRY_COMPARE_WITH_TIMEOUT(stream.connections, 1, scaledMs(10000));
    QTest::qWait(1500);
    const StreamSnapshot s = engine.snapshot(id);
    QVERIFY(s.clock.serverTimeUrl.isEmpty());
    QCOMPARE(s.clock.serverTimeSamples + s.clock.serverTimeErrors, quint64(0));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestVenueServerTime)
#include "tst_venueservertime.moc"
