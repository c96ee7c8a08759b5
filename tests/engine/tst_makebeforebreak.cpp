// MakeBeforeBreak: a rollover's replacement connection and its overlap de-duplication.
// First the class alone, driven as the session drives it (a message in, then the step it
// says; the housekeeping tick on a stepped clock): scripts of interleaved deliveries and
// generated timelines, where every event must be counted exactly once. Then through a
// session with fake transports: the replacement opens for the same shard, takes over when
// the old connection caught up, closed or overlapped for too long, and is abandoned when it
// fails, the old connection staying and the next replacement waiting a growing delay.

#include "../common/SessionRig.h"
#include "../common/TestRegistry.h"
#include "protocol/MessageDecoder.h"
#include "session/MakeBeforeBreak.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QRandomGenerator>
#include <QtTest/QtTest>

#include <optional>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

constexpr int kOld = 1;        // the connection being replaced
constexpr int kNew = 2;        // its replacement
constexpr int kOtherShard = 3; // another connection of the same stream
constexpr qint64 kOverlapMaxMs = 2000;

// The symbols of the scripts and timelines; a DecodedFields refers to its stream name.
constexpr const char *kStreams[] = {"btcusdt@aggTrade", "ethusdt@aggTrade", "bnbusdt@aggTrade", "solusdt@aggTrade"};
constexpr char kKeyLetters[] = {'b', 'e', 'n', 's'};

DecodedFields trade(int key, std::int64_t id)
{
    DecodedFields f;
    f.stream = kStreams[key];
    f.tradeId = id;
    f.eventTime = 1'780'000'000'000;
    return f;
}

// MakeBeforeBreak as the session drives it: prepare() and begin() when the replacement
// opens; every data message of either connection through accept() while the overlap lasts,
// then afterMessage(); onTick() on the housekeeping tick; switchOver() on SwitchOver (the
// old connection is retired: it delivers nothing more), reset() on Settled.
struct Driver {
    Driver()
    {
        rollover.prepare();
        rollover.begin(kOld, kNew);
    }

    // A data message; `fields` null: one the stream does not decode (no key, no id).
    void message(int link, const DecodedFields *fields, const QString &label, const QString &token)
    {
        if (link == kOld && oldRetired)
            return;
        if (link == kNew && !firstNewMs)
            firstNewMs = nowMs;
        if (!rollover.overlapping() || rollover.accept(link, fields, nowMs))
            counted << label;
        else
            ++duplicates;
        if (rollover.overlapping())
            act(rollover.afterMessage(), token);
    }
    void tick(qint64 ms, const QString &token)
    {
        nowMs += ms;
        act(rollover.onTick(nowMs, kOverlapMaxMs, newUpMs), token);
    }
    // The old connection closes: the replacement takes over if it is up (else the session
    // reconnects the whole stream, which the scripts here do not do).
    void oldCloses(const QString &token)
    {
        if (rollover.inProgress() && newUpMs)
            switchOver(token);
    }

    void act(MakeBeforeBreak::Step step, const QString &token)
    {
        switch (step) {
        case MakeBeforeBreak::Step::SwitchOver: switchOver(token); break;
        case MakeBeforeBreak::Step::Settled: settle(token); break;
        case MakeBeforeBreak::Step::None: break;
        }
    }
    void switchOver(const QString &token)
    {
        rollover.switchOver(nowMs);
        oldRetired = true;
        switchedAt = token;
        if (rollover.afterMessage() == MakeBeforeBreak::Step::Settled)
            settle(token);
    }
    void settle(const QString &token)
    {
        rollover.reset();
        settledAt = token;
    }

    MakeBeforeBreak rollover;
    qint64 nowMs = 9'000'000;
    std::optional<qint64> newUpMs;
    std::optional<qint64> firstNewMs;
    bool oldRetired = false;
    QStringList counted;
    int duplicates = 0;
    QString switchedAt;
    QString settledAt;
};

// Runs a script, one token per step:
//   o<id>, n<id>      a trade of btcusdt on the old or the new connection
//   oe<id>, ne<id>    the same for ethusdt
//   o-, n-            a message without key or id
//   s<id>             a btcusdt trade on another shard's connection
//   up                the replacement comes up
//   t<ms>             time passes, then the housekeeping tick
//   x                 the old connection closes
void play(Driver &d, const QString &script)
{
    for (const QString &token : script.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (token == QLatin1String("up")) {
            d.newUpMs = d.nowMs;
        } else if (token == QLatin1String("x")) {
            d.oldCloses(token);
        } else if (token.startsWith(QLatin1Char('t'))) {
            d.tick(token.mid(1).toLongLong(), token);
        } else {
            const int link = token.at(0) == QLatin1Char('o') ? kOld
                : token.at(0) == QLatin1Char('n')            ? kNew
                                                             : kOtherShard;
            QString rest = token.mid(1);
            if (rest == QLatin1String("-")) {
                d.message(link, nullptr, QStringLiteral("-"), token);
                continue;
            }
            int key = 0;
            if (rest.startsWith(QLatin1Char('e'))) {
                key = 1;
                rest = rest.mid(1);
            }
            const DecodedFields f = trade(key, rest.toLongLong());
            d.message(link, &f, QLatin1Char(kKeyLetters[key]) + rest, token);
        }
    }
}

StreamConfig rollingBinanceConfig()
{
    StreamConfig c;
    c.name = QStringLiteral("rolling");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:9/stream?streams=btcusdt@aggTrade"));
    c.subscribe = QStringList{QStringLiteral("ethusdt@aggTrade")};
    c.maxConnectionAgeMs = 60000;
    c.rolloverOverlapMaxMs = int(kOverlapMaxMs);
    c.connectTimeoutMs = 5000;
    c.stallTimeoutMs = 600000;
    c.pingIntervalMs = 0;
    c.pongTimeoutMs = 0;
    c.reconnectBaseMs = 1000;
    c.reconnectMaxMs = 60000;
    return c;
}

// A session whose first connection is up, has delivered trades 1..3 of btcusdt and reached
// its age limit: its replacement has just opened.
struct RollingSession {
    explicit RollingSession(const StreamConfig &config = rollingBinanceConfig())
        : rig(config)
    {
        rig.session.start();
        old = rig.last();
        old->up();
        // The ethusdt subscription is answered, as Binance does.
        old->deliver(QByteArrayLiteral("{\"result\":null,\"id\":") + requestId(old->sent.value(0)) + '}');
        for (int a = 1; a <= 3; ++a)
            old->deliver(rig.trade(a));
        for (int s = 0; s < 60; ++s) { // the old connection answers its pings, if it gets any
            rig.run(1000, 1000);
            old->pong();
        }
        fresh = rig.transports.size() == 2 ? rig.last() : nullptr;
    }
    static QByteArray requestId(const QString &sent)
    {
        const QJsonObject o = QJsonDocument::fromJson(sent.toUtf8()).object();
        return QByteArray::number(o.value(QLatin1String("id")).toInteger());
    }

    SessionRig rig;
    FakeTransport *old = nullptr;
    FakeTransport *fresh = nullptr;
};

} // namespace

class TestMakeBeforeBreak : public QObject {
    Q_OBJECT
private slots:
    // The class alone.
    void startsAndResets();
    void countsEachMessageOnceAcrossTheOverlap_data();
    void countsEachMessageOnceAcrossTheOverlap();
    void noMessageLostOrDoubledOverGeneratedTimelines_data();
    void noMessageLostOrDoubledOverGeneratedTimelines();
    void overlapLimitOnTheTick_data();
    void overlapLimitOnTheTick();
    void settlesOnTheTickAfterTheSwitch();
    void checksOneSequenceWhileOverlapping();
    void anotherShardIsNotDeduplicated();
    void resetForgetsThePreviousRollover();
    void failedReplacementRetriedAfterGrowingDelay();

    // Through a session with fake transports.
    void replacementOpensForTheSameShard();
    void replacementTakesOver_data();
    void replacementTakesOver();
    void replacementAbandonedOnFailure_data();
    void replacementAbandonedOnFailure();
    void oldClosingBeforeTheReplacementIsUpReconnects();
    void refusedReplacementIsNotRetriedOnEveryTick();
    void abandonedReplacementsTradesCountOnce();
};

void TestMakeBeforeBreak::startsAndResets()
{
    MakeBeforeBreak r;
    QVERIFY(!r.inProgress());
    QVERIFY(!r.overlapping());
    QCOMPARE(r.afterMessage(), MakeBeforeBreak::Step::None);
    QCOMPARE(r.onTick(1'000'000, kOverlapMaxMs, 0), MakeBeforeBreak::Step::None);
    r.prepare(); // before the replacement opens: its first message is de-duplicated already
    QVERIFY(r.overlapping());
    QVERIFY(!r.inProgress());
    r.begin(kOld, kNew);
    QVERIFY(r.inProgress());
    QCOMPARE(r.fromId(), kOld);
    QCOMPARE(r.toId(), kNew);
    QVERIFY(!r.switched());
    r.switchOver(1'000'000);
    QVERIFY(r.switched());
    QVERIFY(r.inProgress());
    QCOMPARE(r.fromId(), 0); // the old connection is gone
    QCOMPARE(r.toId(), kNew);
    r.reset();
    QVERIFY(!r.inProgress());
    QVERIFY(!r.overlapping());
    QVERIFY(!r.switched());
    QCOMPARE(r.fromId(), 0);
    QCOMPARE(r.toId(), 0);
}

void TestMakeBeforeBreak::countsEachMessageOnceAcrossTheOverlap_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("counted"); // in the order counted; "-" a message without id
    QTest::addColumn<int>("duplicates");
    QTest::addColumn<QString>("switchedAt"); // the token after which the replacement took over
    QTest::addColumn<QString>("settledAt");  // the token after which the table was dropped

    QTest::newRow("new starts ahead, the old catches up")
        << QStringLiteral("o1 o2 o3 up n6 n7 o4 o5 o6 o7 n8") << QStringLiteral("b1 b2 b3 b6 b7 b4 b5 b8") << 1
        << QStringLiteral("o6") << QStringLiteral("o6");
    QTest::newRow("the old ahead of the new")
        << QStringLiteral("o1 o2 o3 o4 o5 o6 up n4 n5 n6 n7 o7 n8") << QStringLiteral("b1 b2 b3 b4 b5 b6 b7 b8") << 3
        << QStringLiteral("n4") << QStringLiteral("n7");
    QTest::newRow("in lockstep") << QStringLiteral("o1 up n1 o2 n2 n3") << QStringLiteral("b1 b2 b3") << 1
                                 << QStringLiteral("n1") << QStringLiteral("n2");
    QTest::newRow("two symbols, the new ahead on both")
        << QStringLiteral("o1 oe1 up n3 ne2 o2 oe2 o3 n4 ne3") << QStringLiteral("b1 e1 b3 e2 b2 b4 e3") << 2
        << QStringLiteral("o3") << QStringLiteral("o3");
    QTest::newRow("two symbols, the old waits for the second")
        << QStringLiteral("o1 oe1 up n2 ne3 o2 oe2 oe3 n3 ne4") << QStringLiteral("b1 e1 b2 e3 e2 b3 e4") << 2
        << QStringLiteral("oe3") << QStringLiteral("oe3");
    QTest::newRow("a symbol the new has not sent at the switch")
        << QStringLiteral("o1 oe1 oe2 up n2 o2 ne3 ne4") << QStringLiteral("b1 e1 e2 b2 e3 e4") << 1
        << QStringLiteral("o2") << QStringLiteral("ne3");
    QTest::newRow("the old lags: the overlap limit switches")
        << QStringLiteral("o1 oe1 up ne2 n2 oe2 t2000 n3 t1 ne3 o2") << QStringLiteral("b1 e1 e2 b2 b3 e3") << 1
        << QStringLiteral("t1") << QStringLiteral("t1");
    QTest::newRow("the overlap limit counts from the new one's first data")
        << QStringLiteral("o1 up t1900 n3 t1900 t100 o2 t1") << QStringLiteral("b1 b3 b2") << 0 << QStringLiteral("t1")
        << QStringLiteral("t1");
    QTest::newRow("the old closes") << QStringLiteral("o1 o2 o3 up n4 x o4 n5") << QStringLiteral("b1 b2 b3 b4 b5") << 0
                                    << QStringLiteral("x") << QStringLiteral("x");
    QTest::newRow("no id: the old counts until the switch, then the new")
        << QStringLiteral("o1 o- up n2 n- o2 n- o- n3") << QStringLiteral("b1 - b2 - b3") << 2 << QStringLiteral("o2")
        << QStringLiteral("o2");
    QTest::newRow("nothing from the new: no switch")
        << QStringLiteral("o1 o2 t5000 o3 t5000") << QStringLiteral("b1 b2 b3") << 0 << QString() << QString();
}

void TestMakeBeforeBreak::countsEachMessageOnceAcrossTheOverlap()
{
    QFETCH(QString, script);
    QFETCH(QString, counted);
    QFETCH(int, duplicates);
    QFETCH(QString, switchedAt);
    QFETCH(QString, settledAt);
    Driver d;
    play(d, script);
    QCOMPARE(d.counted.join(QLatin1Char(' ')), counted);
    QCOMPARE(d.duplicates, duplicates);
    QCOMPARE(d.switchedAt, switchedAt);
    QCOMPARE(d.settledAt, settledAt);
}

// One timeline of trades over several symbols, as the venue sends it. The old connection
// delivers it from the start, the replacement from where it subscribed; the two arrive
// interleaved at random, each in its own order. Every trade is counted exactly once.
void TestMakeBeforeBreak::noMessageLostOrDoubledOverGeneratedTimelines_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("symbols");
    QTest::addColumn<int>("newStart");  // the replacement's first trade, in the timeline
    QTest::addColumn<int>("oldShare");  // percent of arrivals from the old connection while both deliver
    QTest::addColumn<int>("oldBefore"); // trades the old delivered before the replacement's first

    QTest::newRow("one symbol, old far behind") << 1u << 1 << 50 << 20 << 0;
    QTest::newRow("one symbol, old ahead") << 2u << 1 << 50 << 80 << 50;
    QTest::newRow("two symbols, even") << 3u << 2 << 60 << 50 << 30;
    QTest::newRow("three symbols, old behind") << 4u << 3 << 80 << 25 << 10;
    QTest::newRow("four symbols, old ahead") << 5u << 4 << 40 << 75 << 40;
    QTest::newRow("four symbols, old far ahead") << 6u << 4 << 20 << 90 << 150;
    QTest::newRow("four symbols, replacement starts at once") << 7u << 4 << 0 << 50 << 0;
}

void TestMakeBeforeBreak::noMessageLostOrDoubledOverGeneratedTimelines()
{
    QFETCH(quint32, seed);
    QFETCH(int, symbols);
    QFETCH(int, newStart);
    QFETCH(int, oldShare);
    QFETCH(int, oldBefore);
    constexpr int kTrades = 400;
    QRandomGenerator random(seed);
    struct Trade {
        int key;
        std::int64_t id;
    };
    std::vector<Trade> timeline;
    std::vector<std::int64_t> nextId(std::size_t(symbols), 1000);
    for (int i = 0; i < kTrades; ++i) {
        const int key = int(random.bounded(symbols));
        timeline.push_back({key, nextId[std::size_t(key)]++});
    }
    const auto label = [](const Trade &t) {
        return QStringLiteral("%1%2").arg(QLatin1Char(kKeyLetters[t.key])).arg(t.id);
    };

    Driver d;
    d.newUpMs = d.nowMs;
    int oldNext = 0;
    int newNext = newStart;
    while (oldNext < oldBefore && oldNext < kTrades) {
        const DecodedFields f = trade(timeline[std::size_t(oldNext)].key, timeline[std::size_t(oldNext)].id);
        d.message(kOld, &f, label(timeline[std::size_t(oldNext++)]), QStringLiteral("o"));
    }
    while (newNext < kTrades || (!d.oldRetired && oldNext < kTrades)) {
        const bool oldCan = !d.oldRetired && oldNext < kTrades;
        const bool fromOld = oldCan && (newNext >= kTrades || int(random.bounded(100)) < oldShare);
        int &next = fromOld ? oldNext : newNext;
        const Trade &t = timeline[std::size_t(next++)];
        const DecodedFields f = trade(t.key, t.id);
        d.message(fromOld ? kOld : kNew, &f, label(t), fromOld ? QStringLiteral("o") : QStringLiteral("n"));
    }
    QVERIFY2(!d.switchedAt.isEmpty(), "the replacement never took over");
    // A symbol whose last trade the old connection delivered is never passed on the new
    // one: the overlap limit settles it.
    d.tick(kOverlapMaxMs + 1, QStringLiteral("t"));
    QVERIFY(!d.rollover.inProgress());
    QStringList expected;
    for (const Trade &t : timeline)
        expected << label(t);
    QStringList counted = d.counted;
    counted.sort();
    expected.sort();
    QCOMPARE(counted, expected);
}

void TestMakeBeforeBreak::overlapLimitOnTheTick_data()
{
    QTest::addColumn<qint64>("upAfterMs");        // the replacement came up; -1: not yet
    QTest::addColumn<qint64>("firstDataAfterMs"); // its first data; -1: none yet
    QTest::addColumn<qint64>("tickAfterMs");
    QTest::addColumn<bool>("switches");

    QTest::newRow("not up, no data, long after") << qint64(-1) << qint64(-1) << qint64(600000) << false;
    QTest::newRow("up, at the limit") << qint64(0) << qint64(-1) << kOverlapMaxMs << false;
    QTest::newRow("up, past the limit") << qint64(0) << qint64(-1) << kOverlapMaxMs + 1 << true;
    QTest::newRow("data later than up: from the data") << qint64(0) << qint64(1500) << kOverlapMaxMs + 1 << false;
    QTest::newRow("data later than up: past the limit") << qint64(0) << qint64(1500) << kOverlapMaxMs + 1501 << true;
    QTest::newRow("data before up is known") << qint64(-1) << qint64(100) << kOverlapMaxMs + 101 << true;
}

void TestMakeBeforeBreak::overlapLimitOnTheTick()
{
    QFETCH(qint64, upAfterMs);
    QFETCH(qint64, firstDataAfterMs);
    QFETCH(qint64, tickAfterMs);
    QFETCH(bool, switches);
    constexpr qint64 kStartMs = 7'000'000;
    MakeBeforeBreak r;
    r.prepare();
    r.begin(kOld, kNew);
    const DecodedFields first = trade(0, 5);
    if (firstDataAfterMs >= 0)
        QVERIFY(r.accept(kNew, &first, kStartMs + firstDataAfterMs));
    const std::optional<qint64> up = upAfterMs >= 0 ? std::optional<qint64>(kStartMs + upAfterMs) : std::nullopt;
    QCOMPARE(r.onTick(kStartMs + tickAfterMs, kOverlapMaxMs, up),
             switches ? MakeBeforeBreak::Step::SwitchOver : MakeBeforeBreak::Step::None);
}

// After the switch the table stays until every symbol passed its boundary on the new
// connection, but no longer than the overlap limit.
void TestMakeBeforeBreak::settlesOnTheTickAfterTheSwitch()
{
    constexpr qint64 kSwitchMs = 8'000'000;
    MakeBeforeBreak r;
    r.prepare();
    r.begin(kOld, kNew);
    const DecodedFields oldBtc = trade(0, 10);
    const DecodedFields oldEth = trade(1, 20);
    QVERIFY(r.accept(kOld, &oldBtc, kSwitchMs - 10));
    QVERIFY(r.accept(kOld, &oldEth, kSwitchMs - 10));
    r.switchOver(kSwitchMs);
    QCOMPARE(r.afterMessage(), MakeBeforeBreak::Step::None); // neither symbol seen on the new one
    const DecodedFields newBtc = trade(0, 11);
    QVERIFY(r.accept(kNew, &newBtc, kSwitchMs + 5));
    QCOMPARE(r.afterMessage(), MakeBeforeBreak::Step::None); // ethusdt still pending
    QCOMPARE(r.onTick(kSwitchMs + kOverlapMaxMs, kOverlapMaxMs, kSwitchMs), MakeBeforeBreak::Step::None);
    QCOMPARE(r.onTick(kSwitchMs + kOverlapMaxMs + 1, kOverlapMaxMs, kSwitchMs), MakeBeforeBreak::Step::Settled);
    const DecodedFields staleEth = trade(1, 20);
    QVERIFY(!r.accept(kNew, &staleEth, kSwitchMs + 6)); // the old one counted it
    const DecodedFields newEth = trade(1, 21);
    QVERIFY(r.accept(kNew, &newEth, kSwitchMs + 7));
    QCOMPARE(r.afterMessage(), MakeBeforeBreak::Step::Settled);
    QCOMPARE(r.onTick(kSwitchMs + 8, kOverlapMaxMs, kSwitchMs), MakeBeforeBreak::Step::Settled);
}

void TestMakeBeforeBreak::checksOneSequenceWhileOverlapping()
{
    MakeBeforeBreak r;
    for (int link : {kOld, kNew, kOtherShard})
        QVERIFY(r.checksSequence(link)); // no rollover: every connection
    r.prepare();
    r.begin(kOld, kNew);
    QVERIFY(r.checksSequence(kOld));
    QVERIFY(!r.checksSequence(kNew)); // the two interleave: only the old one is checked
    QVERIFY(!r.checksSequence(kOtherShard));
    r.switchOver(1'000'000);
    for (int link : {kNew, kOtherShard})
        QVERIFY(r.checksSequence(link));
    r.reset();
    QVERIFY(r.checksSequence(kNew));
}

// Another connection of the stream carries other streams: its messages pass untouched, even
// one that would look like a duplicate of the overlap's.
void TestMakeBeforeBreak::anotherShardIsNotDeduplicated()
{
    Driver d;
    play(d, QStringLiteral("o1 s1 up n1 s1 s2 n2"));
    QCOMPARE(d.counted.join(QLatin1Char(' ')), QStringLiteral("b1 b1 b1 b2 b2"));
    QCOMPARE(d.duplicates, 1); // the replacement's 1, which the old connection counted
}

// A new rollover starts clean: nothing of the last one (its first data, its table, its switch)
// decides for it.
void TestMakeBeforeBreak::resetForgetsThePreviousRollover()
{
    constexpr qint64 kT0 = 6'000'000;
    MakeBeforeBreak r;
    r.prepare();
    r.begin(kOld, kNew);
    const DecodedFields oldTrade = trade(0, 50);
    const DecodedFields newTrade = trade(0, 60);
    QVERIFY(r.accept(kOld, &oldTrade, kT0));
    QVERIFY(r.accept(kNew, &newTrade, kT0)); // first data of this replacement
    r.reset();

    r.prepare();
    r.begin(4, 5);
    QCOMPARE(r.onTick(kT0 + 10 * kOverlapMaxMs, kOverlapMaxMs, std::nullopt), MakeBeforeBreak::Step::None);
    QCOMPARE(r.afterMessage(), MakeBeforeBreak::Step::None);
    // The old table is gone: trade 55 is below the last boundary but counts on the old connection.
    const DecodedFields again = trade(0, 55);
    QVERIFY(r.accept(4, &again, kT0 + 1));
    QVERIFY(!r.switched());
}

void TestMakeBeforeBreak::failedReplacementRetriedAfterGrowingDelay()
{
    constexpr qint64 kT0 = 4'000'000;
    MakeBeforeBreak r;
    QVERIFY(r.mayStart(kT0));
    qint64 now = kT0;
    for (const qint64 delayMs : {1000, 2000, 4000, 8000, 8000}) { // base 1 s, at most 8 s
        r.prepare();
        r.begin(kOld, kNew);
        r.abandon(now, 1000, 8000);
        QVERIFY(!r.inProgress());
        QVERIFY(!r.overlapping());
        QVERIFY(!r.mayStart(now + delayMs - 1));
        QVERIFY(r.mayStart(now + delayMs));
        now += delayMs;
    }
    // A replacement that takes over ends the run of failures: the next failure waits the base.
    r.prepare();
    r.begin(kOld, kNew);
    r.switchOver(now);
    r.reset();
    QVERIFY(r.mayStart(now));
    r.prepare();
    r.begin(kOld, kNew);
    r.abandon(now, 1000, 8000);
    QVERIFY(!r.mayStart(now + 999));
    QVERIFY(r.mayStart(now + 1000));
    // A delay far past any cap does not overflow.
    for (int i = 0; i < 70; ++i)
        r.abandon(now, 1000, 60000);
    QVERIFY(!r.mayStart(now + 59999));
    QVERIFY(r.mayStart(now + 60000));
}

// ---- through a session ---------------------------------------------------------------

void TestMakeBeforeBreak::replacementOpensForTheSameShard()
{
    RollingSession s;
    QVERIFY(s.fresh);
    QVERIFY(s.fresh != s.old && s.fresh->opened);
    QCOMPARE(s.fresh->url(), s.old->url());
    const StreamSnapshot snap = s.rig.snapshot();
    QVERIFY(snap.rolloverInProgress);
    QCOMPARE(snap.connections.size(), 2);
    QVERIFY(!snap.connections[0].rollover);
    QVERIFY(snap.connections[1].rollover);
    QCOMPARE(snap.connections[1].shard, snap.connections[0].shard);
    QCOMPARE(snap.connections[1].subscriptions, 1); // it carries what the old one carries
    QVERIFY(!snap.connections[1].connected);
    // Up, it subscribes to the old connection's share again.
    s.fresh->up();
    QCOMPARE(s.fresh->sent.size(), 1);
    QVERIFY2(s.fresh->sent.at(0).contains(QLatin1String("\"SUBSCRIBE\"")), qPrintable(s.fresh->sent.at(0)));
    QVERIFY2(s.fresh->sent.at(0).contains(QLatin1String("ethusdt@aggTrade")), qPrintable(s.fresh->sent.at(0)));
    QCOMPARE(s.rig.session.state(), StreamState::Live);
    QVERIFY(!s.old->aborted);
}

void TestMakeBeforeBreak::replacementTakesOver_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("the old caught up") << QStringLiteral("caught up");
    QTest::newRow("the old closed") << QStringLiteral("old closed");
    QTest::newRow("the overlap limit") << QStringLiteral("overlap limit");
}

void TestMakeBeforeBreak::replacementTakesOver()
{
    QFETCH(QString, how);
    RollingSession s;
    QVERIFY(s.fresh);
    s.old->deliver(s.rig.trade(4));
    s.fresh->up();
    for (int a = 5; a <= 7; ++a)
        s.fresh->deliver(s.rig.trade(a)); // the replacement starts at 5, the old is at 4
    QVERIFY(!s.old->aborted);
    if (how == QLatin1String("caught up")) {
        s.old->deliver(s.rig.trade(5));
    } else if (how == QLatin1String("old closed")) {
        s.old->drop(1001, QStringLiteral("going away"));
    } else {
        s.rig.run(kOverlapMaxMs);
        QVERIFY(!s.old->aborted); // exactly the limit is allowed
        s.rig.run(100);
    }
    QVERIFY(s.old->aborted);
    QVERIFY(!s.fresh->aborted);
    s.fresh->deliver(s.rig.trade(8));
    const StreamSnapshot snap = s.rig.snapshot();
    QCOMPARE(snap.dataMessages, quint64(8)); // trades 1..8, each once
    QCOMPARE(snap.duplicates, quint64(how == QLatin1String("caught up") ? 1 : 0));
    QCOMPARE(snap.rollovers, quint64(1));
    QCOMPARE(snap.reconnects, quint64(0));
    QVERIFY(!snap.rolloverInProgress);
    QCOMPARE(snap.connections.size(), 1);
    QVERIFY(!snap.connections[0].rollover);
    QVERIFY(snap.connections[0].connected);
    QCOMPARE(s.rig.session.state(), StreamState::Live);
    QCOMPARE(s.rig.transports.size(), 2);
}

void TestMakeBeforeBreak::replacementAbandonedOnFailure_data()
{
    QTest::addColumn<QString>("failure");
    QTest::addColumn<QString>("reason"); // in the event that says so
    QTest::newRow("it closes before taking over")
        << QStringLiteral("closes") << QStringLiteral("replacement connection closed: refused (close code 1013)");
    QTest::newRow("it never comes up") << QStringLiteral("never up") << QStringLiteral("connect");
    QTest::newRow("it goes silent") << QStringLiteral("silent") << QStringLiteral("no frame or pong");
}

void TestMakeBeforeBreak::replacementAbandonedOnFailure()
{
    QFETCH(QString, failure);
    QFETCH(QString, reason);
    StreamConfig config = rollingBinanceConfig();
    if (failure == QLatin1String("silent")) { // dead before the overlap limit would switch to it
        config.pingIntervalMs = 500;
        config.pongTimeoutMs = 1500;
    }
    RollingSession s(config);
    QVERIFY(s.fresh);
    if (failure == QLatin1String("closes")) {
        s.fresh->up();
        s.fresh->drop(1013, QStringLiteral("refused"));
    } else if (failure == QLatin1String("never up")) {
        s.rig.run(config.connectTimeoutMs + 100);
    } else {
        s.fresh->up();
        for (int i = 0; i < 17; ++i) { // the old connection answers its pings, the new one does not
            s.rig.run(100);
            s.old->pong();
        }
    }
    QVERIFY(s.fresh->aborted);
    QVERIFY(!s.old->aborted);
    const StreamSnapshot snap = s.rig.snapshot();
    QVERIFY(!snap.rolloverInProgress);
    QCOMPARE(snap.rollovers, quint64(0));
    QCOMPARE(snap.reconnects, quint64(0));
    QCOMPARE(s.rig.session.state(), StreamState::Live);
    const auto abandoned = std::find_if(s.rig.log.events.cbegin(), s.rig.log.events.cend(), [](const StreamEvent &e) {
        return e.text.startsWith(QLatin1String("rollover abandoned, the old connection stays: "));
    });
    QVERIFY(abandoned != s.rig.log.events.cend());
    QVERIFY2(abandoned->text.contains(reason), qPrintable(abandoned->text));
    // The old connection goes on as before.
    s.old->deliver(s.rig.trade(4));
    s.old->deliver(s.rig.trade(5));
    QCOMPARE(s.rig.snapshot().dataMessages, quint64(5));
    QCOMPARE(s.rig.snapshot().duplicates, quint64(0));
}

// The old connection closes while its replacement is still opening: there is nothing to
// take over with, so the stream reconnects as after any drop.
void TestMakeBeforeBreak::oldClosingBeforeTheReplacementIsUpReconnects()
{
    RollingSession s;
    QVERIFY(s.fresh);
    s.old->drop(1006, QStringLiteral("connection lost"));
    QVERIFY(s.fresh->aborted);
    QCOMPARE(s.rig.session.state(), StreamState::Reconnecting);
    const StreamSnapshot snap = s.rig.snapshot();
    QVERIFY(!snap.rolloverInProgress);
    QCOMPARE(snap.rollovers, quint64(0));
    QVERIFY(snap.connections.isEmpty());
}

// A venue that refuses new connections (closes them at once) while the old one serves: the
// replacement is tried again after the reconnect backoff's delays (1 s, 2 s, 4 s, ...
// without jitter), not on every tick.
void TestMakeBeforeBreak::refusedReplacementIsNotRetriedOnEveryTick()
{
    RollingSession s; // reconnect base 1 s
    QVERIFY(s.fresh);
    QList<qint64> attemptsAfterMs;
    const qint64 startMs = s.rig.clock.monotonicMs();
    for (int step = 0; step < 100; ++step) { // 10 s
        FakeTransport *t = s.rig.last();
        if (t != s.old && !t->aborted) {
            attemptsAfterMs << s.rig.clock.monotonicMs() - startMs;
            t->drop(1013, QStringLiteral("try again later"));
        }
        s.rig.run(100);
    }
    QCOMPARE(attemptsAfterMs, (QList<qint64>{0, 1000, 3000, 7000}));
    QVERIFY(!s.old->aborted);
    QCOMPARE(s.rig.session.state(), StreamState::Live);
    QCOMPARE(s.rig.snapshot().reconnects, quint64(0));
}

// The replacement, ahead of the old connection, counted trades 5 and 6 and then closed; the
// old connection stays and delivers them too. Each trade must count once.
void TestMakeBeforeBreak::abandonedReplacementsTradesCountOnce()
{
    RollingSession s;
    QVERIFY(s.fresh);
    s.fresh->up();
    s.fresh->deliver(s.rig.trade(5));
    s.fresh->deliver(s.rig.trade(6));
    s.fresh->drop(1013, QStringLiteral("refused"));
    QVERIFY(!s.rig.snapshot().rolloverInProgress);
    for (int a = 4; a <= 7; ++a)
        s.old->deliver(s.rig.trade(a));
    const StreamSnapshot snap = s.rig.snapshot();
    // The de-duplication table goes with the abandoned replacement, so the old connection's
    // 5 and 6 count again.
    QEXPECT_FAIL("", "an abandoned replacement's trades count again when the old connection delivers them", Continue);
    QCOMPARE(snap.dataMessages, quint64(7)); // trades 1..7
    QEXPECT_FAIL("", "an abandoned replacement's trades count again when the old connection delivers them", Continue);
    QCOMPARE(snap.duplicates, quint64(2));
    QCOMPARE(snap.dataMessages + snap.duplicates, quint64(9)); // every message either counted or dropped
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestMakeBeforeBreak)
#include "tst_makebeforebreak.moc"
