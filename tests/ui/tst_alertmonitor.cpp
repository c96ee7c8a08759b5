#include "../common/TestRegistry.h"
#include "AlertMonitor.h"
#include "StreamFigures.h"

#include <cmath>

#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using namespace streamscope;
using namespace streamscope::alerts;

class tst_AlertMonitor : public QObject {
    Q_OBJECT
private slots:
    void silentFiresOncePerEpisode();
    void rateBelowWaitsForWarmUpAndHysteresis();
    void latencyAndGaps();
    void stoppedStreamsRaiseNothing();
    void ruleLookupAndJson();
    void badJsonNamesTheField();
    void periodicStreamHasNoLatencyRule();
};

namespace {
AlertMonitor::Sample live(qint64 silentMs, double rate = 100.0)
{
    AlertMonitor::Sample s;
    s.state = StreamState::Live;
    s.msgsPerSec = rate;
    s.silentMs = silentMs;
    s.runningForMs = 60'000;
    return s;
}
} // namespace

void tst_AlertMonitor::silentFiresOncePerEpisode()
{
    AlertMonitor m;
    AlertRule r;
    r.stream = QStringLiteral("s");
    r.silentS = 5;
    m.setRules({r});
    QSignalSpy raised(&m, &AlertMonitor::alertRaised);
    QSignalSpy cleared(&m, &AlertMonitor::alertCleared);

    qint64 t = 0;
    const auto second = [&](qint64 silentMs) {
        t += 1000;
        m.evaluate(1, QStringLiteral("s"), live(silentMs), t);
    };
    for (int i = 0; i < 4; ++i)
        second(i * 1000); // 0..3 s silent: fine
    QCOMPARE(raised.count(), 0);
    for (int i = 5; i < 30; ++i)
        second(i * 1000); // silent 5..29 s: one episode
    QCOMPARE(raised.count(), 1);
    QVERIFY(raised[0][2].toString().startsWith(QStringLiteral("silent for")));
    QVERIFY(!m.activeText(1).isEmpty());
    QCOMPARE(m.activeCount(), 1);

    // Data again: the episode ends only after kClearAfterMs of health.
    second(0);
    second(200);
    QCOMPARE(cleared.count(), 0);
    for (int i = 0; i < 6; ++i)
        second(100);
    QCOMPARE(cleared.count(), 1);
    QVERIFY(m.activeText(1).isEmpty());

    // A new episode raises a new notification, once.
    for (int i = 6; i < 20; ++i)
        second(i * 1000);
    QCOMPARE(raised.count(), 2);
}

void tst_AlertMonitor::rateBelowWaitsForWarmUpAndHysteresis()
{
    AlertMonitor m;
    AlertRule r;
    r.stream = AlertRule::kAnyStream;
    r.rateBelow = 50;
    m.setRules({r});
    QSignalSpy raised(&m, &AlertMonitor::alertRaised);
    AlertMonitor::Sample s = live(0, 0.0);
    s.runningForMs = 1000; // just started: no alert yet
    m.evaluate(7, QStringLiteral("any"), s, 1000);
    QCOMPARE(raised.count(), 0);
    s.runningForMs = 10'000;
    m.evaluate(7, QStringLiteral("any"), s, 2000);
    QCOMPARE(raised.count(), 1);
    // Flapping around the threshold stays one episode.
    for (int i = 0; i < 10; ++i) {
        s.msgsPerSec = i % 2 ? 60.0 : 40.0;
        m.evaluate(7, QStringLiteral("any"), s, 3000 + i * 1000);
    }
    QCOMPARE(raised.count(), 1);
}

void tst_AlertMonitor::latencyAndGaps()
{
    AlertMonitor m;
    AlertRule r;
    r.stream = QStringLiteral("d");
    r.p99AboveMs = 100;
    r.gaps = true;
    m.setRules({r});
    QSignalSpy raised(&m, &AlertMonitor::alertRaised);
    AlertMonitor::Sample s = live(0);
    s.p99Ms = 50;
    m.evaluate(1, QStringLiteral("d"), s, 1000);
    s.p99Ms = 250;
    s.gaps = 3; // first sample saw 0
    m.evaluate(1, QStringLiteral("d"), s, 2000);
    QCOMPARE(raised.count(), 2);
    QStringList texts{raised[0][2].toString(), raised[1][2].toString()};
    texts.sort();
    QVERIFY2(texts[0].startsWith(QStringLiteral("3 sequence gap")), qPrintable(texts[0]));
    QVERIFY2(texts[1].startsWith(QStringLiteral("latency p99 250 ms above 100 ms")), qPrintable(texts[1]));
    s.gaps = 5; // more gaps within the same episode
    m.evaluate(1, QStringLiteral("d"), s, 3000);
    QCOMPARE(raised.count(), 2);
}

void tst_AlertMonitor::stoppedStreamsRaiseNothing()
{
    AlertMonitor m;
    AlertRule r;
    r.stream = QStringLiteral("s");
    r.silentS = 1;
    m.setRules({r});
    QSignalSpy raised(&m, &AlertMonitor::alertRaised);
    QSignalSpy cleared(&m, &AlertMonitor::alertCleared);
    m.evaluate(1, QStringLiteral("s"), live(5000), 1000);
    QCOMPARE(raised.count(), 1);
    AlertMonitor::Sample stopped = live(60'000);
    stopped.state = StreamState::Stopped;
    m.evaluate(1, QStringLiteral("s"), stopped, 2000);
    QCOMPARE(cleared.count(), 1); // the user stopped it: the episode is over
    m.evaluate(1, QStringLiteral("s"), stopped, 3000);
    QCOMPARE(raised.count(), 1);
}

void tst_AlertMonitor::ruleLookupAndJson()
{
    AlertMonitor m;
    AlertRule any;
    any.stream = AlertRule::kAnyStream;
    any.silentS = 10;
    AlertRule own;
    own.stream = QStringLiteral("btc");
    own.rateBelow = 2.5;
    own.p99AboveMs = 80;
    own.gaps = true;
    m.setRules({any, own});
    QCOMPARE(m.ruleFor(QStringLiteral("btc")).rateBelow, 2.5);
    QCOMPARE(m.ruleFor(QStringLiteral("eth")).silentS, 10);

    const QJsonArray json = AlertRule::toJson(m.rules());
    QVector<AlertRule> back;
    QString error;
    QVERIFY2(AlertRule::fromJson(json, back, &error), qPrintable(error));
    QCOMPARE(back.size(), 2);
    QVERIFY(back[0] == any);
    QVERIFY(back[1] == own);

    m.renameStream(QStringLiteral("btc"), QStringLiteral("btc2"));
    QCOMPARE(m.ruleFor(QStringLiteral("btc2")).p99AboveMs, 80.0);
    // An empty rule of a stream's own overrides "*".
    m.setRule(QStringLiteral("quiet"), AlertRule());
    QVERIFY(m.ruleFor(QStringLiteral("quiet")).isEmpty());
}

void tst_AlertMonitor::badJsonNamesTheField()
{
    QVector<AlertRule> rules;
    QString error;
    const QJsonArray bad{QJsonObject{{QStringLiteral("stream"), QStringLiteral("a")}},
                         QJsonObject{{QStringLiteral("stream"), QStringLiteral("b")},
                                     {QStringLiteral("silent_s"), QStringLiteral("ten")}}};
    QVERIFY(!AlertRule::fromJson(bad, rules, &error));
    QCOMPARE(error, QStringLiteral("alerts[1].silent_s: expected a number ≥ 0"));
}

// A periodic stream's latency holds its interval: the p99 rule never sees it.
void tst_AlertMonitor::periodicStreamHasNoLatencyRule()
{
    StreamSnapshot s;
    s.state = StreamState::Live;
    QCOMPARE(alertSample(s, 10.0, 800.0, 1000, 2000).p99Ms, 800.0);
    s.freshness.periodic = true;
    QVERIFY(std::isnan(alertSample(s, 10.0, 800.0, 1000, 2000).p99Ms));
}

STREAMSCOPE_TEST_MAIN(tst_AlertMonitor)
#include "tst_alertmonitor.moc"
