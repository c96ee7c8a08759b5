// Who keeps a slot of the metrics endpoint (ConnectionSlots), without a network: connections
// from peers A, B, C... come, become busy (a request arrived whole), go; each row says which
// connection must be closed next, if any. Small shares make the rows short: 8 slots, 6 of them
// for waiting connections, 4 waiting and 6 in all per peer.

#include "../common/TestRegistry.h"
#include "ConnectionSlots.h"

#include <QtTest/QtTest>

using streamscope::app::ConnectionSlots;
using streamscope::app::HttpServerLimits;

class TestConnectionSlots : public QObject {
    Q_OBJECT
private slots:
    void toClose_data();
    void toClose();
    void closingTheChosenOneSettlesIt();
};

namespace {

HttpServerLimits smallShares()
{
    HttpServerLimits limits;
    limits.maxConnections = 8;
    limits.maxWaitingConnections = 6;
    limits.maxWaitingPerPeer = 4;
    limits.maxConnectionsPerPeer = 6;
    return limits;
}

// Steps: "+A" a connection from peer A (ids count from 1), "b3" connection 3 busy, "w3" waiting
// again, "-3" connection 3 gone.
void run(ConnectionSlots &table, const QStringList &steps)
{
    ConnectionSlots::Id next = 1;
    for (const QString &step : steps) {
        const QChar op = step.at(0);
        const QString arg = step.mid(1);
        if (op == QLatin1Char('+'))
            table.add(next++, arg.toLatin1());
        else if (op == QLatin1Char('b'))
            table.setBusy(arg.toULongLong(), true);
        else if (op == QLatin1Char('w'))
            table.setBusy(arg.toULongLong(), false);
        else if (op == QLatin1Char('-'))
            table.remove(arg.toULongLong());
        else
            QFAIL(qPrintable(QStringLiteral("bad step ") + step));
    }
}

QStringList repeat(const QString &step, int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i)
        out << step;
    return out;
}

} // namespace

void TestConnectionSlots::toClose_data()
{
    QTest::addColumn<QStringList>("steps");
    QTest::addColumn<int>("expected"); // 0: none
    QTest::newRow("within every share") << repeat(QStringLiteral("+A"), 4) << 0;
    QTest::newRow("one peer over its waiting share: its oldest") << repeat(QStringLiteral("+A"), 5) << 1;
    QTest::newRow("its oldest waiting, not its busy one")
        << (QStringList{QStringLiteral("+A"), QStringLiteral("b1")} + repeat(QStringLiteral("+A"), 5)) << 2;
    QTest::newRow("a busy connection frees a waiting share")
        << (repeat(QStringLiteral("+A"), 5) + QStringList{QStringLiteral("b1")}) << 0;
    QTest::newRow("waiting again after its answer: the oldest goes")
        << (repeat(QStringLiteral("+A"), 5) + QStringList{QStringLiteral("b1"), QStringLiteral("w1")}) << 1;
    QTest::newRow("other peers within the waiting share")
        << (repeat(QStringLiteral("+A"), 4) + repeat(QStringLiteral("+B"), 2)) << 0;
    QTest::newRow("waiting share full: the peer that waits with the most gives")
        << (repeat(QStringLiteral("+B"), 2) + repeat(QStringLiteral("+A"), 4) + QStringList{QStringLiteral("+C")}) << 3;
    QTest::newRow("equal peers: the oldest connection goes")
        << (repeat(QStringLiteral("+A"), 3) + repeat(QStringLiteral("+B"), 3) + QStringList{QStringLiteral("+C")}) << 1;
    QTest::newRow("the quarter kept for requests")
        << (repeat(QStringLiteral("+A"), 2) + QStringList{QStringLiteral("b1"), QStringLiteral("b2")}
            + repeat(QStringLiteral("+B"), 3) + repeat(QStringLiteral("+C"), 3))
        << 0;
    QTest::newRow("a peer over its share in all: its newest when all of its are busy")
        << QStringList{QStringLiteral("+A"), QStringLiteral("b1"), QStringLiteral("+A"), QStringLiteral("b2"),
                       QStringLiteral("+A"), QStringLiteral("b3"), QStringLiteral("+A"), QStringLiteral("b4"),
                       QStringLiteral("+A"), QStringLiteral("b5"), QStringLiteral("+A"), QStringLiteral("b6"),
                       QStringLiteral("+A"), QStringLiteral("b7")}
        << 7;
    QTest::newRow("a peer over its share in all: its oldest waiting")
        << QStringList{QStringLiteral("+A"), QStringLiteral("b1"), QStringLiteral("+A"), QStringLiteral("b2"),
                       QStringLiteral("+A"), QStringLiteral("b3"), QStringLiteral("+A"), QStringLiteral("b4"),
                       QStringLiteral("+A"), QStringLiteral("+A"), QStringLiteral("+A")}
        << 5;
    QTest::newRow("every slot busy: the newcomer goes") << QStringList{
        QStringLiteral("+A"), QStringLiteral("b1"), QStringLiteral("+B"), QStringLiteral("b2"), QStringLiteral("+C"),
        QStringLiteral("b3"), QStringLiteral("+D"), QStringLiteral("b4"), QStringLiteral("+E"), QStringLiteral("b5"),
        QStringLiteral("+F"), QStringLiteral("b6"), QStringLiteral("+G"), QStringLiteral("b7"), QStringLiteral("+H"),
        QStringLiteral("b8"), QStringLiteral("+I")} << 9;
    QTest::newRow("a gone connection counts no more")
        << (repeat(QStringLiteral("+A"), 5) + QStringList{QStringLiteral("-3")}) << 0;
}

void TestConnectionSlots::toClose()
{
    QFETCH(QStringList, steps);
    QFETCH(int, expected);
    ConnectionSlots table(smallShares());
    run(table, steps);
    QCOMPARE(table.toClose(), ConnectionSlots::Id(expected));
}

// What the server does: close the one named until none is; the rest stay within every share.
void TestConnectionSlots::closingTheChosenOneSettlesIt()
{
    ConnectionSlots table(smallShares());
    run(table, repeat(QStringLiteral("+A"), 20) + repeat(QStringLiteral("+B"), 3));
    QList<ConnectionSlots::Id> closed;
    while (const ConnectionSlots::Id id = table.toClose()) {
        closed << id;
        table.remove(id);
    }
    // A keeps its 3 newest (B's 3 fill the waiting share); B keeps all of its own.
    QCOMPARE(closed.size(), 17);
    for (ConnectionSlots::Id id = 1; id <= 17; ++id)
        QVERIFY2(closed.contains(id), qPrintable(QString::number(id)));
    QCOMPARE(table.size(), 6);
    QCOMPARE(table.waiting(), 6);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestConnectionSlots)
#include "tst_connectionslots.moc"
