// AlertTrail: the samples the rules were evaluated on, kept for ten minutes, and the preview
// of what a rule would have raised on them, which must be what a live monitor with that rule
// raised on the same samples (for_s, clear_after_s, warm-up, gaps), on the streams the rule
// applies to only.

#include "../common/StartTime.h"
#include "../common/TestRegistry.h"
#include "AlertMonitor.h"
#include "AlertTrail.h"

#include <QtTest/QTest>

using namespace streamscope;
using streamscope::testing::kStartMs;
using namespace streamscope::alerts;

namespace {

// One second of a running stream: `rate` msgs/s, silent for `silentMs`, `gaps` in total.
AlertMonitor::Sample second(int i, double rate, qint64 silentMs = 0, quint64 gaps = 0)
{
    AlertMonitor::Sample s;
    s.state = StreamState::Live;
    s.msgsPerSec = rate;
    s.p99Ms = 5.0;
    s.silentMs = silentMs;
    s.gaps = gaps;
    s.runningForMs = qint64(i) * 1000;
    return s;
}

struct Raised {
    int condition;
    qint64 atMs;
    bool operator==(const Raised &o) const { return condition == o.condition && atMs == o.atMs; }
};

} // namespace

class tst_AlertTrail : public QObject {
    Q_OBJECT
private slots:
    // Rate 100, then 3 for 40 s, then 100; a silence of 20 s; two gaps 90 s apart: the preview of each
    // rule matches a live monitor's episodes, second for second.
    void previewIsWhatTheMonitorRaised_data()
    {
        QTest::addColumn<double>("rateBelow");
        QTest::addColumn<int>("silentS");
        QTest::addColumn<bool>("gaps");
        QTest::addColumn<int>("forS");
        QTest::addColumn<int>("clearAfterS");
        QTest::addColumn<int>("episodes");
        QTest::newRow("rate below 10: the slow part and the silence") << 10.0 << 0 << false << 0 << 5 << 2;
        QTest::newRow("rate below 10 for 30 s: the slow part only") << 10.0 << 0 << false << 30 << 5 << 1;
        QTest::newRow("rate below 10 for 60 s: never") << 10.0 << 0 << false << 60 << 5 << 0;
        QTest::newRow("rate below 1: the silence only") << 1.0 << 0 << false << 0 << 5 << 1;
        QTest::newRow("silent 15 s") << 0.0 << 15 << false << 0 << 5 << 1;
        QTest::newRow("gaps, apart by more than the hold") << 0.0 << 0 << true << 0 << 0 << 2;
    }
    void previewIsWhatTheMonitorRaised()
    {
        QFETCH(double, rateBelow);
        QFETCH(int, silentS);
        QFETCH(bool, gaps);
        QFETCH(int, forS);
        QFETCH(int, clearAfterS);
        QFETCH(int, episodes);
        AlertRule rule;
        rule.stream = QStringLiteral("a");
        rule.rateBelow = rateBelow;
        rule.silentS = silentS;
        rule.gaps = gaps;
        rule.forS = forS;
        rule.clearAfterS = clearAfterS;

        AlertMonitor live;
        live.setRules({rule});
        QList<Raised> liveRaised;
        qint64 nowMs = kStartMs;
        connect(&live, &AlertMonitor::alertRaised, this,
                [&](StreamId, const QString &, const QString &, int condition) {
                    liveRaised << Raised{condition, nowMs};
                });
        AlertTrail trail;
        quint64 gapTotal = 0;
        qint64 lastDataMs = kStartMs;
        for (int i = 0; i < 300; ++i) {
            nowMs = kStartMs + qint64(i) * 1000;
            double rate = 100;
            if (i >= 100 && i < 140)
                rate = 3;
            if (i >= 200 && i < 220)
                rate = 0;
            else
                lastDataMs = nowMs;
            if (i == 160 || i == 250)
                ++gapTotal;
            const AlertMonitor::Sample s = second(i, rate, nowMs - lastDataMs, gapTotal);
            live.evaluate(1, QStringLiteral("a"), s, nowMs);
            trail.record(1, QStringLiteral("a"), s, nowMs);
            // A neighbour the rule is not for, silent all along: never in the preview.
            trail.record(2, QStringLiteral("b"), second(i, 0, qint64(i) * 1000), nowMs);
        }
        const QVector<AlertTrail::Episode> preview =
            trail.preview(rule, [](const QString &name) { return name == QLatin1String("a"); });
        QCOMPARE(preview.size(), episodes);
        QCOMPARE(liveRaised.size(), episodes);
        for (int i = 0; i < episodes; ++i) {
            QCOMPARE(preview[i].stream, QStringLiteral("a"));
            QCOMPARE(preview[i].condition, liveRaised[i].condition);
            QCOMPARE(preview[i].raisedMs, liveRaised[i].atMs);
            QVERIFY(preview[i].clearedMs == 0 || preview[i].clearedMs > preview[i].raisedMs);
            QVERIFY(!preview[i].text.isEmpty());
        }
        QCOMPARE(trail.spanMs(), 299'000);
    }

    // Order books: an instrument out of sync for 5 s (then resynced), one crossed once; the
    // preview raises what the live monitor raised, naming the instrument.
    void booksPreviewed()
    {
        AlertRule rule;
        rule.stream = QStringLiteral("a");
        rule.bookDesync = true;
        rule.bookCrossed = true;
        rule.clearAfterS = 0;
        AlertMonitor live;
        live.setRules({rule});
        QList<Raised> liveRaised;
        qint64 nowMs = kStartMs;
        connect(&live, &AlertMonitor::alertRaised, this,
                [&](StreamId, const QString &, const QString &, int condition) {
                    liveRaised << Raised{condition, nowMs};
                });
        AlertTrail trail;
        for (int i = 0; i < 120; ++i) {
            nowMs = kStartMs + qint64(i) * 1000;
            AlertMonitor::Sample s = second(i, 100);
            if (i >= 30 && i < 35)
                s.booksDesynced = {QStringLiteral("BTCUSDT")};
            s.bookResyncs = i >= 35 ? 1 : 0;
            if (i == 80)
                s.booksCrossed = {QStringLiteral("ETHUSDT")};
            s.bookCrossedEpisodes = i >= 80 ? 1 : 0;
            live.evaluate(1, QStringLiteral("a"), s, nowMs);
            trail.record(1, QStringLiteral("a"), s, nowMs);
        }
        const QVector<AlertTrail::Episode> preview = trail.preview(rule, [](const QString &) { return true; });
        QCOMPARE(liveRaised.size(), 2);
        QCOMPARE(preview.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(preview[i].condition, liveRaised[i].condition);
            QCOMPARE(preview[i].raisedMs, liveRaised[i].atMs);
        }
        QCOMPARE(preview[0].condition, int(AlertMonitor::Condition::BookDesync));
        QVERIFY2(preview[0].text.contains(QStringLiteral("BTCUSDT")), qPrintable(preview[0].text));
        QCOMPARE(preview[1].condition, int(AlertMonitor::Condition::BookCrossed));
        QVERIFY2(preview[1].text.contains(QStringLiteral("ETHUSDT")), qPrintable(preview[1].text));
    }

    // Instruments: one stale for 20 s, and one whose short episode fell between two samples; the
    // preview raises what the live monitor raised, naming the instrument, and clears alike.
    void instrumentStalePreviewed()
    {
        AlertRule rule;
        rule.stream = QStringLiteral("a");
        rule.instrumentStale = true;
        rule.clearAfterS = 2;
        AlertMonitor live;
        live.setRules({rule});
        QList<Raised> liveRaised;
        QList<Raised> liveCleared;
        QStringList liveTexts;
        qint64 nowMs = kStartMs;
        connect(&live, &AlertMonitor::alertRaised, this,
                [&](StreamId, const QString &, const QString &text, int condition) {
                    liveRaised << Raised{condition, nowMs};
                    liveTexts << text;
                });
        connect(&live, &AlertMonitor::alertCleared, this,
                [&](StreamId, const QString &, const QString &, int condition) {
                    liveCleared << Raised{condition, nowMs};
                });
        AlertTrail trail;
        for (int i = 0; i < 120; ++i) {
            nowMs = kStartMs + qint64(i) * 1000;
            AlertMonitor::Sample s = second(i, 100);
            if (i >= 30 && i < 50)
                s.instrumentsStale = {QStringLiteral("SOLUSDT")};
            s.instrumentStaleEpisodes = i >= 30 ? 1 : 0;
            s.instrumentStaleEpisodes += i >= 90 ? 1 : 0; // stale and back between two samples
            live.evaluate(1, QStringLiteral("a"), s, nowMs);
            trail.record(1, QStringLiteral("a"), s, nowMs);
        }
        const QVector<AlertTrail::Episode> preview = trail.preview(rule, [](const QString &) { return true; });
        QCOMPARE(liveRaised.size(), 2);
        QCOMPARE(liveCleared.size(), 2);
        QCOMPARE(liveRaised[0].atMs, kStartMs + 30'000);
        QCOMPARE(liveCleared[0].atMs, kStartMs + 51'000); // clear_after_s after the last stale sample
        QCOMPARE(liveRaised[1].atMs, kStartMs + 90'000);
        QCOMPARE(liveTexts[0], QStringLiteral("instrument stale: SOLUSDT"));
        QCOMPARE(liveTexts[1], QStringLiteral("an instrument went quiet"));
        QCOMPARE(preview.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(preview[i].condition, int(AlertMonitor::Condition::InstrumentStale));
            QCOMPARE(preview[i].raisedMs, liveRaised[i].atMs);
            QCOMPARE(preview[i].clearedMs, liveCleared[i].atMs);
        }
        QCOMPARE(preview[0].text, liveTexts[0]);
        QCOMPARE(AlertMonitor::conditionName(int(AlertMonitor::Condition::InstrumentStale)),
                 QStringLiteral("instrument_stale"));
    }

    // The rule's JSON: read, written back, a wrong type named.
    void instrumentStaleRuleJson()
    {
        AlertRule r;
        QString error;
        QVERIFY(AlertRule::fromJson(QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")},
                                                {QStringLiteral("instrument_stale"), true},
                                                {QStringLiteral("for_s"), 3},
                                                {QStringLiteral("clear_after_s"), 7}},
                                    QStringLiteral("alerts[0]"), r, &error));
        QVERIFY(r.instrumentStale && !r.isEmpty());
        QCOMPARE(r.forS, 3);
        QCOMPARE(r.clearAfterS, 7);
        QCOMPARE(r.toJson().value(QStringLiteral("instrument_stale")).toBool(), true);
        AlertRule back;
        QVERIFY(AlertRule::fromJson(r.toJson(), QStringLiteral("alerts[0]"), back, &error));
        QVERIFY(back == r);
        QVERIFY(!AlertRule::fromJson(QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")},
                                                 {QStringLiteral("instrument_stale"), QStringLiteral("yes")}},
                                     QStringLiteral("alerts[1]"), r, &error));
        QCOMPARE(error, QStringLiteral("alerts[1].instrument_stale: expected true or false"));
        AlertRule off;
        off.stream = QStringLiteral("*");
        QVERIFY(off.isEmpty());
        QVERIFY(!off.toJson().contains(QStringLiteral("instrument_stale")));
    }

    // A "*" rule previews every stream it applies to.
    void anyStreamRule()
    {
        AlertTrail trail;
        for (int i = 0; i < 60; ++i) {
            const qint64 nowMs = kStartMs + qint64(i) * 1000;
            trail.record(1, QStringLiteral("a"), second(i, 0, qint64(i) * 1000), nowMs);
            trail.record(2, QStringLiteral("b"), second(i, 0, qint64(i) * 1000), nowMs);
            trail.record(3, QStringLiteral("c"), second(i, 50), nowMs);
        }
        AlertRule rule;
        rule.stream = AlertRule::kAnyStream;
        rule.silentS = 10;
        const QVector<AlertTrail::Episode> all = trail.preview(rule, [](const QString &) { return true; });
        QCOMPARE(all.size(), 2); // a and b, not c
        QCOMPARE(all[0].sinceMs, kStartMs + 10'000);
        const QVector<AlertTrail::Episode> notB =
            trail.preview(rule, [](const QString &name) { return name != QLatin1String("b"); });
        QCOMPARE(notB.size(), 1);
        QCOMPARE(notB[0].stream, QStringLiteral("a"));
    }

    // Ten minutes are kept: an episode older than that is no longer previewed; a stream that
    // went is forgotten.
    void keepsTenMinutes()
    {
        AlertTrail trail;
        for (int i = 0; i < 700; ++i)
            trail.record(1, QStringLiteral("a"), second(i, i < 30 ? 0 : 100, i < 30 ? qint64(i) * 1000 : 0),
                         kStartMs + qint64(i) * 1000);
        QCOMPARE(trail.spanMs(), qint64(AlertTrail::kCapacity - 1) * 1000);
        AlertRule rule;
        rule.stream = QStringLiteral("a");
        rule.silentS = 10;
        QVERIFY(trail.preview(rule, [](const QString &) { return true; }).isEmpty());
        trail.forget(1);
        QCOMPARE(trail.streamCount(), 0);
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(tst_AlertTrail)
#include "tst_alerttrail.moc"
