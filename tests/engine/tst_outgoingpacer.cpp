// OutgoingPacer: messages in order, at most limit − 1 within the 1.1 s window (one slot a
// second kept for pongs), pings counted, a send that fails leaves the message queued.

#include "../common/TestRegistry.h"
#include "session/OutgoingPacer.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestOutgoingPacer : public QObject {
    Q_OBJECT
private slots:
    void unpacedSendsEverything();
    void pacedKeepsOneSlotFree_data();
    void pacedKeepsOneSlotFree();
    void pingsTakeASlot();
    void failedSendKeepsTheMessage();
    void limitBelowTwoStillSends();
};

namespace {
// Sends `count` messages, returns what went out.
QStringList sendAll(OutgoingPacer &p, int count, qint64 nowMs, qint64 *wait)
{
    QStringList out;
    for (int i = 0; i < count; ++i)
        p.enqueue(QStringLiteral("m%1").arg(i));
    *wait = p.flush(nowMs, [&out](const QString &t) {
        out << t;
        return true;
    });
    return out;
}
} // namespace

void TestOutgoingPacer::unpacedSendsEverything()
{
    OutgoingPacer p;
    qint64 wait = -1;
    const QStringList out = sendAll(p, 50, 0, &wait);
    QCOMPARE(out.size(), 50);
    QCOMPARE(out.first(), QStringLiteral("m0"));
    QCOMPARE(out.last(), QStringLiteral("m49"));
    QCOMPARE(wait, qint64(0));
    QCOMPARE(p.queued(), 0);
    QCOMPARE(p.sentInWindow(), 0);
}

void TestOutgoingPacer::pacedKeepsOneSlotFree_data()
{
    QTest::addColumn<int>("limit");
    QTest::addColumn<int>("firstBurst");
    QTest::newRow("Binance spot, 5 a second") << 5 << 4;
    QTest::newRow("Binance futures, 10 a second") << 10 << 9;
}

void TestOutgoingPacer::pacedKeepsOneSlotFree()
{
    QFETCH(int, limit);
    QFETCH(int, firstBurst);
    OutgoingPacer p;
    p.setLimit(limit);
    qint64 wait = 0;
    QStringList out = sendAll(p, 2 * firstBurst + 1, 1000, &wait);
    QCOMPARE(out.size(), firstBurst);
    QCOMPARE(wait, OutgoingPacer::kWindowMs);
    QCOMPARE(p.queued(), firstBurst + 1);
    QCOMPARE(p.sentInWindow(), firstBurst);
    // Just before the window has passed nothing more goes; at its end the next burst does.
    const auto collect = [&out](const QString &t) {
        out << t;
        return true;
    };
    QCOMPARE(p.flush(1000 + OutgoingPacer::kWindowMs - 1, collect), qint64(1));
    QCOMPARE(out.size(), firstBurst);
    QCOMPARE(p.flush(1000 + OutgoingPacer::kWindowMs, collect), OutgoingPacer::kWindowMs);
    QCOMPARE(out.size(), 2 * firstBurst);
    QCOMPARE(out.at(firstBurst), QStringLiteral("m%1").arg(firstBurst)); // in order
}

void TestOutgoingPacer::pingsTakeASlot()
{
    OutgoingPacer p;
    p.setLimit(5);
    p.notePing(0);
    p.notePing(0);
    qint64 wait = 0;
    QCOMPARE(sendAll(p, 5, 0, &wait).size(), 2);
    QCOMPARE(p.sentInWindow(), 4);
}

void TestOutgoingPacer::failedSendKeepsTheMessage()
{
    OutgoingPacer p;
    p.enqueue(QStringLiteral("a"));
    p.enqueue(QStringLiteral("b"));
    int calls = 0;
    QCOMPARE(p.flush(0, [&calls](const QString &) { return ++calls < 2; }), qint64(0));
    QCOMPARE(calls, 2);
    QCOMPARE(p.queued(), 1); // "b" was not taken
}

void TestOutgoingPacer::limitBelowTwoStillSends()
{
    OutgoingPacer p;
    p.setLimit(1); // taken as 2: one message a window, one slot kept free
    qint64 wait = 0;
    QCOMPARE(sendAll(p, 3, 0, &wait).size(), 1);
    QCOMPARE(wait, OutgoingPacer::kWindowMs);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestOutgoingPacer)
#include "tst_outgoingpacer.moc"
