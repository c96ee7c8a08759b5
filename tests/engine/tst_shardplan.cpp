// ShardPlan: subscriptions spread over connections of limited size, the first connection
// also carrying the streams its URL names.

#include "../common/TestRegistry.h"
#include "session/ShardPlan.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestShardPlan : public QObject {
    Q_OBJECT
private slots:
    void split_data();
    void split();
    void room_data();
    void room();
};

namespace {
QStringList names(int from, int count)
{
    QStringList out;
    for (int i = from; i < from + count; ++i)
        out << QStringLiteral("s%1@trade").arg(i);
    return out;
}
} // namespace

void TestShardPlan::split_data()
{
    QTest::addColumn<int>("subscriptions");
    QTest::addColumn<int>("perConnection");
    QTest::addColumn<int>("namedInUrl");
    QTest::addColumn<QList<int>>("sizes");
    QTest::newRow("unlimited") << 5000 << 0 << 3 << QList<int>{5000};
    QTest::newRow("none") << 0 << 1024 << 1 << QList<int>{0};
    QTest::newRow("fits one") << 1000 << 1024 << 24 << QList<int>{1000};
    QTest::newRow("one past") << 1001 << 1024 << 24 << QList<int>{1000, 1};
    QTest::newRow("three connections") << 2500 << 1024 << 0 << QList<int>{1024, 1024, 452};
    QTest::newRow("URL fills the first") << 3 << 2 << 2 << QList<int>{0, 2, 1};
}

void TestShardPlan::split()
{
    QFETCH(int, subscriptions);
    QFETCH(int, perConnection);
    QFETCH(int, namedInUrl);
    QFETCH(QList<int>, sizes);
    const QStringList all = names(0, subscriptions);
    const QList<QStringList> shards = ShardPlan::split(all, perConnection, namedInUrl);
    QList<int> got;
    QStringList joined;
    for (const QStringList &s : shards) {
        got << int(s.size());
        joined << s;
    }
    QCOMPARE(got, sizes);
    QCOMPARE(joined, all); // every stream once, in order
}

void TestShardPlan::room_data()
{
    QTest::addColumn<int>("perConnection");
    QTest::addColumn<int>("shard");
    QTest::addColumn<int>("carried");
    QTest::addColumn<int>("namedInUrl");
    QTest::addColumn<int>("room");
    QTest::newRow("unlimited: what is wanted") << 0 << 0 << 900 << 5 << 7;
    QTest::newRow("first shard counts the URL") << 1024 << 0 << 1000 << 4 << 20;
    QTest::newRow("other shards do not") << 1024 << 1 << 1000 << 4 << 24;
    QTest::newRow("full") << 1024 << 1 << 1024 << 0 << 0;
}

void TestShardPlan::room()
{
    QFETCH(int, perConnection);
    QFETCH(int, shard);
    QFETCH(int, carried);
    QFETCH(int, namedInUrl);
    QFETCH(int, room);
    QCOMPARE(ShardPlan::room(perConnection, shard, carried, namedInUrl, 7), room);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestShardPlan)
#include "tst_shardplan.moc"
