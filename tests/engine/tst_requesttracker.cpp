// RequestTracker: a response is matched to its request once, by id, with the method and
// the round trip in ms; unknown and empty ids stay unmatched; the table is bounded.

#include "../common/TestRegistry.h"
#include "session/RequestTracker.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestRequestTracker : public QObject {
    Q_OBJECT
private slots:
    void matchesOnceWithRoundTrip();
    void unknownIdsStayUnmatched_data();
    void unknownIdsStayUnmatched();
    void oldestForgottenPastTheBound();
};

namespace {
ResponseRecord response(const QString &id)
{
    ResponseRecord r;
    r.requestId = id;
    return r;
}
} // namespace

void TestRequestTracker::matchesOnceWithRoundTrip()
{
    RequestTracker t;
    t.track(QStringLiteral("7"), QStringLiteral("SUBSCRIBE"), 1'000'000);
    ResponseRecord r = response(QStringLiteral("7"));
    t.match(r, 1'000'003);
    QCOMPARE(r.method, QStringLiteral("SUBSCRIBE"));
    QCOMPARE(r.roundTripMs, qint64(3));
    ResponseRecord again = response(QStringLiteral("7"));
    t.match(again, 1'010'000);
    QVERIFY(again.method.isEmpty());
    QCOMPARE(again.roundTripMs, qint64(-1));
}

void TestRequestTracker::unknownIdsStayUnmatched_data()
{
    QTest::addColumn<QString>("id");
    QTest::newRow("another id") << QStringLiteral("8");
    QTest::newRow("no id") << QString();
    QTest::newRow("a UUID nobody sent") << QStringLiteral("3f2b8c1e-0000-4000-8000-000000000000");
}

void TestRequestTracker::unknownIdsStayUnmatched()
{
    QFETCH(QString, id);
    RequestTracker t;
    t.track(QStringLiteral("7"), QStringLiteral("SUBSCRIBE"), 0);
    ResponseRecord r = response(id);
    t.match(r, 5000);
    QVERIFY(r.method.isEmpty());
    QCOMPARE(r.roundTripMs, qint64(-1));
}

void TestRequestTracker::oldestForgottenPastTheBound()
{
    RequestTracker t;
    for (int i = 0; i <= RequestTracker::kMaxPending; ++i)
        t.track(QString::number(i), QStringLiteral("M%1").arg(i), i);
    ResponseRecord first = response(QStringLiteral("0"));
    t.match(first, 1'000'000);
    QVERIFY(first.method.isEmpty()); // the oldest made room
    ResponseRecord second = response(QStringLiteral("1"));
    t.match(second, 1'000'000);
    QCOMPARE(second.method, QStringLiteral("M1"));
    const QString lastId = QString::number(RequestTracker::kMaxPending);
    ResponseRecord last = response(lastId);
    t.match(last, 1'000'000);
    QCOMPARE(last.method, QStringLiteral("M%1").arg(lastId));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestRequestTracker)
#include "tst_requesttracker.moc"
