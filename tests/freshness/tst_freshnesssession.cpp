// Falling behind inside a session, on a clock the test steps and a fake transport: the cause
// follows the worker's busy share ("we are slow" from a saturated worker, "the exchange or
// the network is late" otherwise), and a step of the wall clock is no falling behind.

#include "../common/EventLog.h"
#include "../common/TestRegistry.h"
#include "model/StreamSnapshot.h"
#include "protocol/MessageDecoder.h"
#include "session/Clock.h"
#include "session/SessionEvents.h"
#include "session/StreamSession.h"
#include "session/WorkerLoad.h"
#include "stats/StreamShared.h"
#include "transport/Transport.h"

#include <QtTest/QtTest>

using namespace streamscope;
using streamscope::testing::EventLog;

namespace {

class ManualClock final : public Clock {
public:
    qint64 monotonicMs() const override { return m_monoMs; }
    qint64 wallUs() const override { return m_wallUs; }
    void advanceMs(qint64 ms)
    {
        m_monoMs += ms;
        m_wallUs += ms * 1000;
    }
    void stepWallMs(qint64 ms) { m_wallUs += ms * 1000; }

private:
    qint64 m_monoMs = 7'000'000;
    qint64 m_wallUs = 1'780'000'000'000'000;
};

class FakeTransport final : public Transport {
public:
    using Transport::Transport;
    void open() override { }
    void abort() override { }
    bool sendText(const QString &) override { return true; }
    bool hasPing() const override { return false; }
    bool ping() override { return false; }
    void up() { emit connected(); }
    void deliver(const QByteArray &message)
    {
        ReceivedMessage received(message.constData(), message.size(), false, m_buffer);
        m_sink.onMessage(received);
    }
};

class FixedLoad final : public WorkerLoad {
public:
    explicit FixedLoad(double share)
        : m_share(share)
    {
    }
    double busyShare() const override { return m_share; }

private:
    double m_share;
};

StreamConfig config(const QString &path = QStringLiteral("/feed"))
{
    StreamConfig c;
    c.name = QStringLiteral("feed");
    c.venue = Venue::Generic;
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:9") + path);
    c.stallTimeoutMs = 600000;
    c.pingIntervalMs = 0;
    c.pongTimeoutMs = 0;
    return c;
}

struct Rig {
    explicit Rig(const QString &path = QStringLiteral("/feed"))
        : shared(std::make_shared<StreamShared>(1, config(path)))
        , session(shared, config(path), buffer, decoder, log, clock,
                  [this](const StreamConfig &c, ReceiveBuffer &b, MessageSink &sink) -> Transport * {
                      transport = new FakeTransport(c, b, sink);
                      return transport;
                  })
    {
        session.start();
        transport->up();
    }

    // `seconds` of 50 messages a second, each `lagMs(t)` old when it arrives (t: seconds since
    // the start of this call), the venue's clock `venueMinusWallMs` from ours.
    template<typename Lag>
    void flow(int seconds, Lag lagMs, qint64 venueMinusWallMs = 0)
    {
        for (int tick = 0; tick < seconds * 10; ++tick) {
            for (int i = 0; i < 5; ++i) {
                const qint64 e = clock.wallMs() + venueMinusWallMs - lagMs(double(tick) / 10.0);
                transport->deliver(QStringLiteral("{\"e\":\"trade\",\"E\":%1,\"t\":%2}").arg(e).arg(++serial).toUtf8());
            }
            clock.advanceMs(100);
            session.tick();
        }
    }
    // The same with each message's event type: `types` in turn, `lagMs(type, t)` old.
    template<typename Lag>
    void flowTypes(int seconds, const QStringList &types, Lag lagMs)
    {
        for (int tick = 0; tick < seconds * 10; ++tick) {
            for (int i = 0; i < 5; ++i) {
                const QString type = types.at(int(serial % types.size()));
                const qint64 e = clock.wallMs() - lagMs(type, double(tick) / 10.0);
                transport->deliver(
                    QStringLiteral("{\"e\":\"%1\",\"E\":%2,\"t\":%3}").arg(type).arg(e).arg(++serial).toUtf8());
            }
            clock.advanceMs(100);
            session.tick();
        }
    }
    StreamSnapshot fullSnapshot() const
    {
        StreamSnapshot s;
        shared->fillSnapshot(s, true);
        return s;
    }
    QVector<StreamEvent> behindEvents() const
    {
        QVector<StreamEvent> out;
        for (const StreamEvent &e : log.events)
            if (e.kind == EventKind::Stalled && e.text.startsWith(QLatin1String("falling behind")))
                out << e;
        return out;
    }
    StreamSnapshot snapshot() const
    {
        StreamSnapshot s;
        shared->fillSnapshot(s, false);
        return s;
    }

    ManualClock clock;
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    EventLog log;
    FakeTransport *transport = nullptr;
    std::shared_ptr<StreamShared> shared;
    StreamSession session;
    qint64 serial = 0;
};

} // namespace

class TestFreshnessSession : public QObject {
    Q_OBJECT
private slots:
    void causeFollowsTheWorkersBusyShare_data();
    void causeFollowsTheWorkersBusyShare();
    void wallClockStepIsNoFallingBehind_data();
    void wallClockStepIsNoFallingBehind();
    void periodicStreamIsNoLatencyAlarm_data();
    void periodicStreamIsNoLatencyAlarm();
    void mixedStreamFollowsItsOtherTypes();
    void latencyPerEventType();
    void eventTypesBeyondTheTableAreOther();
};

void TestFreshnessSession::causeFollowsTheWorkersBusyShare_data()
{
    QTest::addColumn<double>("busy"); // -1: no worker load given
    QTest::addColumn<int>("cause");
    QTest::addColumn<QString>("why");
    QTest::newRow("worker saturated: we are slow")
        << 0.97 << int(BehindCause::WeAreSlow)
        << QStringLiteral("we are slow: this worker was busy 97 % of the last second");
    QTest::newRow("worker idle: the venue is late")
        << 0.1 << int(BehindCause::VenueLate)
        << QStringLiteral("the exchange or the network is late: this worker keeps up (busy 10 %)");
    QTest::newRow("no measure") << -1.0 << int(BehindCause::Unknown) << QStringLiteral("cause unknown");
}

void TestFreshnessSession::causeFollowsTheWorkersBusyShare()
{
    QFETCH(double, busy);
    QFETCH(int, cause);
    QFETCH(QString, why);
    FixedLoad load(busy);
    Rig rig;
    if (busy >= 0)
        rig.session.setWorkerLoad(&load);
    rig.flow(3, [](double) { return 5; });
    QVERIFY(rig.behindEvents().isEmpty());
    // 50 ms further behind every second: raised within ten seconds, while messages flow.
    rig.flow(10, [](double t) { return qint64(5 + 50 * t); });
    const QVector<StreamEvent> events = rig.behindEvents();
    QCOMPARE(events.size(), 1);
    QVERIFY2(events.at(0).text.endsWith(why), qPrintable(events.at(0).text));
    const StreamSnapshot s = rig.snapshot();
    QCOMPARE(s.state, StreamState::Live);
    QVERIFY(s.freshness.fallingBehind);
    QCOMPARE(int(s.freshness.cause), cause);
    QVERIFY2(qAbs(s.freshness.latencyTrendMsPerS - 50.0) < 5.0,
             qPrintable(QString::number(s.freshness.latencyTrendMsPerS)));
    // Caught up: back to a steady latency.
    rig.flow(15, [](double) { return 5; });
    QVERIFY(!rig.snapshot().freshness.fallingBehind);
    QCOMPARE(rig.snapshot().freshness.cause, BehindCause::None);
    QCOMPARE(rig.snapshot().freshness.fallingBehindAlarms, quint64(1));
}

void TestFreshnessSession::wallClockStepIsNoFallingBehind_data()
{
    QTest::addColumn<qint64>("stepMs");
    QTest::newRow("one hour forward") << qint64(3'600'000);
    QTest::newRow("one hour back") << qint64(-3'600'000);
}

void TestFreshnessSession::wallClockStepIsNoFallingBehind()
{
    QFETCH(qint64, stepMs);
    FixedLoad load(0.1);
    Rig rig;
    rig.session.setWorkerLoad(&load);
    rig.flow(5, [](double) { return 20; });
    // Our clock is stepped, the venue's is not: every latency from now on is off by the step.
    rig.clock.stepWallMs(stepMs);
    rig.flow(
        15, [](double) { return 20; }, -stepMs);
    QVERIFY(rig.behindEvents().isEmpty());
    const StreamSnapshot s = rig.snapshot();
    QVERIFY(!s.freshness.fallingBehind);
    QCOMPARE(s.freshness.fallingBehindAlarms, quint64(0));
    QCOMPARE(s.freshness.silenceAlarms, quint64(0));
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.state, StreamState::Live);
    // The floor forgot the latencies from before the step: it is the step's, and an hour off.
    QVERIFY(s.clock.hasFloor);
    QVERIFY2(qAbs(s.clock.latencyFloorMs - double(stepMs) - 20.0) < 2.0,
             qPrintable(QString::number(s.clock.latencyFloorMs)));
}

void TestFreshnessSession::periodicStreamIsNoLatencyAlarm_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("type");
    QTest::newRow("kline by its event type") << QStringLiteral("/feed") << QStringLiteral("kline");
    QTest::newRow("depth diff by its event type") << QStringLiteral("/feed") << QStringLiteral("depthUpdate");
    QTest::newRow("ticker by its stream name") << QStringLiteral("/ws/btcusdt@ticker") << QStringLiteral("custom");
    QTest::newRow("depth@100ms by its stream name")
        << QStringLiteral("/stream?streams=btcusdt@depth@100ms/ethusdt@depth5@1000ms") << QString();
}

// A periodic stream's event time ends an interval: growing "latency" is no falling behind.
// Its period is the spacing of its event times (here 100 ms: one new event time a tick).
void TestFreshnessSession::periodicStreamIsNoLatencyAlarm()
{
    QFETCH(QString, path);
    QFETCH(QString, type);
    FixedLoad load(0.1);
    Rig rig(path);
    rig.session.setWorkerLoad(&load);
    rig.flowTypes(15, {type}, [](const QString &, double t) { return qint64(5 + 50 * t); });
    QVERIFY(rig.behindEvents().isEmpty());
    const StreamSnapshot s = rig.fullSnapshot();
    QVERIFY(s.freshness.periodic);
    QVERIFY(!s.freshness.fallingBehind);
    QCOMPARE(s.freshness.fallingBehindAlarms, quint64(0));
    QCOMPARE(s.freshness.latencyTrendMsPerS, 0.0);
    // 5 messages a tick, stamped 100 ms apart less the lag's growth of 5 ms a tick.
    QVERIFY2(qAbs(s.freshness.periodMs - 95.0) < 0.5, qPrintable(QString::number(s.freshness.periodMs)));
    QVERIFY2(s.freshness.periodJitterMs >= 0 && s.freshness.periodJitterMs < 1.0,
             qPrintable(QString::number(s.freshness.periodJitterMs)));
    QVERIFY(s.freshness.byEvent.isEmpty()); // one type: no table
}

// Trades and depth updates on one connection: the trades' growing latency is falling behind,
// the depth updates' is not; the period is the depth updates'.
void TestFreshnessSession::mixedStreamFollowsItsOtherTypes()
{
    FixedLoad load(0.1);
    {
        Rig rig;
        rig.session.setWorkerLoad(&load);
        rig.flowTypes(15, {QStringLiteral("trade"), QStringLiteral("depthUpdate")}, [](const QString &type, double t) {
            return type == QLatin1String("depthUpdate") ? qint64(5 + 80 * t) : qint64(5);
        });
        QVERIFY(rig.behindEvents().isEmpty());
        const StreamSnapshot s = rig.fullSnapshot();
        QVERIFY(!s.freshness.periodic);
        QCOMPARE(s.freshness.periodMs, -1.0);
        QVERIFY(!s.freshness.fallingBehind);
    }
    {
        Rig rig;
        rig.session.setWorkerLoad(&load);
        rig.flowTypes(15, {QStringLiteral("trade"), QStringLiteral("depthUpdate")}, [](const QString &type, double t) {
            return type == QLatin1String("trade") ? qint64(5 + 50 * t) : qint64(5);
        });
        QCOMPARE(rig.behindEvents().size(), 1);
        const StreamSnapshot s = rig.fullSnapshot();
        QVERIFY(s.freshness.fallingBehind);
        QVERIFY2(qAbs(s.freshness.latencyTrendMsPerS - 50.0) < 5.0,
                 qPrintable(QString::number(s.freshness.latencyTrendMsPerS)));
    }
}

void TestFreshnessSession::latencyPerEventType()
{
    Rig rig;
    rig.flowTypes(3, {QStringLiteral("trade"), QStringLiteral("depthUpdate")}, [](const QString &type, double) {
        return type == QLatin1String("trade") ? qint64(10) : qint64(300);
    });
    const StreamSnapshot s = rig.fullSnapshot();
    QCOMPARE(s.freshness.byEvent.size(), 2);
    const EventTypeFigures &trade = s.freshness.byEvent.at(0);
    const EventTypeFigures &depth = s.freshness.byEvent.at(1);
    QCOMPARE(trade.name, QStringLiteral("trade"));
    QCOMPARE(depth.name, QStringLiteral("depthUpdate"));
    QVERIFY(!trade.periodic);
    QVERIFY(depth.periodic);
    // The table starts on the tick after the second type came: all but the first tick's.
    QVERIFY(trade.latency.count >= 60 && trade.latency.count <= 75);
    QVERIFY(depth.latency.count >= 60 && depth.latency.count <= 75);
    QVERIFY2(qAbs(trade.latency.percentileUs(0.5) / 1000.0 - 10.0) < 1.0,
             qPrintable(QString::number(trade.latency.percentileUs(0.5))));
    QVERIFY2(qAbs(depth.latency.percentileUs(0.5) / 1000.0 - 300.0) < 10.0,
             qPrintable(QString::number(depth.latency.percentileUs(0.5))));
    QCOMPARE(trade.latency.count + depth.latency.count + 5, s.latency.count); // the first tick's 5
}

// Eight types by name, the rest (and a peer's own "other") together; a long name is cut.
void TestFreshnessSession::eventTypesBeyondTheTableAreOther()
{
    Rig rig;
    QStringList types;
    for (int i = 0; i < 12; ++i)
        types << QStringLiteral("type%1").arg(i);
    types << QStringLiteral("other") << QString(60, QLatin1Char('x'));
    rig.flowTypes(3, types, [](const QString &, double) { return qint64(10); });
    const StreamSnapshot s = rig.fullSnapshot();
    QCOMPARE(s.freshness.byEvent.size(), 9);
    for (int i = 0; i < 8; ++i)
        QCOMPARE(s.freshness.byEvent.at(i).name, QStringLiteral("type%1").arg(i));
    QCOMPARE(s.freshness.byEvent.at(8).name, QStringLiteral("other"));
    quint64 total = 0;
    for (const EventTypeFigures &e : s.freshness.byEvent)
        total += e.latency.count;
    QVERIFY(total > 0 && total <= s.latency.count);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestFreshnessSession)
#include "tst_freshnesssession.moc"
