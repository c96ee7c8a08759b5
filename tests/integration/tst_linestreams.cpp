// CRLF line streams over TCP and TLS against the replay server: exact counts, the
// Betfair-style flow, authentication failure, oversized lines.

#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include "BuiltinCertificate.h"

#include <QtCore/QTemporaryDir>

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;
using replay::ReplayServer;

class TestLineStreams : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void plainTcpCountsExactly();
    void betfairOverTlsCountsExactly();
    void authenticationFailureIsFailedNotRetried();
    void untrustedCertificateIsRefused();
    void oversizedLineClosesAndReconnects();
    void quietLineStreamStallsWithoutReconnecting();

private:
    StreamConfig betfair(quint16 port) const;
    QTemporaryDir m_dir;
    QString m_caFile;
};

void TestLineStreams::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_caFile = m_dir.filePath(QStringLiteral("ca.pem"));
    QFile f(m_caFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(replay::builtinCertificatePem());
}

StreamConfig TestLineStreams::betfair(quint16 port) const
{
    StreamConfig c;
    c.name = QStringLiteral("bf");
    c.venue = Venue("betfair");
    c.url = QUrl(QStringLiteral("tls://127.0.0.1:%1").arg(port));
    c.appKey = QStringLiteral("env:STREAMSCOPE_TEST_APP_KEY");
    c.session = QStringLiteral("env:STREAMSCOPE_TEST_SESSION");
    c.marketSubscription =
        QJsonObject{{QStringLiteral("marketFilter"),
                     QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.2345")}}}}};
    c.caFile = m_caFile;
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    return c;
}

void TestLineStreams::plainTcpCountsExactly()
{
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.count = 20000;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("lines");
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:%1").arg(server.port()));
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(20000), scaledMs(20000));
    QTest::qWait(50);
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.latency.count, quint64(20000));
    QCOMPARE(server.totalSent(), quint64(20000));
}

void TestLineStreams::betfairOverTlsCountsExactly()
{
    qputenv("STREAMSCOPE_TEST_APP_KEY", "app-key");
    qputenv("STREAMSCOPE_TEST_SESSION", "session-token");
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.tls = true;
    o.scenario = QStringLiteral("betfair_mcm");
    o.count = 5000;
    o.authSession = QStringLiteral("session-token");
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    const StreamId id = engine.addStream(betfair(server.port()));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages + engine.snapshot(id).heartbeats, quint64(5000),
                              scaledMs(20000));
    const StreamSnapshot s = engine.snapshot(id, true);
    QCOMPARE(s.state, StreamState::Live);
    QVERIFY(s.heartbeats >= 4);              // one HEARTBEAT every 1,000
    QCOMPARE(s.controlMessages, quint64(1)); // the connection message
    QVERIFY(s.results >= 2);                 // authentication and subscription succeeded
    QCOMPARE(s.errors, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    QVERIFY(s.latency.count > 0);
    const auto results = engine.results(id);
    QCOMPARE(results.at(0).method, QStringLiteral("authentication"));
    QCOMPARE(results.at(1).method, QStringLiteral("marketSubscription"));
}

void TestLineStreams::authenticationFailureIsFailedNotRetried()
{
    qputenv("STREAMSCOPE_TEST_APP_KEY", "app-key");
    qputenv("STREAMSCOPE_TEST_SESSION", "wrong-session");
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.tls = true;
    o.scenario = QStringLiteral("betfair_mcm");
    o.authSession = QStringLiteral("session-token");
    ReplayServer server{o};
    QVERIFY(server.listen());
    QSignalSpy connects(&server, &ReplayServer::clientConnected);
    Engine engine;
    const StreamId id = engine.addStream(betfair(server.port()));
    WAIT_STATE(engine, id, StreamState::Failed, 20000);
    const StreamSnapshot s = engine.snapshot(id);
    QVERIFY2(s.stateReason.contains(QLatin1String("authentication failed")), qPrintable(s.stateReason));
    QVERIFY2(s.stateReason.contains(QLatin1String("NO_SESSION")), qPrintable(s.stateReason));
    QVERIFY(!s.stateReason.contains(QLatin1String("wrong-session"))); // never the secret
    QTest::qWait(400);
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    QCOMPARE(connects.count(), 1);
}

void TestLineStreams::untrustedCertificateIsRefused()
{
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.tls = true;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("untrusted");
    c.url = QUrl(QStringLiteral("tls://127.0.0.1:%1").arg(server.port()));
    c.reconnectBaseMs = 1000;
    const StreamId id = engine.addStream(c); // no ca_file: the self-signed certificate is not trusted
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).state == StreamState::Reconnecting, scaledMs(20000));
    QVERIFY2(engine.snapshot(id).stateReason.contains(QLatin1String("TLS")),
             qPrintable(engine.snapshot(id).stateReason));
    QCOMPARE(engine.snapshot(id).messages, quint64(0));
}

void TestLineStreams::oversizedLineClosesAndReconnects()
{
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.loop = true;
    o.rate = 1000;
    o.misbehave = QStringLiteral("oversized");
    o.after = 100;
    o.oversizedBytes = 200000;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("oversized");
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:%1").arg(server.port()));
    c.maxMessageBytes = 64 * 1024;
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 100;
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).reconnects >= 1, scaledMs(20000));
    QTRY_VERIFY(engine.snapshot(id).messages > 150);
    QCOMPARE(engine.snapshot(id).parseErrors, quint64(0));
}

// A line stream has no ping and gets no pongs: quiet for longer than pong_timeout_ms, it
// stays on its connection and becomes Stalled after stall_timeout_ms; reconnect_on_stall is
// off, so it is not reconnected.
void TestLineStreams::quietLineStreamStallsWithoutReconnecting()
{
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.loop = true;
    o.rate = 1000;
    o.misbehave = QStringLiteral("silent");
    o.after = 5; // then silent for good, the connection open
    ReplayServer server{o};
    QVERIFY(server.listen());
    QSignalSpy connects(&server, &ReplayServer::clientConnected);
    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("quiet");
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:%1").arg(server.port()));
    c.pingIntervalMs = 100;
    c.pongTimeoutMs = 300; // well before the stall timeout: a websocket would be dead by then
    c.stallTimeoutMs = 1500;
    c.reconnectOnStall = false;
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 100;
    const StreamId id = engine.addStream(c);
    WAIT_STATE(engine, id, StreamState::Stalled, 20000);
    const StreamSnapshot s = engine.snapshot(id);
    QVERIFY2(s.stateReason.startsWith(QLatin1String("no data for")), qPrintable(s.stateReason));
    QCOMPARE(s.dataMessages, quint64(5));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(connects.count(), 1);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestLineStreams)
#include "tst_linestreams.moc"
