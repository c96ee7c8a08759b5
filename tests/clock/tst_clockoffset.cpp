// The offset to a venue's clock, end to end on loopback: the replay server with a shifted
// clock (--clock-offset-ms) answers GET /api/v3/time like Binance, and every other venue's
// server-time path in that venue's shape; the engine estimates the offset within the uncertainty
// it reports, corrects latency by it and explains negative
// latencies; without a server time (a closed port, garbage answers, a venue without one) the
// latency floor is the source.

#include "../common/ClockOffsetCheck.h"
#include "../common/TestRegistry.h"
#include "../integration/IntegrationSupport.h"

#include "BuiltinCertificate.h"
#include "ReplayServerThread.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;
using replay::ReplayServer;

namespace {

// Answers every HTTP request on a connection with one fixed response, then closes.
class FixedHttpServer : public QTcpServer {
public:
    explicit FixedHttpServer(QByteArray response)
        : m_response(std::move(response))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    m_request += s->readAll();
                    if (m_request.contains("\r\n\r\n")) {
                        m_request.clear();
                        ++requests;
                        s->write(m_response);
                        s->disconnectFromHost();
                    }
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    int requests = 0;

private:
    QByteArray m_response;
    QByteArray m_request;
};

QByteArray httpResponse(const QByteArray &status, const QByteArray &body)
{
    return "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

qint64 wallMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

class TestClockOffset : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void replayAnswersServerTime_data();
    void replayAnswersServerTime();
    void offsetFromServerTime_data();
    void offsetFromServerTime();
    void offsetFromEachVenuesReplayServerTime_data();
    void offsetFromEachVenuesReplayServerTime();
    void latencyFloorWhenServerTimeIsUnavailable();
    void latencyFloorForOtherVenues();
    void garbageServerTimeIsCounted_data();
    void garbageServerTimeIsCounted();

private:
    QTemporaryDir m_dir;
    QString m_caFile;
};

void TestClockOffset::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_caFile = m_dir.filePath(QStringLiteral("ca.pem"));
    QFile f(m_caFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(replay::builtinCertificatePem());
}

void TestClockOffset::replayAnswersServerTime_data()
{
    QTest::addColumn<bool>("tls");
    QTest::addColumn<QString>("path");
    QTest::addColumn<qint64>("offsetMs");
    QTest::newRow("http spot +500 ms") << false << QStringLiteral("/api/v3/time") << qint64(500);
    QTest::newRow("http futures -500 ms") << false << QStringLiteral("/fapi/v1/time") << qint64(-500);
    QTest::newRow("https spot +500 ms") << true << QStringLiteral("/api/v3/time?x=1") << qint64(500);
}

void TestClockOffset::replayAnswersServerTime()
{
    QFETCH(bool, tls);
    QFETCH(QString, path);
    QFETCH(qint64, offsetMs);
    ReplayOptions o;
    o.tls = tls;
    o.clockOffsetMs = offsetMs;
    ReplayServer server{o};
    QVERIFY(server.listen());
    QNetworkAccessManager manager;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.addCaCertificates(m_caFile);
    const QUrl url(QStringLiteral("%1://127.0.0.1:%2%3")
                       .arg(tls ? QStringLiteral("https") : QStringLiteral("http"))
                       .arg(server.port())
                       .arg(path));
    // Two requests: the second on the kept-alive connection.
    for (int i = 0; i < 2; ++i) {
        QNetworkRequest request(url);
        request.setSslConfiguration(ssl);
        const qint64 sent = wallMs();
        QNetworkReply *reply = manager.get(request);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(scaledMs(10000)));
        const qint64 received = wallMs();
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
        const auto serverTime = qint64(answer.value(QLatin1String("serverTime")).toDouble());
        QVERIFY2(serverTime >= sent + offsetMs - 1 && serverTime <= received + offsetMs + 1,
                 qPrintable(QStringLiteral("%1 not within [%2, %3] + offset").arg(serverTime).arg(sent).arg(received)));
        reply->deleteLater();
    }
    QCOMPARE(server.connectionCount(), 0); // a time request is no stream connection
}

void TestClockOffset::offsetFromServerTime_data()
{
    QTest::addColumn<qint64>("offsetMs");
    QTest::addColumn<bool>("tls");
    QTest::addColumn<bool>("perConnection"); // the offset in the URLs, not server-wide
    QTest::newRow("venue ahead by 500 ms (negative raw latencies)") << qint64(500) << false << false;
    QTest::newRow("venue behind by 500 ms") << qint64(-500) << false << false;
    QTest::newRow("wss, venue ahead by 500 ms") << qint64(500) << true << false;
    QTest::newRow("one connection's clock ahead by 300 ms") << qint64(300) << false << true;
}

void TestClockOffset::offsetFromServerTime()
{
    QFETCH(qint64, offsetMs);
    QFETCH(bool, tls);
    QFETCH(bool, perConnection);
    ReplayOptions o;
    o.clockOffsetMs = perConnection ? 0 : offsetMs;
    o.tls = tls;
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(o);
    QVERIFY2(port != 0, qPrintable(replay.errorString()));
    QList<StreamEvent> events; // before the engine, which may publish while it stops
    Engine engine;
    connect(&engine, &Engine::eventOccurred, this, [&events](const StreamEvent &e) { events << e; });
    StreamConfig c = wsStream(QStringLiteral("shifted"), port, QStringLiteral("small_aggtrade?rate=200&loop=1"));
    QString expectedUrl = QStringLiteral("%1://127.0.0.1:%2/api/v3/time")
                              .arg(tls ? QStringLiteral("https") : QStringLiteral("http"))
                              .arg(port);
    if (perConnection) {
        const QString query = QStringLiteral("clock_offset_ms=%1").arg(offsetMs);
        c.url.setQuery(c.url.query() + QLatin1Char('&') + query);
        expectedUrl += QLatin1Char('?') + query;
        c.serverTimeUrl = QUrl(expectedUrl);
    }
    if (tls) {
        c.url.setScheme(QStringLiteral("wss"));
        c.caFile = m_caFile;
    }
    const StreamId id = engine.addStream(c);
    // The burst of the first samples: several answers, the shortest round trip kept.
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).clock.serverTimeSamples >= 3, scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id, true).latencyCorrected.count >= 200, scaledMs(15000));
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.clock.source, ClockOffsetSource::ServerTime);
    QCOMPARE(s.clock.serverTimeUrl.toString(), expectedUrl);
    QCOMPARE(s.clock.serverTimeErrors, quint64(0));
    QVERIFY(s.clock.uncertaintyMs > 0);
    QVERIFY2(offsetWithin(s.clock, offsetMs), qPrintable(offsetText(s.clock, offsetMs)));
    // Corrected latency is the small loopback latency, not the offset: well under the 500 ms.
    const double correctedP50Ms = s.latencyCorrected.percentileUs(0.5) / 1000.0;
    qInfo("offset %.3f ms ± %.3f ms (true %lld ms), %llu samples; corrected p50 %.3f ms over %llu", s.clock.offsetMs,
          s.clock.uncertaintyMs, offsetMs, qulonglong(s.clock.serverTimeSamples), correctedP50Ms,
          qulonglong(s.latencyCorrected.count));
    QVERIFY2(correctedP50Ms < 100.0 * timeFactor(), qPrintable(QString::number(correctedP50Ms)));
    // No corrected latency is below −uncertainty: the true one is never negative. (Loopback
    // latencies below the uncertainty may come out slightly negative, and are counted so.)
    QVERIFY2(s.clock.hasFloor && s.clock.latencyFloorMs + s.clock.offsetMs >= -(s.clock.uncertaintyMs + 0.5),
             qPrintable(QStringLiteral("floor %1 ms").arg(s.clock.latencyFloorMs)));
    if (offsetMs > 0) {
        QVERIFY(s.latency.negative > 0); // the raw figures all read about −500 ms
        QVERIFY(s.clock.hasFloor && s.clock.latencyFloorMs < -0.8 * double(offsetMs));
    } else {
        QVERIFY(s.latency.percentileUs(0.5) / 1000.0 > -0.9 * double(offsetMs));
    }
    // Explained, not just counted: an event and the snapshot's note.
    const QRegularExpression re(
        QStringLiteral("^clock (behind|ahead of) the venue by ~(\\d+) ms \\(server time, ±([0-9.]+) ms\\)"));
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(events.cbegin(), events.cend(),
                    [&](const StreamEvent &e) { return e.kind == EventKind::Info && re.match(e.text).hasMatch(); }),
        scaledMs(5000));
    // Nothing was explained by a guess while the first server time was awaited.
    QVERIFY(std::none_of(events.cbegin(), events.cend(), [](const StreamEvent &e) {
        return e.kind == EventKind::Info && e.text.contains(QLatin1String("no server time"));
    }));
    const QRegularExpressionMatch m = re.match(engine.snapshot(id).clock.note);
    QVERIFY2(m.hasMatch(), qPrintable(engine.snapshot(id).clock.note));
    QCOMPARE(m.captured(1), offsetMs > 0 ? QStringLiteral("behind") : QStringLiteral("ahead of"));
    // The figure given is within the uncertainty given (the first answers may have been slower).
    QVERIFY2(qAbs(m.captured(2).toDouble() - double(qAbs(offsetMs))) <= m.captured(3).toDouble() + 1.0,
             qPrintable(m.captured(0)));
    if (offsetMs > 0)
        QVERIFY2(engine.snapshot(id).clock.note.contains(QStringLiteral("negative latencies")),
                 qPrintable(engine.snapshot(id).clock.note));
    QCOMPARE(engine.snapshot(id).state, StreamState::Live);
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
}

void TestClockOffset::offsetFromEachVenuesReplayServerTime_data()
{
    QTest::addColumn<QByteArray>("venue");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("subscription");
    QTest::addColumn<QString>("path");
    QTest::newRow("okx") << QByteArray("okx") << QStringLiteral("okx_trades") << QStringLiteral("trades:BTC-USDT")
                         << QStringLiteral("/api/v5/public/time");
    QTest::newRow("bybit (ns)") << QByteArray("bybit") << QStringLiteral("bybit_trades")
                                << QStringLiteral("publicTrade:BTCUSDT") << QStringLiteral("/v5/market/time");
    QTest::newRow("kraken (whole seconds)") << QByteArray("kraken") << QStringLiteral("kraken_trades")
                                            << QStringLiteral("trade:BTC/USD") << QStringLiteral("/0/public/Time");
    QTest::newRow("coinbase") << QByteArray("coinbase") << QStringLiteral("coinbase_trades")
                              << QStringLiteral("market_trades:BTC-USD") << QStringLiteral("/api/v3/brokerage/time");
}

// A stream of each venue with a server time against the replay server (as in the demo): its
// server-time probe asks the replay server itself at the venue's path and is answered in the
// venue's shape, by the server's shifted clock; the offset is measured, with no error counted.
void TestClockOffset::offsetFromEachVenuesReplayServerTime()
{
    QFETCH(QByteArray, venue);
    QFETCH(QString, scenario);
    QFETCH(QString, subscription);
    QFETCH(QString, path);
    constexpr qint64 kOffsetMs = 500;
    ReplayOptions o;
    o.clockOffsetMs = kOffsetMs;
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(o);
    QVERIFY2(port != 0, qPrintable(replay.errorString()));
    Engine engine;
    StreamConfig c = wsStream(QString::fromLatin1(venue), port, scenario + QStringLiteral("?rate=50&wait_subscribe=1"));
    c.venue = Venue(venue.constData());
    c.subscribe = {subscription};
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).clock.serverTimeSamples >= 5, scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).clock.source, ClockOffsetSource::ServerTime, scaledMs(5000));
    const StreamSnapshot s = engine.snapshot(id);
    QCOMPARE(s.clock.serverTimeUrl.toString(), QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(path));
    QVERIFY2(s.clock.serverTimeErrors == 0, qPrintable(s.clock.serverTimeError));
    QVERIFY(s.clock.uncertaintyMs > 0);
    qInfo("%s: %s", venue.constData(), qPrintable(offsetText(s.clock, kOffsetMs)));
    QVERIFY2(offsetWithin(s.clock, kOffsetMs), qPrintable(offsetText(s.clock, kOffsetMs)));
}

void TestClockOffset::latencyFloorWhenServerTimeIsUnavailable()
{
    // A port that was just free: nothing listens there.
    quint16 closedPort = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        closedPort = probe.serverPort();
    }
    ReplayOptions o;
    o.clockOffsetMs = 500;
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(o);
    QVERIFY(port != 0);
    QList<StreamEvent> events; // before the engine, which may publish while it stops
    Engine engine;
    connect(&engine, &Engine::eventOccurred, this, [&events](const StreamEvent &e) { events << e; });
    StreamConfig c = wsStream(QStringLiteral("floor"), port, QStringLiteral("small_aggtrade?rate=200&loop=1"));
    c.serverTimeUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/api/v3/time").arg(closedPort));
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).clock.serverTimeErrors >= 2, scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id, true).latencyCorrected.count >= 100, scaledMs(15000));
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.clock.source, ClockOffsetSource::LatencyFloor);
    QCOMPARE(s.clock.serverTimeSamples, quint64(0));
    QCOMPARE(s.clock.uncertaintyMs, -1.0); // a bound, not an interval
    // The floor is −500 ms plus the smallest delay: the clock is behind by at least that.
    QVERIFY2(s.clock.offsetMs > 400 && s.clock.offsetMs <= 501.5, qPrintable(QString::number(s.clock.offsetMs)));
    QCOMPARE(s.clock.latencyFloorMs, -s.clock.offsetMs);
    QVERIFY(s.latencyCorrected.percentileUs(0.5) / 1000.0 < 100.0 * timeFactor());
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.cbegin(), events.cend(),
                                         [](const StreamEvent &e) {
                                             return e.kind == EventKind::Info
                                                 && e.text.startsWith(
                                                     QStringLiteral("clock behind the venue by at least "))
                                                 && e.text.contains(QStringLiteral("no server time"));
                                         }),
                             scaledMs(5000));
    QCOMPARE(engine.snapshot(id).state, StreamState::Live);
}

void TestClockOffset::latencyFloorForOtherVenues()
{
    // A generic line stream: no server time is asked; its floor is positive, so nothing is
    // corrected and nothing needs explaining.
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.rate = 200;
    o.loop = true;
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(o);
    QVERIFY(port != 0);
    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("lines");
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:%1").arg(port));
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id, true).latencyCorrected.count >= 50, scaledMs(15000));
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.clock.source, ClockOffsetSource::LatencyFloor);
    QVERIFY(s.clock.serverTimeUrl.isEmpty());
    QCOMPARE(s.clock.serverTimeSamples + s.clock.serverTimeErrors, quint64(0));
    QVERIFY(s.clock.hasFloor && s.clock.latencyFloorMs >= 0);
    QCOMPARE(s.clock.offsetMs, 0.0);
    QVERIFY(s.clock.note.isEmpty());
}

void TestClockOffset::garbageServerTimeIsCounted_data()
{
    QTest::addColumn<QByteArray>("response");
    QTest::addColumn<QString>("error"); // how the kept error starts
    const QString notATime = QStringLiteral("not a server time: ");
    QTest::newRow("not JSON") << httpResponse("200 OK", "serverTime=1700000000000")
                              << notATime + QStringLiteral("serverTime=1700000000000");
    QTest::newRow("no serverTime") << httpResponse("200 OK", "{\"time\":1700000000000}") << notATime;
    QTest::newRow("serverTime a string") << httpResponse("200 OK", "{\"serverTime\":\"1700000000000\"}") << notATime;
    QTest::newRow("serverTime not plausible")
        << httpResponse("200 OK", "{\"serverTime\":99999999999999999}") << notATime;
    QTest::newRow("serverTime fractional") << httpResponse("200 OK", "{\"serverTime\":1700000000000.5}") << notATime;
    QTest::newRow("control characters") << httpResponse("200 OK", "\x1b[31mred")
                                        << notATime + QStringLiteral("\\x1b[31mred");
    QTest::newRow("HTTP 500") << httpResponse("500 Internal Server Error", "{\"serverTime\":1700000000000}")
                              << QString();
    QTest::newRow("redirect") << QByteArray("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/\r\n"
                                            "Content-Length: 0\r\nConnection: close\r\n\r\n")
                              << QStringLiteral("HTTP status 302");
    QTest::newRow("one megabyte") << httpResponse(
        "200 OK", "{\"serverTime\":1700000000000,\"pad\":\"" + QByteArray(1024 * 1024, 'x') + "\"}")
                                  << QStringLiteral("answer over 4096 bytes");
}

void TestClockOffset::garbageServerTimeIsCounted()
{
    QFETCH(QByteArray, response);
    QFETCH(QString, error);
    FixedHttpServer garbage(response);
    QVERIFY(garbage.listen(QHostAddress::LocalHost));
    replay::ReplayServerThread replay;
    const quint16 port = replay.start(ReplayOptions{});
    QVERIFY(port != 0);
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("garbage"), port, QStringLiteral("small_aggtrade?rate=200&loop=1"));
    c.serverTimeUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/api/v3/time").arg(garbage.serverPort()));
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).clock.serverTimeErrors >= 2, scaledMs(15000));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).clock.source, ClockOffsetSource::LatencyFloor, scaledMs(5000));
    const StreamSnapshot s = engine.snapshot(id);
    QCOMPARE(s.clock.serverTimeSamples, quint64(0));
    QCOMPARE(s.state, StreamState::Live);
    QVERIFY(garbage.requests >= 2);
    QVERIFY(!s.clock.serverTimeError.isEmpty());
    QVERIFY2(s.clock.serverTimeError.startsWith(error), qPrintable(s.clock.serverTimeError));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestClockOffset)
#include "tst_clockoffset.moc"
