// StreamSession's logic without sockets: a fake transport per connection and a clock the
// test steps. Stall, dead-connection and ping watchdogs, reconnect backoff, make-before-break
// rollover, and that a step of the wall clock (±1 h) neither reconnects nor stalls a stream.

#include "../common/SessionRig.h"
#include "../common/TestRegistry.h"

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

using StreamRig = SessionRig;

StreamConfig genericConfig()
{
    StreamConfig c;
    c.name = QStringLiteral("feed");
    c.venue = Venue::Generic;
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:9/feed"));
    c.stallTimeoutMs = 5000;
    c.pingIntervalMs = 0;
    c.pongTimeoutMs = 0;
    c.reconnectBaseMs = 1000;
    c.reconnectMaxMs = 60000;
    c.healthyResetMs = 30000;
    return c;
}

// Pings every second, dead after 3 s without a frame, never stalled.
StreamConfig pingingConfig()
{
    StreamConfig c = genericConfig();
    c.pingIntervalMs = 1000;
    c.pongTimeoutMs = 3000;
    c.stallTimeoutMs = 600000;
    return c;
}

StreamConfig binanceConfig()
{
    StreamConfig c = genericConfig();
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:9/stream?streams=btcusdt@aggTrade"));
    c.maxConnectionAgeMs = 60000;
    c.rolloverOverlapMaxMs = 2000;
    c.stallTimeoutMs = 600000;
    return c;
}

} // namespace

class TestStreamSession : public QObject {
    Q_OBJECT
private slots:
    void connectsAndGoesLive();
    void stallsAfterTimeoutWithoutData();
    void stallNamesNoDataSinceConnecting();
    void wallClockStepNeitherReconnectsNorStalls_data();
    void wallClockStepNeitherReconnectsNorStalls();
    void pingsAndDeclaresSilentConnectionDead();
    void pongsKeepConnectionAlive();
    void quietLineStreamIsNotDeclaredDead();
    void snapshotNeverHoldsAUrlPassword();
    void reconnectWaitsForBackoffDeadline();
    void backoffGrowsAndResetsAfterHealthyPeriod();
    void rolloverOpensReplacementAndCountsOnce();
    void rolloverAbandonedWhenReplacementNeverComesUp();
    void rawServerShutdownStartsRollover();
    void stopActsAtOnce();
    void commandActsAtNextMessageOrWakeUp();
    void pacesOutgoingMessagesUnderVenueLimit();
    void splitsSubscriptionsOverConnections();
    void peerTextIsEscapedInEventsAndSnapshot();
    void implausibleEventTimeIsCountedInvalid_data();
    void implausibleEventTimeIsCountedInvalid();
    void wrongFieldTypeSaysSo();
    void venueErrorMessageIsEscaped();
};

namespace {
// A character a terminal or a text view would act on rather than show.
bool hasControl(const QString &text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        const char16_t u = c.unicode();
        return u < 0x20 || (u >= 0x7f && u <= 0x9f) || (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
    });
}
} // namespace

void TestStreamSession::connectsAndGoesLive()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    QCOMPARE(rig.session.state(), StreamState::Connecting);
    QVERIFY(rig.last() && rig.last()->opened);
    rig.last()->up();
    QCOMPARE(rig.session.state(), StreamState::Live);
    rig.last()->deliver(rig.trade(1));
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.messages, quint64(1));
    QCOMPARE(s.dataMessages, quint64(1));
    QCOMPARE(s.latency.count, quint64(1));
    QCOMPARE(s.lastMessageMs, rig.clock.wallMs());
}

void TestStreamSession::stallsAfterTimeoutWithoutData()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    rig.last()->up();
    rig.last()->deliver(rig.trade(1));
    rig.run(5000);
    QCOMPARE(rig.session.state(), StreamState::Live); // 5.0 s is the limit, not past it
    rig.run(200);
    QCOMPARE(rig.session.state(), StreamState::Stalled);
    QCOMPARE(rig.log.count(EventKind::Stalled), 1);
    QVERIFY2(rig.snapshot().stateReason.startsWith(QLatin1String("no data for 5.")),
             qPrintable(rig.snapshot().stateReason));
    // Data again: live again.
    rig.last()->deliver(rig.trade(2));
    QCOMPARE(rig.session.state(), StreamState::Live);
}

void TestStreamSession::stallNamesNoDataSinceConnecting()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    rig.last()->up();
    rig.run(5200);
    QCOMPARE(rig.session.state(), StreamState::Stalled);
    QVERIFY2(rig.snapshot().stateReason.startsWith(QLatin1String("no data since connecting")),
             qPrintable(rig.snapshot().stateReason));
}

void TestStreamSession::wallClockStepNeitherReconnectsNorStalls_data()
{
    QTest::addColumn<qint64>("stepMs");
    QTest::newRow("one hour forward") << qint64(3'600'000);
    QTest::newRow("one hour back") << qint64(-3'600'000);
}

void TestStreamSession::wallClockStepNeitherReconnectsNorStalls()
{
    QFETCH(qint64, stepMs);
    StreamConfig config = genericConfig();
    config.pingIntervalMs = 1000;
    config.pongTimeoutMs = 3000;
    StreamRig rig(config);
    rig.session.start();
    rig.last()->up();
    for (int i = 0; i < 3; ++i) {
        rig.last()->deliver(rig.trade(i));
        rig.run(1000);
    }
    rig.clock.stepWallMs(stepMs);
    for (int i = 3; i < 10; ++i) {
        rig.last()->deliver(rig.trade(i));
        rig.run(1000);
    }
    QCOMPARE(rig.session.state(), StreamState::Live);
    QCOMPARE(rig.openTransports(), 1);
    QCOMPARE(rig.transports.size(), 1);
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(rig.log.count(EventKind::Stalled), 0);
    QCOMPARE(rig.log.count(EventKind::ReconnectScheduled), 0);
    // Latency is measured against the wall clock as it is now: a message stamped with the
    // stepped clock's time shows no hour of latency, and none counts as negative.
    QCOMPARE(s.latency.count, quint64(10));
    QCOMPARE(s.latency.negative, quint64(0));
    QVERIFY2(s.latency.maxUs < 1'000'000, qPrintable(QString::number(s.latency.maxUs)));
    // The time shown for the last message is the wall clock's.
    QCOMPARE(s.lastMessageMs, rig.clock.wallMs() - 1000);
}

void TestStreamSession::pingsAndDeclaresSilentConnectionDead()
{
    StreamRig rig(pingingConfig());
    rig.session.start();
    FakeTransport *first = rig.last();
    first->up();
    rig.run(2000);
    QCOMPARE(first->pings, 2);
    QCOMPARE(rig.session.state(), StreamState::Live);
    rig.run(1000);
    QCOMPARE(rig.session.state(), StreamState::Live); // exactly 3 s of silence is allowed
    rig.run(100);
    QCOMPARE(rig.session.state(), StreamState::Reconnecting);
    QVERIFY(first->aborted);
    QVERIFY2(rig.snapshot().stateReason.startsWith(QLatin1String("no frame or pong for 3.1 s")),
             qPrintable(rig.snapshot().stateReason));
}

void TestStreamSession::pongsKeepConnectionAlive()
{
    StreamRig rig(pingingConfig());
    rig.session.start();
    rig.last()->up();
    for (int i = 0; i < 20; ++i) {
        rig.run(1000);
        rig.last()->pong();
    }
    QCOMPARE(rig.session.state(), StreamState::Live);
    QCOMPARE(rig.last()->pings, 20);
    QCOMPARE(rig.transports.size(), 1);
}

// A tcp/tls line stream gets no pongs: being quiet for longer than pong_timeout_ms does not
// make it dead. It stalls after stall_timeout_ms and, without reconnect_on_stall, stays
// connected and stalled.
void TestStreamSession::quietLineStreamIsNotDeclaredDead()
{
    StreamConfig config = pingingConfig(); // ping every 1 s, dead after 3 s without a frame
    config.url = QUrl(QStringLiteral("tcp://127.0.0.1:9"));
    config.stallTimeoutMs = 5000;
    config.reconnectOnStall = false;
    StreamRig rig(config);
    rig.transportsPing = false;
    rig.session.start();
    FakeTransport *line = rig.last();
    line->up();
    line->deliver(rig.trade(1));
    rig.run(4000); // past the 3 s pong timeout
    QCOMPARE(rig.session.state(), StreamState::Live);
    QCOMPARE(line->pings, 0);
    rig.run(1200); // past the 5 s stall timeout
    QCOMPARE(rig.session.state(), StreamState::Stalled);
    QVERIFY2(rig.snapshot().stateReason.startsWith(QLatin1String("no data for 5.")),
             qPrintable(rig.snapshot().stateReason));
    rig.run(120000); // two minutes more: still the same connection, still stalled
    QCOMPARE(rig.session.state(), StreamState::Stalled);
    QCOMPARE(rig.transports.size(), 1);
    QVERIFY(!line->aborted);
    QCOMPARE(rig.snapshot().reconnects, quint64(0));
    // Data again on the same connection: live again.
    line->deliver(rig.trade(2));
    QCOMPARE(rig.session.state(), StreamState::Live);
}

// A URL with a password that reaches the engine (workspaces refuse one; code or an older
// file might not): the snapshot, which feeds the report, the metrics and the UI, never holds it.
void TestStreamSession::snapshotNeverHoldsAUrlPassword()
{
    StreamConfig config = genericConfig();
    config.url = QUrl(QStringLiteral("ws://user:s3cret@127.0.0.1:9/feed"));
    StreamRig rig(config);
    rig.session.start();
    rig.last()->up();
    rig.last()->deliver(rig.trade(1));
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.url.url(), QUrl(QStringLiteral("ws://user@127.0.0.1:9/feed")));
    QVERIFY(!s.stateReason.contains(QLatin1String("s3cret")));
    for (const ConnectionInfo &c : s.connections)
        QVERIFY2(!c.url.toString().contains(QLatin1String("s3cret")), qPrintable(c.url.toString()));
    for (const StreamEvent &e : rig.log.events)
        QVERIFY2(!e.text.contains(QLatin1String("s3cret")), qPrintable(e.text));
}

void TestStreamSession::reconnectWaitsForBackoffDeadline()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    rig.last()->up();
    const qint64 droppedAtWallMs = rig.clock.wallMs();
    rig.last()->drop(1006, QStringLiteral("connection lost"));
    QCOMPARE(rig.session.state(), StreamState::Reconnecting);
    const StreamSnapshot s = rig.snapshot();
    const qint64 delayMs = s.nextRetryAtMs - droppedAtWallMs;
    QVERIFY2(delayMs >= 0 && delayMs <= 1000, qPrintable(QString::number(delayMs))); // attempt 1: [0, base]
    QCOMPARE(rig.transports.size(), 1);
    if (delayMs > 1) {
        rig.clock.advanceMs(delayMs - 1);
        rig.session.tick();
        QCOMPARE(rig.session.state(), StreamState::Reconnecting);
        QCOMPARE(rig.transports.size(), 1);
        // Real time passing changes nothing: the deadline is on the session's clock.
        QTest::qWait(20);
        QCOMPARE(rig.transports.size(), 1);
        rig.clock.advanceMs(1);
    } else {
        rig.clock.advanceMs(delayMs);
    }
    rig.session.tick();
    QCOMPARE(rig.session.state(), StreamState::Connecting);
    QCOMPARE(rig.transports.size(), 2);
    QCOMPARE(rig.snapshot().reconnects, quint64(1));
}

void TestStreamSession::backoffGrowsAndResetsAfterHealthyPeriod()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    auto dropAndReconnect = [&rig](int expectedAttempt) {
        rig.last()->drop(1006, QStringLiteral("connection lost"));
        const QString reason = rig.snapshot().stateReason;
        if (!reason.contains(QStringLiteral("reconnect attempt %1 in").arg(expectedAttempt)))
            return false;
        // Every delay is at most the ceiling of its attempt: base · 2^(attempt − 1).
        const int before = int(rig.transports.size());
        rig.run(1000 << (expectedAttempt - 1));
        if (int(rig.transports.size()) != before + 1)
            return false;
        rig.last()->up();
        return rig.session.state() == StreamState::Live;
    };
    rig.last()->up();
    QVERIFY(dropAndReconnect(1));
    QVERIFY(dropAndReconnect(2));
    QVERIFY(dropAndReconnect(3));
    // Live for the healthy period (with data, so it never stalls): the attempts start again.
    for (int i = 0; i < 31; ++i) {
        rig.last()->deliver(rig.trade(i));
        rig.run(1000);
    }
    QVERIFY(dropAndReconnect(1));
    QCOMPARE(rig.snapshot().reconnects, quint64(4));
}

void TestStreamSession::rolloverOpensReplacementAndCountsOnce()
{
    StreamRig rig(binanceConfig());
    rig.session.start();
    FakeTransport *old = rig.last();
    old->up();
    QCOMPARE(rig.session.state(), StreamState::Live);
    for (int a = 1; a <= 3; ++a)
        old->deliver(rig.trade(a));
    rig.run(60000, 1000);
    QCOMPARE(rig.transports.size(), 2); // the replacement is opening
    QVERIFY(rig.snapshot().rolloverInProgress);
    FakeTransport *fresh = rig.last();
    QVERIFY(fresh != old && fresh->opened);
    old->deliver(rig.trade(4)); // the old connection goes on meanwhile
    fresh->up();
    // The new connection starts ahead of the old one, at trade 6: it counts from there.
    for (int a = 6; a <= 8; ++a)
        fresh->deliver(rig.trade(a));
    old->deliver(rig.trade(5));
    QVERIFY(!old->aborted);
    old->deliver(rig.trade(6));
    // The old connection caught up with the new one: it is retired.
    QVERIFY(old->aborted);
    QVERIFY(!fresh->aborted);
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.dataMessages, quint64(8)); // trades 1..8, each once
    QCOMPARE(s.duplicates, quint64(1));   // the old connection's 6
    QCOMPARE(s.rollovers, quint64(1));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(rig.session.state(), StreamState::Live);
    fresh->deliver(rig.trade(9));
    QCOMPARE(rig.snapshot().dataMessages, quint64(9));
}

void TestStreamSession::rolloverAbandonedWhenReplacementNeverComesUp()
{
    StreamConfig config = binanceConfig();
    config.connectTimeoutMs = 5000;
    config.pongTimeoutMs = 0;
    StreamRig rig(config);
    rig.session.start();
    FakeTransport *old = rig.last();
    old->up();
    rig.run(60000, 1000);
    QCOMPARE(rig.transports.size(), 2);
    FakeTransport *fresh = rig.last();
    rig.run(5100);
    QVERIFY(fresh->aborted);
    QVERIFY(!old->aborted);
    QCOMPARE(rig.session.state(), StreamState::Live);
    QVERIFY(!rig.snapshot().rolloverInProgress);
    QCOMPARE(rig.snapshot().reconnects, quint64(0));
}

void TestStreamSession::rawServerShutdownStartsRollover()
{
    StreamConfig config = binanceConfig();
    config.mode = DecodeMode::Raw;
    config.maxConnectionAgeMs = 0; // only the notice can start it
    StreamRig rig(config);
    rig.session.start();
    rig.last()->up();
    rig.last()->deliver(rig.trade(1));
    rig.last()->deliver(
        QByteArrayLiteral("{\"stream\":\"!serverShutdown\",\"data\":{\"e\":\"serverShutdown\",\"E\":1}}"));
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.serverShutdowns, quint64(1));
    QCOMPARE(s.controlMessages, quint64(1));
    QCOMPARE(s.dataMessages, quint64(1));
    QCOMPARE(rig.transports.size(), 2);
    QVERIFY(s.rolloverInProgress);
}

void TestStreamSession::stopActsAtOnce()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    rig.last()->up();
    rig.session.stop();
    QCOMPARE(rig.session.state(), StreamState::Stopped);
    QVERIFY(rig.last()->aborted);
    rig.run(120000, 1000); // nothing reconnects a stopped stream
    QCOMPARE(rig.transports.size(), 1);
    QCOMPARE(rig.session.state(), StreamState::Stopped);
}

// The facade leaves a stop or restart in the stream's shared block (StreamCommands): the hot
// path carries it out at the next message, which is not counted, or the worker's wake-up does,
// whichever comes first; only the last of several counts.
void TestStreamSession::commandActsAtNextMessageOrWakeUp()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    FakeTransport *t = rig.last();
    t->up();
    t->deliver(rig.trade(1));
    QCOMPARE(rig.snapshot().messages, quint64(1));
    rig.shared->commands.post(StreamCommands::Command::Stop);
    t->deliver(rig.trade(2));
    QCOMPARE(rig.session.state(), StreamState::Stopped);
    QVERIFY(t->aborted);
    QCOMPARE(rig.snapshot().messages, quint64(1));
    QVERIFY(!rig.session.runCommands()); // the wake-up that follows finds nothing new

    // A restart and a stop in a row, seen at once: the stop.
    rig.shared->commands.post(StreamCommands::Command::Restart);
    rig.shared->commands.post(StreamCommands::Command::Stop);
    QVERIFY(rig.session.runCommands());
    QCOMPARE(rig.session.state(), StreamState::Stopped);
    QCOMPARE(rig.transports.size(), 1);

    // A restart connects again at once.
    rig.shared->commands.post(StreamCommands::Command::Restart);
    QVERIFY(rig.session.runCommands());
    QCOMPARE(rig.session.state(), StreamState::Connecting);
    QCOMPARE(rig.transports.size(), 2);
    rig.last()->up();
    rig.last()->deliver(rig.trade(3));
    QCOMPARE(rig.snapshot().messages, quint64(2));

    // A session made after a command (an edit replaces the session) does not carry it out again.
    StreamSession replacement(rig.shared, genericConfig(), rig.buffer, rig.decoder, rig.log, rig.clock,
                              [&rig](const StreamConfig &c, ReceiveBuffer &b, MessageSink &sink) -> Transport * {
                                  auto *f = new FakeTransport(c, b, sink);
                                  rig.transports << f;
                                  return f;
                              });
    QVERIFY(!replacement.runCommands());
}

void TestStreamSession::pacesOutgoingMessagesUnderVenueLimit()
{
    StreamRig rig(binanceConfig()); // spot: 5 a second, one slot kept free
    rig.session.start();
    FakeTransport *t = rig.last();
    t->up();
    QCOMPARE(rig.session.state(), StreamState::Live); // the URL names the stream: nothing to send
    for (int i = 0; i < 6; ++i)
        rig.session.sendControl(QStringLiteral("SUBSCRIBE"), {QStringLiteral("sym%1@trade").arg(i)}, 100 + i);
    QCOMPARE(t->sent.size(), 4);
    QCOMPARE(rig.snapshot().outgoingQueued, 2);
    rig.run(1000);
    QCOMPARE(t->sent.size(), 4); // the window is 1.1 s
    rig.run(200);
    QCOMPARE(t->sent.size(), 6);
    QCOMPARE(rig.snapshot().outgoingQueued, 0);
    QCOMPARE(rig.snapshot().outgoingPeakPerS, 4);
    QVERIFY(t->sent.at(5).contains(QLatin1String("sym5@trade")));
}

void TestStreamSession::splitsSubscriptionsOverConnections()
{
    StreamConfig config = binanceConfig();
    config.maxStreamsPerConnection = 3;
    config.subscribe = QStringList{QStringLiteral("a@trade"), QStringLiteral("b@trade"), QStringLiteral("c@trade"),
                                   QStringLiteral("d@trade"), QStringLiteral("e@trade")};
    StreamRig rig(config);
    rig.session.start();
    // The URL's stream and two more on the first connection, three on the second.
    QCOMPARE(rig.transports.size(), 2);
    FakeTransport *first = rig.transports.at(0);
    FakeTransport *second = rig.transports.at(1);
    QVERIFY(!second->url().hasQuery());
    first->up();
    second->up();
    QCOMPARE(rig.session.state(), StreamState::Subscribing);
    QCOMPARE(first->sent.size(), 1);
    QVERIFY(first->sent.at(0).contains(QLatin1String("[\"a@trade\",\"b@trade\"]")));
    QCOMPARE(second->sent.size(), 1);
    QVERIFY(second->sent.at(0).contains(QLatin1String("[\"c@trade\",\"d@trade\",\"e@trade\"]")));
    // Both are full: more streams open a third connection.
    rig.session.sendControl(QStringLiteral("SUBSCRIBE"), {QStringLiteral("f@trade")}, 7);
    QCOMPARE(rig.transports.size(), 3);
    rig.last()->up();
    QCOMPARE(rig.last()->sent.size(), 1);
    QVERIFY(rig.last()->sent.at(0).contains(QLatin1String("f@trade")));
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.connections.size(), 3);
    QCOMPARE(s.subscriptionCount, 6);
    // UNSUBSCRIBE goes to the connection that carries the stream.
    rig.session.sendControl(QStringLiteral("UNSUBSCRIBE"), {QStringLiteral("d@trade")}, 8);
    QCOMPARE(second->sent.size(), 2);
    QVERIFY(second->sent.at(1).contains(QLatin1String("UNSUBSCRIBE")));
    QCOMPARE(first->sent.size(), 1);
}

void TestStreamSession::peerTextIsEscapedInEventsAndSnapshot()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    rig.last()->up();
    // Bad JSON that would clear the screen, set the window title and print a line of its own.
    rig.last()->deliver(QByteArrayLiteral("{\"e\":\"\x1b[2J\x1b]0;pwned\x07\r\nall streams OK\xc2\x9b\xe2\x80\xae"));
    // An error response that quotes the same.
    rig.last()->deliver(QByteArrayLiteral("{\"error\":{\"code\":2,\"msg\":\"\x1b[2Jbad\"},\"id\":7}"));
    rig.last()->drop(4000, QStringLiteral("\x1b[2J\x1b[Hall streams OK\n"));

    QCOMPARE(rig.log.count(EventKind::ParseError), 1);
    QCOMPARE(rig.log.count(EventKind::Response), 1);
    QCOMPARE(rig.log.count(EventKind::Disconnected), 1);
    for (const StreamEvent &e : std::as_const(rig.log.events))
        QVERIFY2(!hasControl(e.text), e.text.toUtf8().toPercentEncoding(" :()\\[];,").constData());
    const auto textOf = [&](EventKind kind) {
        for (const StreamEvent &e : std::as_const(rig.log.events))
            if (e.kind == kind)
                return e.text;
        return QString();
    };
    QVERIFY2(textOf(EventKind::ParseError)
                 .endsWith(QStringLiteral("\\x1b[2J\\x1b]0;pwned\\x07\\r\\nall streams OK\\u009b\\u202e")),
             qPrintable(textOf(EventKind::ParseError)));
    QVERIFY2(textOf(EventKind::Response).contains(QStringLiteral("\\x1b[2Jbad")),
             qPrintable(textOf(EventKind::Response)));
    QCOMPARE(textOf(EventKind::Disconnected), QStringLiteral("\\x1b[2J\\x1b[Hall streams OK\\n (close code 4000)"));

    const StreamSnapshot s = rig.snapshot();
    QVERIFY(!hasControl(s.stateReason));
    QVERIFY2(s.stateReason.startsWith(QStringLiteral("\\x1b[2J\\x1b[Hall streams OK\\n")), qPrintable(s.stateReason));
    QVERIFY(!hasControl(s.lastParseError));
    // The bad message itself is kept as it came, for the inspector's Copy.
    QVERIFY(s.lastBadMessage.contains("\x1b[2J"));
}

void TestStreamSession::implausibleEventTimeIsCountedInvalid_data()
{
    QTest::addColumn<QByteArray>("eventTime");
    QTest::addColumn<bool>("valid");
    QTest::newRow("now") << QByteArray("now") << true;
    QTest::newRow("1e300") << QByteArray("1e300") << false;
    QTest::newRow("-1e300") << QByteArray("-1e300") << false;
    QTest::newRow("2^63 - 1") << QByteArray("9223372036854775807") << false;
    QTest::newRow("-2^63 + 1") << QByteArray("-9223372036854775807") << false;
    QTest::newRow("2^63") << QByteArray("9223372036854775808") << false;
    QTest::newRow("0 (1970)") << QByteArray("0") << false;
    QTest::newRow("in seconds, not ms") << QByteArray("1780000000") << false;
    QTest::newRow("year 2200") << QByteArray("7258118400000") << false;
}

void TestStreamSession::implausibleEventTimeIsCountedInvalid()
{
    QFETCH(QByteArray, eventTime);
    QFETCH(bool, valid);
    StreamRig rig(genericConfig());
    rig.session.start();
    rig.last()->up();
    if (eventTime == "now")
        eventTime = QByteArray::number(rig.clock.wallMs());
    rig.last()->deliver("{\"e\":\"x\",\"E\":" + eventTime + "}");
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.dataMessages, quint64(1));
    QCOMPARE(s.latency.count, quint64(valid ? 1 : 0));
    QCOMPARE(s.latency.invalid, quint64(valid ? 0 : 1));
    QCOMPARE(s.latency.negative, quint64(0));
    QVERIFY(s.latency.maxUs < 1'000'000);
}

void TestStreamSession::wrongFieldTypeSaysSo()
{
    StreamRig rig(genericConfig());
    rig.session.start();
    rig.last()->up();
    rig.last()->deliver(QByteArrayLiteral("{\"e\":\"x\",\"E\":\"soon\"}"));
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.parseErrors, quint64(1));
    QVERIFY2(s.lastParseError.startsWith(QStringLiteral("field \"E\" has the wrong type")),
             qPrintable(s.lastParseError));
    QCOMPARE(rig.log.count(EventKind::ParseError), 1);
    for (const StreamEvent &e : std::as_const(rig.log.events))
        if (e.kind == EventKind::ParseError)
            QVERIFY2(e.text.startsWith(QStringLiteral("field \"E\" has the wrong type")), qPrintable(e.text));
}

void TestStreamSession::venueErrorMessageIsEscaped()
{
    StreamRig rig(binanceConfig());
    rig.session.start();
    rig.last()->up();
    rig.last()->deliver(QByteArrayLiteral("{\"error\":{\"code\":2,\"msg\":\"\\u001b[2J\xe2\x80\xae"
                                          "bad\"},\"id\":7}"));
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.errors, quint64(1));
    QCOMPARE(s.venueErrorCode, QStringLiteral("2"));
    QCOMPARE(s.venueErrorMessage, QStringLiteral("\\x1b[2J\\u202ebad"));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestStreamSession)
#include "tst_streamsession.moc"
