// Each instrument's own cadence (session/InstrumentWatch, docs/freshness.md "Instruments that go
// quiet"), on a clock the test steps by the housekeeping tick's 100 ms: an instrument of a
// combined stream that goes quiet while the others speak is stale past k × its learned gap, and
// clears when it speaks again; a stream that is down or silent as a whole flags none; at most
// kMaxInstruments a stream, by the order books' name rule, the rest counted as untracked.

#include "../common/TestRegistry.h"
#include "session/InstrumentWatch.h"

#include <QtTest/QtTest>

#include <string>

using namespace streamscope;

namespace {

constexpr qint64 kTickMs = 100;

InstrumentStatus statusOf(const InstrumentWatch &w, const QString &name)
{
    for (const InstrumentStatus &s : w.statuses())
        if (s.instrument == name)
            return s;
    return {};
}

// Ticks from `from` (exclusive) to `to`; each of `speaking` speaks every `everyMs`.
qint64 run(InstrumentWatch &w, qint64 from, qint64 to, const QStringList &speaking, qint64 everyMs = 500,
           bool live = true)
{
    qint64 t = from;
    while (t < to) {
        t += kTickMs;
        if (t % everyMs == 0) {
            for (const QString &s : speaking) {
                const QByteArray bytes = s.toLatin1();
                w.onData(std::string_view(bytes.constData(), std::size_t(bytes.size())));
            }
        }
        w.tick(t, live);
    }
    return t;
}

// Three instruments every 500 ms for 10 s: each has learned its gap.
qint64 learned(InstrumentWatch &w)
{
    w.connected(0);
    return run(w, 0, 10000, {QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT"), QStringLiteral("SOLUSDT")});
}

// 4 × the bucket bound of a 500 ms gap (566 ms).
constexpr qint64 kThresholdMs = 2264;

} // namespace

class TestInstrumentWatch : public QObject {
    Q_OBJECT
private slots:
    void learnsEachInstrumentsCadence();
    void quietInstrumentIsStaleAndClears();
    void notStaleWhileTheStreamIsDown();
    void notStaleWhenTheWholeStreamIsSilent();
    void silentAfterReconnectIsStale();
    void boundedAndNamed();
    void namesDifferingInOneByte();
    void batchesAndKeysAreTheirOwn();
};

void TestInstrumentWatch::learnsEachInstrumentsCadence()
{
    InstrumentWatch w;
    w.connected(0);
    run(w, 0, 600, {QStringLiteral("BTCUSDT")});
    QCOMPARE(statusOf(w, QStringLiteral("BTCUSDT")).usualGapMs, qint64(-1)); // one message: nothing learned
    learned(w);
    QCOMPARE(w.size(), 3);
    const InstrumentStatus btc = statusOf(w, QStringLiteral("BTCUSDT"));
    QCOMPARE(btc.usualGapMs, qint64(566));
    QCOMPARE(btc.messages, quint64(21)); // one before, 20 in learned()
    QCOMPARE(statusOf(w, QStringLiteral("SOLUSDT")).messages, quint64(20));
    QVERIFY(!btc.stale);
}

void TestInstrumentWatch::quietInstrumentIsStaleAndClears()
{
    InstrumentWatch w;
    qint64 t = learned(w);
    const QStringList twoOfThree{QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT")};
    // SOL's last message was at t; at k × its gap it is not yet stale, just past it it is.
    t = run(w, t, t + kThresholdMs - 64, twoOfThree);
    QVERIFY(!statusOf(w, QStringLiteral("SOLUSDT")).stale);
    QVERIFY(w.changes().empty());
    t = run(w, t, t + 200, twoOfThree);
    const InstrumentStatus sol = statusOf(w, QStringLiteral("SOLUSDT"));
    QVERIFY(sol.stale);
    QCOMPARE(sol.staleEpisodes, quint64(1));
    QVERIFY(!statusOf(w, QStringLiteral("BTCUSDT")).stale);
    QVERIFY(!statusOf(w, QStringLiteral("ETHUSDT")).stale);
    // Stays stale, one episode, while it is quiet.
    t = run(w, t, t + 5000, twoOfThree);
    QVERIFY(statusOf(w, QStringLiteral("SOLUSDT")).stale);
    QCOMPARE(statusOf(w, QStringLiteral("SOLUSDT")).staleEpisodes, quint64(1));
    // It speaks: clear at that tick, and the change says so.
    w.onData("SOLUSDT");
    t += kTickMs;
    QVERIFY(w.tick(t, true));
    QCOMPARE(w.changes().size(), std::size_t(1));
    QVERIFY(!w.changes().front().stale);
    QCOMPARE(w.changes().front().silentMs, qint64(0));
    QVERIFY(!statusOf(w, QStringLiteral("SOLUSDT")).stale);
    // The long silence was not learned as a usual gap.
    QCOMPARE(statusOf(w, QStringLiteral("SOLUSDT")).usualGapMs, qint64(566));
    // A second silence is a second episode.
    t = run(w, t, t + 1000, {QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT"), QStringLiteral("SOLUSDT")});
    t = run(w, t, t + 3000, twoOfThree);
    QVERIFY(statusOf(w, QStringLiteral("SOLUSDT")).stale);
    QCOMPARE(statusOf(w, QStringLiteral("SOLUSDT")).staleEpisodes, quint64(2));
}

void TestInstrumentWatch::notStaleWhileTheStreamIsDown()
{
    InstrumentWatch w;
    qint64 t = learned(w);
    const QStringList twoOfThree{QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT")};
    // The connection went (the stream reconnecting, stalled or stopped): nothing is stale.
    t = run(w, t, t + 4000, twoOfThree, 500, false);
    QVERIFY(!statusOf(w, QStringLiteral("SOLUSDT")).stale);
    QCOMPARE(statusOf(w, QStringLiteral("SOLUSDT")).staleEpisodes, quint64(0));
    // A stale instrument whose stream goes down is no longer flagged.
    t = run(w, t, t + 100, twoOfThree, 500, true);
    QVERIFY(statusOf(w, QStringLiteral("SOLUSDT")).stale);
    t = run(w, t, t + 100, twoOfThree, 500, false);
    QVERIFY(!statusOf(w, QStringLiteral("SOLUSDT")).stale);
    QCOMPARE(w.changes().size(), std::size_t(1));
    QVERIFY(w.changes().front().silentMs > 0); // not "speaks again"
    // The stream back, the same silence: stale again, still one episode.
    t = run(w, t, t + 100, twoOfThree, 500, true);
    QVERIFY(statusOf(w, QStringLiteral("SOLUSDT")).stale);
    QCOMPARE(statusOf(w, QStringLiteral("SOLUSDT")).staleEpisodes, quint64(1));
}

void TestInstrumentWatch::notStaleWhenTheWholeStreamIsSilent()
{
    InstrumentWatch w;
    qint64 t = learned(w);
    // Every instrument stops at once: the stream's own silence, not an instrument's.
    t = run(w, t, t + 10000, {});
    for (const InstrumentStatus &s : w.statuses())
        QVERIFY2(!s.stale, qPrintable(s.instrument));
    // One of them is back: the others, silent past their threshold, are now stale.
    t = run(w, t, t + 500, {QStringLiteral("BTCUSDT")});
    QVERIFY(!statusOf(w, QStringLiteral("BTCUSDT")).stale);
    QVERIFY(statusOf(w, QStringLiteral("ETHUSDT")).stale);
    QVERIFY(statusOf(w, QStringLiteral("SOLUSDT")).stale);
}

void TestInstrumentWatch::silentAfterReconnectIsStale()
{
    InstrumentWatch w;
    qint64 t = learned(w);
    // Reconnected; two come back, one never does: its silence counts from the connection.
    w.connected(t);
    const QStringList twoOfThree{QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT")};
    const qint64 up = t;
    t = run(w, t, up + kThresholdMs - 64, twoOfThree);
    QVERIFY(!statusOf(w, QStringLiteral("SOLUSDT")).stale);
    t = run(w, t, up + kThresholdMs + 200, twoOfThree);
    QVERIFY(statusOf(w, QStringLiteral("SOLUSDT")).stale);
    QVERIFY(!statusOf(w, QStringLiteral("BTCUSDT")).stale);
}

// Every length a name may have, differing from another of that length in any one byte: found
// as itself, whether the instruments are few (compared one by one) or many (hashed).
void TestInstrumentWatch::namesDifferingInOneByte()
{
    for (const int others : {0, 12}) {
        for (int n = 1; n <= kMaxInstrumentChars; ++n) {
            for (int at = 0; at < n; ++at) {
                InstrumentWatch w;
                w.connected(0);
                for (int i = 0; i < others; ++i)
                    w.onData("OTHER" + std::to_string(i));
                const std::string a(std::size_t(n), 'A');
                std::string b = a;
                b[std::size_t(at)] = 'B';
                w.onData(a);
                w.onData(b);
                w.onData(b);
                w.onData(a + "A"); // one longer (not taken past the longest name)
                QCOMPARE(w.size(), others + (n < kMaxInstrumentChars ? 3 : 2));
                QVERIFY(w.tick(100, true));
                QCOMPARE(statusOf(w, QString::fromStdString(a)).messages, quint64(1));
                QCOMPARE(statusOf(w, QString::fromStdString(b)).messages, quint64(2));
            }
        }
    }
}

void TestInstrumentWatch::boundedAndNamed()
{
    InstrumentWatch w;
    w.connected(0);
    for (int i = 0; i < kMaxInstruments + 10; ++i) {
        const std::string name = "SYM" + std::to_string(i);
        w.onData(name);
    }
    QCOMPARE(w.size(), kMaxInstruments);
    QCOMPARE(w.untracked(), quint64(10));
    // A known one still counts when the table is full.
    w.onData("SYM0");
    QVERIFY(w.tick(100, true));
    QCOMPARE(w.statuses().first().messages, quint64(2));

    InstrumentWatch names;
    names.onData(std::string(kMaxInstrumentChars + 1, 'A')); // too long
    names.onData("BTC USDT");                                // a space
    names.onData("BTC\"}");                                  // what a label could not hold
    names.onData(std::string(kMaxInstrumentChars, 'A'));     // the longest taken
    names.onData("BTC-USDT-SWAP");
    names.onData("PI_XBTUSD:1/x.y");
    QCOMPARE(names.size(), 3);
    QCOMPARE(names.untracked(), quint64(3));
}

void TestInstrumentWatch::batchesAndKeysAreTheirOwn()
{
    // The symbol is a view into the message, which the next one overwrites: the key is a copy.
    InstrumentWatch w;
    char buffer[8] = "BTCUSDT";
    w.onData(std::string_view(buffer, 7));
    std::memcpy(buffer, "ETHUSDT", 7);
    w.onData(std::string_view(buffer, 7));
    w.onData(std::string_view(buffer, 7));
    w.tick(100, true);
    QCOMPARE(w.size(), 2);
    QCOMPARE(statusOf(w, QStringLiteral("BTCUSDT")).messages, quint64(1));
    QCOMPARE(statusOf(w, QStringLiteral("ETHUSDT")).messages, quint64(2));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestInstrumentWatch)
#include "tst_instrumentwatch.moc"
