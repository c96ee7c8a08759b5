// Betfair venue behaviour on loopback against the replay server's TLS line side:
// resubscription with the last clk after a reconnect (RESUB_DELTA), status 503 as a state
// of its own without disconnecting, con=true flagged when conflateMs is 0, segments as one
// update, SUB_IMAGE mid-stream, heartbeats apart, connectionId/connectionsAvailable, the
// stale alarm at 3 x heartbeatMs, authentication failure, and no secret in any file the
// application writes.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "BuiltinCertificate.h"

#include <QtCore/QDirIterator>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;
using replay::ReplayServer;

class TestBetfairVenue : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void reconnectResubscribesWithTheLastClk();
    void changeMessagesAreCountedByKind();
    void staleAlarmAtThreeHeartbeats();
    void authenticationFailureIsFailedWithTheVenueCode();
    void noSecretInAnyFileTheApplicationWrote();

private:
    StreamConfig betfair(quint16 port) const;
    ReplayOptions lineServer(quint64 count) const;
    QTemporaryDir m_dir;
    QString m_caFile;
};

namespace {
const QByteArray kAppKey = "venue-test-app-key-7f3a";
const QByteArray kSession = "venue-test-session-c41d";
} // namespace

void TestBetfairVenue::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_caFile = m_dir.filePath(QStringLiteral("ca.pem"));
    QFile f(m_caFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(replay::builtinCertificatePem());
    qputenv("STREAMSCOPE_VENUE_APP_KEY", kAppKey);
    qputenv("STREAMSCOPE_VENUE_SESSION", kSession);
}

StreamConfig TestBetfairVenue::betfair(quint16 port) const
{
    StreamConfig c;
    c.name = QStringLiteral("bf");
    c.venue = Venue("betfair");
    c.url = QUrl(QStringLiteral("tls://127.0.0.1:%1").arg(port));
    c.appKey = QStringLiteral("env:STREAMSCOPE_VENUE_APP_KEY");
    c.session = QStringLiteral("env:STREAMSCOPE_VENUE_SESSION");
    c.marketSubscription =
        QJsonObject{{QStringLiteral("marketFilter"),
                     QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.2345")}}}}};
    c.caFile = m_caFile;
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    c.inspectorCapacity = 5000;
    return c;
}

ReplayOptions TestBetfairVenue::lineServer(quint64 count) const
{
    ReplayOptions o;
    o.protocol = ReplayOptions::Protocol::Line;
    o.tls = true;
    o.scenario = QStringLiteral("betfair_mcm");
    o.count = count;
    o.authSession = QString::fromLatin1(kSession);
    return o;
}

void TestBetfairVenue::reconnectResubscribesWithTheLastClk()
{
    ReplayOptions o = lineServer(1000);
    o.misbehave = QStringLiteral("drop"); // once: the reconnect is served in full
    o.after = 400;
    o.rate = 4000; // paced, so that the client has read what came before the drop
    ReplayServer server{o};
    QVERIFY(server.listen());
    QStringList subscriptions;
    connect(&server, &ReplayServer::controlReceived, this, [&](const QString &line) {
        if (line.contains(QLatin1String("\"marketSubscription\"")))
            subscriptions << line;
    });
    Engine engine;
    const StreamId id = engine.addStream(betfair(server.port()));
    engine.setInspecting(id, true);
    QTRY_VERIFY2_WITH_TIMEOUT(
        snap(engine, id).resubDeltas == 1,
        qPrintable(QStringLiteral("reconnects %1, data %2, state %3, subscriptions: %4")
                       .arg(snap(engine, id).reconnects)
                       .arg(snap(engine, id).dataMessages)
                       .arg(stateName(snap(engine, id).state), subscriptions.join(QLatin1Char('\n')))),
        scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Live, scaledMs(20000));
    QCOMPARE(subscriptions.size(), 2);
    QVERIFY(!subscriptions.at(0).contains(QLatin1String("clk")));

    // The clk of the last change message before the second connection message.
    QString lastClk;
    QString initialClk;
    int connections = 0;
    for (const InspectedMessage &m : engine.takeInspected(id)) {
        const QJsonObject msg = QJsonDocument::fromJson(m.text).object();
        if (msg.value(QStringLiteral("op")).toString() == QLatin1String("connection") && ++connections == 2)
            break;
        if (msg.contains(QStringLiteral("clk")))
            lastClk = msg.value(QStringLiteral("clk")).toString();
        if (msg.contains(QStringLiteral("initialClk")))
            initialClk = msg.value(QStringLiteral("initialClk")).toString();
    }
    QCOMPARE(connections, 2);
    QVERIFY(!lastClk.isEmpty());
    const QJsonObject resub = QJsonDocument::fromJson(subscriptions.at(1).toUtf8()).object();
    QCOMPARE(resub.value(QStringLiteral("clk")).toString(), lastClk);
    QCOMPARE(resub.value(QStringLiteral("initialClk")).toString(), initialClk);
    const QJsonObject filter{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.2345")}}};
    QCOMPARE(resub.value(QStringLiteral("marketFilter")).toObject(), filter);
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.reconnects, quint64(1));
    QCOMPARE(s.images, quint64(1)); // the first SUB_IMAGE only; the resubscription got a delta
}

void TestBetfairVenue::changeMessagesAreCountedByKind()
{
    // 1,999 messages: 0 SUB_IMAGE, 700 SUB_IMAGE mid-stream, 999 HEARTBEAT, every 30th
    // group ends in a three-part segment, every 100th is conflated, the last five say 503.
    constexpr quint64 kCount = 1999;
    ReplayOptions o = lineServer(kCount);
    o.imageAfter = 700;
    o.segmentEvery = 30;
    o.conflatedEvery = 100;
    o.status503After = kCount - 5;
    o.status503Count = 5;
    ReplayServer server{o};
    QVERIFY(server.listen());
    // The same rules as the server's, to know what to expect.
    quint64 heartbeats = 0, images = 0, segments = 0, segmentEnds = 0, conflated = 0;
    for (quint64 i = 0; i < kCount; ++i) {
        if (i == 0) {
            ++images;
        } else if ((i + 1) % 1000 == 0) {
            ++heartbeats;
        } else if (i == 700) {
            ++images;
        } else if (i >= kCount - 5) {
        } else if (i % 30 + 3 >= 30) {
            ++segments;
            segmentEnds += i % 30 == 29;
        } else if ((i + 1) % 100 == 0) {
            ++conflated;
        }
    }
    Engine engine;
    const StreamId id = engine.addStream(betfair(server.port()));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages + snap(engine, id).heartbeats, kCount, scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Degraded, scaledMs(20000));
    QTRY_VERIFY_WITH_TIMEOUT(!snap(engine, id).connectionId.isEmpty(), scaledMs(20000));
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(stateName(s.state), QStringLiteral("degraded"));
    QVERIFY2(s.stateReason.contains(QLatin1String("503")), qPrintable(s.stateReason));
    QCOMPARE(s.status503, quint64(5));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(server.connectionCount(), 1); // 503 keeps the connection
    QCOMPARE(s.heartbeats, heartbeats);
    QCOMPARE(s.dataMessages, kCount - heartbeats);
    QCOMPARE(s.images, images);
    QCOMPARE(s.segments, segments);
    QCOMPARE(s.updates, s.dataMessages - (segments - segmentEnds)); // a segmented change is one update
    QCOMPARE(s.conflated, conflated);
    QVERIFY(s.conflatedUnrequested); // con=true although conflateMs is 0
    QCOMPARE(s.conflateMs, qint64(0));
    QCOMPARE(s.heartbeatMs, qint64(5000));
    QVERIFY2(s.connectionId.startsWith(QLatin1String("002-")), qPrintable(s.connectionId));
    QCOMPARE(s.connectionsAvailable, 9);
    QCOMPARE(s.parseErrors, quint64(0));
    QTRY_VERIFY_WITH_TIMEOUT(!snap(engine, id).clk.isEmpty(), scaledMs(20000));
    QCOMPARE(snap(engine, id).initialClk, QStringLiteral("xAeGqeqzBsQHkdq8uQbEB9jygrkG"));
}

void TestBetfairVenue::staleAlarmAtThreeHeartbeats()
{
    ReplayServer server{lineServer(50)}; // then quiet: no change message, not even a heartbeat
    QVERIFY(server.listen());
    Engine engine;
    StreamConfig c = betfair(server.port());
    c.heartbeatMs = 500; // echoed by the server: stale after 1.5 s
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(50), scaledMs(20000));
    QCOMPARE(snap(engine, id).heartbeatMs, qint64(500));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Stalled, scaledMs(20000));
    const StreamSnapshot s = snap(engine, id);
    // Not before 3 heartbeats of quiet, as the engine measured it: this thread may see the last
    // message late on a busy machine, so its own clock would understate the quiet.
    static const QRegularExpression quietFor(QStringLiteral("for (\\d+) ms"));
    const QRegularExpressionMatch quiet = quietFor.match(s.stateReason);
    QVERIFY2(quiet.hasMatch() && quiet.captured(1).toLongLong() > 1500, qPrintable(s.stateReason));
    QCOMPARE(s.staleAlarms, quint64(1));
    QVERIFY2(s.stateReason.contains(QLatin1String("3 x heartbeatMs = 1500 ms")), qPrintable(s.stateReason));
    QCOMPARE(s.reconnects, quint64(0));
    QVERIFY(s.results >= 3); // our heartbeat ops are answered: they do not count as the subscription's
}

void TestBetfairVenue::authenticationFailureIsFailedWithTheVenueCode()
{
    ReplayOptions o = lineServer(100);
    o.authSession = QStringLiteral("another-session");
    ReplayServer server{o};
    QVERIFY(server.listen());
    QSignalSpy connects(&server, &ReplayServer::clientConnected);
    Engine engine;
    const StreamId id = engine.addStream(betfair(server.port()));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Failed, scaledMs(20000));
    QTest::qWait(300); // a retry would have happened by now (backoff 50-200 ms)
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.venueErrorCode, QStringLiteral("NO_SESSION"));
    QCOMPARE(s.venueErrorMessage, QStringLiteral("Session token is invalid or expired"));
    QVERIFY2(s.stateReason.contains(QLatin1String("NO_SESSION")), qPrintable(s.stateReason));
    QVERIFY(!s.stateReason.contains(QLatin1String(kSession)));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(connects.count(), 1);
}

void TestBetfairVenue::noSecretInAnyFileTheApplicationWrote()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    // The server runs on this thread: the test keeps its event loop turning while the
    // application runs (no thread to hand over to, which ThreadSanitizer could not follow).
    ReplayOptions o = lineServer(0);
    o.loop = true;
    o.rate = 500;
    replay::ReplayServer replay{o};
    QVERIFY2(replay.listen(), qPrintable(replay.errorString()));
    const quint16 port = replay.port();

    const QString workspace = home.filePath(QStringLiteral("workspace.json"));
    {
        QJsonObject stream{
            {QStringLiteral("name"), QStringLiteral("bf")},
            {QStringLiteral("venue"), QStringLiteral("betfair")},
            {QStringLiteral("url"), QStringLiteral("tls://127.0.0.1:%1").arg(port)},
            {QStringLiteral("auth"),
             QJsonObject{{QStringLiteral("app_key"), QStringLiteral("env:STREAMSCOPE_VENUE_APP_KEY")},
                         {QStringLiteral("session"), QStringLiteral("env:STREAMSCOPE_VENUE_SESSION")}}},
            {QStringLiteral("market_subscription"),
             QJsonObject{{QStringLiteral("marketFilter"),
                          QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.2345")}}}}}},
            {QStringLiteral("tls"), QJsonObject{{QStringLiteral("ca_file"), m_caFile}}}};
        QFile f(workspace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), QJsonArray{stream}}})
                .toJson());
    }
    const QString report = home.filePath(QStringLiteral("out/report.json"));
    QDir().mkpath(home.filePath(QStringLiteral("out")));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral(".config")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral(".cache")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral(".local/share")));
    env.insert(QStringLiteral("XDG_STATE_HOME"), home.filePath(QStringLiteral(".local/state")));
    env.insert(QStringLiteral("TMPDIR"), home.filePath(QStringLiteral("tmp")));
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("*.debug=true"));
    QDir().mkpath(home.filePath(QStringLiteral("tmp")));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(home.path());
    p.start(QStringLiteral(STREAMSCOPE_BIN),
            {QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace, QStringLiteral("--duration"),
             QStringLiteral("1.5"), QStringLiteral("--report"), report});
    QVERIFY(p.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(p.state() == QProcess::NotRunning, scaledMs(30000));
    const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
    // On failure, say how it ended and what it printed last (one run in CI aborted once, one
    // under ASan ended with code 1): the debug logging asked for above left out, so that a
    // sanitizer's report is not cut off by the length of QtTest's message.
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        static const QRegularExpression logging(QStringLiteral("^(qt\\.|\\s+\"|[{}]\\s*$)"));
        for (const QByteArray &line : out.split('\n'))
            if (!line.isEmpty() && !logging.match(QString::fromUtf8(line)).hasMatch())
                qWarning().noquote() << QString::fromUtf8(line);
    }
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
             qPrintable(QStringLiteral("%1 %2:\n%3")
                            .arg(p.exitStatus() == QProcess::NormalExit ? QStringLiteral("exit code")
                                                                        : QStringLiteral("crashed, code"))
                            .arg(p.exitCode())
                            .arg(QString::fromUtf8(out.right(4000)))));

    QFile r(report);
    QVERIFY(r.open(QIODevice::ReadOnly));
    const QJsonObject s =
        QJsonDocument::fromJson(r.readAll()).object().value(QStringLiteral("streams")).toArray().at(0).toObject();
    QVERIFY2(s.value(QStringLiteral("data_messages")).toInteger() > 0, QJsonDocument(s).toJson().constData());
    QCOMPARE(s.value(QStringLiteral("results")).toInteger() >= 2, true); // authenticated and subscribed
    QVERIFY(s.contains(QStringLiteral("gaps")));
    QVERIFY(s.value(QStringLiteral("gap_records")).isArray());
    const QJsonObject bf = s.value(QStringLiteral("betfair")).toObject();
    QVERIFY2(bf.value(QStringLiteral("connection_id")).toString().startsWith(QLatin1String("002-")),
             QJsonDocument(bf).toJson().constData());
    QCOMPARE(bf.value(QStringLiteral("connections_available")).toInt(), 9);
    QCOMPARE(bf.value(QStringLiteral("images")).toInteger(), qint64(1));

    int files = 0;
    QDirIterator it(home.path(), QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        ++files;
        QVERIFY2(!bytes.contains(kAppKey) && !bytes.contains(kSession), qPrintable(path));
    }
    QVERIFY(files >= 2); // the workspace and the report at least
    QVERIFY(!out.contains(kAppKey) && !out.contains(kSession));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBetfairVenue)
#include "tst_betfairvenue.moc"
