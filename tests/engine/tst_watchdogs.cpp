// The session's watchdogs on a monotonic time the test sets: ConnectionWatchdog (connect
// timeout, dead connection, ping due), StallWatchdog (data freshness) and EventThrottle.

#include "../common/TestRegistry.h"
#include "session/ConnectionWatchdog.h"
#include "session/EventThrottle.h"
#include "session/StallWatchdog.h"

#include <QtTest/QtTest>

using namespace streamscope;
using Verdict = ConnectionWatchdog::Verdict;

Q_DECLARE_METATYPE(ConnectionWatchdog::Verdict)

class TestWatchdogs : public QObject {
    Q_OBJECT
private slots:
    void connection_data();
    void connection();
    void textKeepAlive_data();
    void textKeepAlive();
    void periodicKeepAlive_data();
    void periodicKeepAlive();
    void stall_data();
    void stall();
    void throttle();
};

void TestWatchdogs::connection_data()
{
    QTest::addColumn<bool>("up");
    QTest::addColumn<qint64>("lastFrameAt");
    QTest::addColumn<qint64>("lastPingAt");
    QTest::addColumn<qint64>("now");
    QTest::addColumn<bool>("hasPing");
    QTest::addColumn<Verdict>("verdict");
    // Config: connect 5 s, ping every 1 s, dead after 3 s without a frame. Connected at 100.
    QTest::newRow("connecting, in time") << false << qint64(0) << qint64(0) << qint64(5000) << true << Verdict::Ok;
    QTest::newRow("connecting, too long")
        << false << qint64(0) << qint64(0) << qint64(5001) << true << Verdict::ConnectTimeout;
    QTest::newRow("up, fresh") << true << qint64(100) << qint64(100) << qint64(600) << true << Verdict::Ok;
    QTest::newRow("up, ping due") << true << qint64(900) << qint64(100) << qint64(1100) << true << Verdict::PingDue;
    QTest::newRow("up, 3 s silent is alive")
        << true << qint64(100) << qint64(2500) << qint64(3100) << true << Verdict::Ok;
    QTest::newRow("up, silent past 3 s is dead")
        << true << qint64(100) << qint64(2500) << qint64(3101) << true << Verdict::Dead;
    // A line stream has no ping: silence is the stall watchdog's business, not a dead link.
    QTest::newRow("no ping, connecting too long")
        << false << qint64(0) << qint64(0) << qint64(5001) << false << Verdict::ConnectTimeout;
    QTest::newRow("no ping, silent past 3 s is alive")
        << true << qint64(100) << qint64(100) << qint64(3101) << false << Verdict::Ok;
    QTest::newRow("no ping, silent an hour is alive")
        << true << qint64(100) << qint64(100) << qint64(3600000) << false << Verdict::Ok;
}

void TestWatchdogs::connection()
{
    QFETCH(bool, up);
    QFETCH(qint64, lastFrameAt);
    QFETCH(qint64, lastPingAt);
    QFETCH(qint64, now);
    QFETCH(bool, hasPing);
    QFETCH(Verdict, verdict);
    StreamConfig config;
    config.connectTimeoutMs = 5000;
    config.pingIntervalMs = 1000;
    config.pongTimeoutMs = 3000;
    ConnectionWatchdog w;
    w.connecting(0);
    if (up) {
        w.connected(100);
        w.frameSeen(); // a message: timestamped by the tick that sees it
        w.observe(lastFrameAt);
        w.observe(now); // nothing new since
        w.pinged(lastPingAt);
    }
    QCOMPARE(w.check(now, config, hasPing), verdict);
}

// The venue's text keep-alive (OKX "ping"/"pong", VenueHandler::keepAlivePing): a ping only
// after ping_interval_ms of silence, and a ping that no frame followed within
// ping_interval_ms is a dead connection, well before the pong timeout.
void TestWatchdogs::textKeepAlive_data()
{
    QTest::addColumn<qint64>("lastFrameAt"); // -1: none since connecting at 100
    QTest::addColumn<qint64>("lastPingAt");  // -1: none
    QTest::addColumn<qint64>("now");
    QTest::addColumn<Verdict>("verdict");
    // Config: ping after 1 s of silence, dead after 30 s without a frame. Connected at 100.
    QTest::newRow("silent under the interval") << qint64(-1) << qint64(-1) << qint64(1099) << Verdict::Ok;
    QTest::newRow("silent for the interval: ping") << qint64(-1) << qint64(-1) << qint64(1100) << Verdict::PingDue;
    QTest::newRow("messages keep coming: no ping, however long")
        << qint64(9500) << qint64(-1) << qint64(10000) << Verdict::Ok;
    QTest::newRow("pinged, answer awaited") << qint64(-1) << qint64(1100) << qint64(2100) << Verdict::Ok;
    QTest::newRow("pinged, no answer within the interval: dead")
        << qint64(-1) << qint64(1100) << qint64(2101) << Verdict::Dead;
    QTest::newRow("pinged and answered: alive") << qint64(1200) << qint64(1100) << qint64(2101) << Verdict::Ok;
    QTest::newRow("answered, silent again: the next ping")
        << qint64(1200) << qint64(1100) << qint64(2200) << Verdict::PingDue;
}

void TestWatchdogs::textKeepAlive()
{
    QFETCH(qint64, lastFrameAt);
    QFETCH(qint64, lastPingAt);
    QFETCH(qint64, now);
    QFETCH(Verdict, verdict);
    StreamConfig config;
    config.pingIntervalMs = 1000;
    config.pongTimeoutMs = 30000;
    ConnectionWatchdog w;
    w.connecting(0);
    w.connected(100);
    if (lastPingAt >= 0)
        w.pinged(lastPingAt);
    if (lastFrameAt >= 0) {
        w.frameSeen();
        w.observe(lastFrameAt);
    }
    QCOMPARE(w.check(now, config, true, ConnectionWatchdog::KeepAlive::TextOnSilence), verdict);
    // The transport's own ping keeps its rule: every interval, dead only past the pong timeout.
    if (lastPingAt >= 0 && lastFrameAt < 0)
        QVERIFY(w.check(now, config, true, ConnectionWatchdog::KeepAlive::TransportPing) != Verdict::Dead);
}

// The venue's periodic text keep-alive (Bybit {"op":"ping"}, VenueHandler::keepAlivePeriodic):
// a ping every interval however busy the connection, and a ping that no pong answered within
// the interval is a dead connection, whatever data keeps coming.
void TestWatchdogs::periodicKeepAlive_data()
{
    QTest::addColumn<qint64>("lastPingAt"); // -1: none
    QTest::addColumn<qint64>("pongAt");     // -1: none
    QTest::addColumn<qint64>("now");
    QTest::addColumn<Verdict>("verdict");
    // Config: ping every 1 s, dead after 30 s without a frame. Connected at 100; a message
    // comes on every tick.
    QTest::newRow("under the interval") << qint64(-1) << qint64(-1) << qint64(1099) << Verdict::Ok;
    QTest::newRow("the interval: ping, busy or not") << qint64(-1) << qint64(-1) << qint64(1100) << Verdict::PingDue;
    QTest::newRow("pinged, answer awaited") << qint64(1100) << qint64(-1) << qint64(2100) << Verdict::Ok;
    QTest::newRow("pinged, no pong within the interval, data coming: dead")
        << qint64(1100) << qint64(-1) << qint64(2101) << Verdict::Dead;
    QTest::newRow("pinged and answered: alive") << qint64(1100) << qint64(1200) << qint64(2099) << Verdict::Ok;
    QTest::newRow("answered: the next ping a whole interval later")
        << qint64(1100) << qint64(1200) << qint64(2100) << Verdict::PingDue;
}

void TestWatchdogs::periodicKeepAlive()
{
    QFETCH(qint64, lastPingAt);
    QFETCH(qint64, pongAt);
    QFETCH(qint64, now);
    QFETCH(Verdict, verdict);
    StreamConfig config;
    config.pingIntervalMs = 1000;
    config.pongTimeoutMs = 30000;
    ConnectionWatchdog w;
    w.connecting(0);
    w.connected(100);
    if (lastPingAt >= 0)
        w.pinged(lastPingAt);
    if (pongAt >= 0) {
        w.pongSeen();
        w.observe(pongAt);
    }
    w.frameSeen();
    w.observe(now);
    QCOMPARE(w.check(now, config, true, ConnectionWatchdog::KeepAlive::TextPeriodic), verdict);
    QCOMPARE(w.pongWaitMs(now), lastPingAt >= 0 && pongAt < 0 ? now - lastPingAt : qint64(-1));
}

void TestWatchdogs::stall_data()
{
    QTest::addColumn<qint64>("lastDataAt"); // -1: none since connecting at 1000
    QTest::addColumn<qint64>("now");
    QTest::addColumn<bool>("stalled");
    QTest::addColumn<bool>("neverData");
    QTest::addColumn<qint64>("silentMs");
    QTest::newRow("no data yet, in time") << qint64(-1) << qint64(6000) << false << true << qint64(5000);
    QTest::newRow("no data since connecting") << qint64(-1) << qint64(6001) << true << true << qint64(5001);
    QTest::newRow("data, then quiet") << qint64(2000) << qint64(7001) << true << false << qint64(5001);
    QTest::newRow("data, fresh") << qint64(2000) << qint64(3000) << false << false << qint64(1000);
}

void TestWatchdogs::stall()
{
    QFETCH(qint64, lastDataAt);
    QFETCH(qint64, now);
    QFETCH(bool, stalled);
    QFETCH(bool, neverData);
    QFETCH(qint64, silentMs);
    StallWatchdog w;
    w.dataSeen(); // from an earlier connection: forgotten when the next one comes up
    w.observe(10);
    w.dataSeen(); // seen on the old connection, not yet timestamped by a tick: forgotten too
    w.connected(1000);
    if (lastDataAt >= 0) {
        w.dataSeen();
        w.observe(lastDataAt); // the tick that saw it
    }
    w.observe(now); // nothing new: the last data keeps its time
    const StallWatchdog::Verdict v = w.check(now, 5000);
    QCOMPARE(v.stalled, stalled);
    QCOMPARE(v.neverData, neverData);
    QCOMPARE(v.silentMs, silentMs);
}

void TestWatchdogs::throttle()
{
    EventThrottle t;
    QVERIFY(t.allow(EventKind::ParseError, 0)); // the first one always, whatever the clock
    QVERIFY(!t.allow(EventKind::ParseError, 99));
    QVERIFY(t.allow(EventKind::Gap, 99)); // another kind has its own budget
    QVERIFY(t.allow(EventKind::ParseError, 100));
    int allowed = 0;
    for (qint64 ms = 100; ms < 1100; ++ms)
        allowed += t.allow(EventKind::ParseError, ms) ? 1 : 0;
    QCOMPARE(allowed, 9); // 200, 300, ... 1000: ten a second with the one at 100
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestWatchdogs)
#include "tst_watchdogs.moc"
