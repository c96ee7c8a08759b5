// ConnectionGroup alone: the connections of one stream, built by hand with fake transports.
// Finding a connection, retiring one (dropped at once, freed only on the next tick, so that a
// transport whose own signal retired it returns safely), which connection takes new streams
// and which gives them up, and what the group reports over several shards.

#include "../common/SessionRig.h"
#include "../common/TestRegistry.h"
#include "protocol/ReceiveBuffer.h"
#include "session/ConnectionGroup.h"

#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

StreamConfig binanceConfigWithSecrets()
{
    StreamConfig c;
    c.name = QStringLiteral("group");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://user:s3cret@127.0.0.1:9/stream?streams=btcusdt@aggTrade&token=t0ken"));
    return c;
}

// A group filled from a layout: one token per connection, in order, "<shard>[r][+]:<streams>"
// where "r" marks a rollover's replacement, "+" a connection that is up, and the streams are
// comma-separated ("0+:a,b 0r:a,b 1:c").
struct Fixture {
    Fixture() = default;
    explicit Fixture(const QString &layout)
    {
        for (const QString &token : layout.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString spec = token.section(QLatin1Char(':'), 0, 0);
            const QString streams = token.section(QLatin1Char(':'), 1);
            add(spec.left(1).toInt(), spec.contains(QLatin1Char('r')),
                streams.split(QLatin1Char(','), Qt::SkipEmptyParts), spec.contains(QLatin1Char('+')));
        }
    }
    ~Fixture()
    {
        group.retireAll();
        group.freeRetired();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }

    // Built as the session builds a connection: its own config, a transport that refers to it.
    Link &add(int shard, bool rollover = false, const QStringList &streams = {}, bool active = false)
    {
        auto link = std::make_unique<Link>(nullptr, group.nextId(), shard, rollover);
        link->config = binanceConfigWithSecrets();
        link->streams = streams;
        link->active = active;
        link->connectedWallMs = active ? 1'780'000'000'000 + shard : 0;
        auto *t = new FakeTransport(link->config, buffer, *link);
        link->transport = t;
        transports << t;
        link->outboxTimer = new QTimer;
        return group.add(std::move(link));
    }
    int indexOf(const Link *l) const
    {
        const auto &links = group.links();
        for (std::size_t i = 0; i < links.size(); ++i)
            if (links[i].get() == l)
                return int(i);
        return -1;
    }
    // The layout's streams as they are now: "0:a,b 1:" (shard and streams only).
    QString streamsLayout() const
    {
        QStringList out;
        for (const auto &l : group.links())
            out << QStringLiteral("%1%2:%3")
                       .arg(l->shard)
                       .arg(l->rollover ? QStringLiteral("r") : QString())
                       .arg(l->streams.join(QLatin1Char(',')));
        return out.join(QLatin1Char(' '));
    }

    ReceiveBuffer buffer;  // what the fake transports would fill; no message goes through here
    ConnectionGroup group; // after the buffer: its links go first
    QList<QPointer<FakeTransport>> transports;
};

QStringList list(const QString &commaSeparated)
{
    return commaSeparated.split(QLatin1Char(','), Qt::SkipEmptyParts);
}

} // namespace

class TestConnectionGroup : public QObject {
    Q_OBJECT
private slots:
    void findsConnectionsById();
    void retireDropsAtOnceAndFreesOnNextTick();
    void retireFromInsideTheTransportsOwnSignal();
    void retireAllDropsEveryConnection();
    void servingSkipsAReplacement_data();
    void servingSkipsAReplacement();
    void nextShardFollowsTheHighest_data();
    void nextShardFollowsTheHighest();
    void withRoomPicksTheConnectionForNewStreams_data();
    void withRoomPicksTheConnectionForNewStreams();
    void takeStreamsFromTheConnectionsCarryingThem_data();
    void takeStreamsFromTheConnectionsCarryingThem();
    void countsOverSeveralShards();
};

void TestConnectionGroup::findsConnectionsById()
{
    Fixture f;
    QVERIFY(f.group.empty());
    Link &a = f.add(0);
    Link &b = f.add(1);
    Link &c = f.add(0, true);
    QCOMPARE(f.group.size(), std::size_t(3));
    QVERIFY(a.id != b.id && b.id != c.id && a.id != c.id);
    QCOMPARE(f.group.byId(a.id), &a);
    QCOMPARE(f.group.byId(b.id), &b);
    QCOMPARE(f.group.byId(c.id), &c);
    QCOMPARE(f.group.byId(0), nullptr);
    QCOMPARE(f.group.byId(c.id + 1), nullptr);
    const int retiredId = b.id;
    f.group.retire(&b);
    QCOMPARE(f.group.byId(retiredId), nullptr);
    QCOMPARE(f.group.byId(a.id), &a);
    QCOMPARE(f.group.byId(c.id), &c);
    // An id is never handed out twice, not even a retired one's: a late signal of an old
    // connection cannot be taken for a new one's.
    Link &d = f.add(1);
    QVERIFY(d.id != a.id && d.id != retiredId && d.id != c.id);
    QCOMPARE(f.group.byId(d.id), &d);
}

void TestConnectionGroup::retireDropsAtOnceAndFreesOnNextTick()
{
    Fixture f;
    Link &keep = f.add(0, false, list(QStringLiteral("a")), true);
    Link &gone = f.add(1, false, list(QStringLiteral("b")), true);
    const QPointer<FakeTransport> transport = f.transports.at(1);
    const QPointer<QTimer> outboxTimer = gone.outboxTimer; // owned by the link: gone with it
    outboxTimer->start(60000);
    int signalsSeen = 0;
    QObject session; // stands for the session's connections to the transport
    connect(transport, &Transport::disconnected, &session, [&signalsSeen] { ++signalsSeen; });
    connect(transport, &Transport::connected, &session, [&signalsSeen] { ++signalsSeen; });

    f.group.retire(&gone);

    // Dropped at once: aborted, inactive, its paced queue no longer wakes, out of the group.
    QVERIFY(transport && transport->aborted);
    QCOMPARE(gone.transport, nullptr);
    QVERIFY(!gone.active);
    QVERIFY(outboxTimer && !outboxTimer->isActive());
    QCOMPARE(f.group.size(), std::size_t(1));
    QCOMPARE(f.group.links().front().get(), &keep);
    // No signal of the retired transport reaches the session any more.
    transport->drop(1006, QStringLiteral("late"));
    transport->up();
    QCOMPARE(signalsSeen, 0);

    // Still there until the next tick: what holds a reference to it (the transport refers
    // to its config) is still valid.
    QCOMPARE(gone.streams, list(QStringLiteral("b")));
    QVERIFY(outboxTimer);
    f.group.freeRetired();
    QVERIFY(!outboxTimer); // the link is freed
    // The transport is deleted later, from the event loop, never under its own feet.
    QVERIFY(transport);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QVERIFY(!transport);
    QVERIFY(keep.transport && !f.transports.at(0)->aborted);
}

// A transport's signal (a close, a timeout) makes the session retire that very connection:
// when the handler returns, the emit returns into the transport and the link, which must
// both still be there.
void TestConnectionGroup::retireFromInsideTheTransportsOwnSignal()
{
    Fixture f;
    Link &link = f.add(0, false, list(QStringLiteral("a,b")), true);
    const QPointer<FakeTransport> transport = f.transports.at(0);
    const QPointer<QTimer> outboxTimer = link.outboxTimer;
    QString urlAfterRetire;
    QObject session;
    connect(transport, &Transport::disconnected, &session, [&] {
        f.group.retire(&link);
        urlAfterRetire = link.config.url.toString(); // the link outlives the retire
    });
    transport->drop(1006, QStringLiteral("gone"));
    QCOMPARE(urlAfterRetire, binanceConfigWithSecrets().url.toString());
    QVERIFY(transport && transport->aborted);
    QVERIFY(outboxTimer);
    QVERIFY(f.group.empty());
    f.group.freeRetired();
    QVERIFY(!outboxTimer);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QVERIFY(!transport);
}

void TestConnectionGroup::retireAllDropsEveryConnection()
{
    Fixture f(QStringLiteral("0+:a 1+:b 2:c 0r:a"));
    QList<QPointer<QTimer>> timers;
    for (const auto &l : f.group.links())
        timers << l->outboxTimer;
    QVERIFY(f.group.anyActive());
    f.group.retireAll();
    QVERIFY(f.group.empty());
    QCOMPARE(f.group.size(), std::size_t(0));
    QVERIFY(!f.group.anyActive());
    QCOMPARE(f.group.nextShard(), 0);
    QVERIFY(f.group.describe().isEmpty());
    for (const QPointer<FakeTransport> &t : std::as_const(f.transports))
        QVERIFY(t && t->aborted);
    for (const QPointer<QTimer> &t : std::as_const(timers))
        QVERIFY(t);
    f.group.freeRetired();
    for (const QPointer<QTimer> &t : std::as_const(timers))
        QVERIFY(!t);
    // Ids go on after a reconnect (a retireAll) as before.
    QCOMPARE(f.group.nextId(), 5);
}

void TestConnectionGroup::servingSkipsAReplacement_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("shard");
    QTest::addColumn<int>("expected"); // index in the layout; -1: none

    QTest::newRow("one connection per shard") << QStringLiteral("0: 1: 2:") << 1 << 1;
    QTest::newRow("replacement opening beside the old") << QStringLiteral("0: 0r:") << 0 << 0;
    QTest::newRow("replacement listed before the old") << QStringLiteral("1: 0r: 0:") << 0 << 2;
    QTest::newRow("only a replacement for that shard") << QStringLiteral("0: 1r:") << 1 << -1;
    QTest::newRow("no such shard") << QStringLiteral("0: 1:") << 2 << -1;
    QTest::newRow("empty group") << QStringLiteral("") << 0 << -1;
}

void TestConnectionGroup::servingSkipsAReplacement()
{
    QFETCH(QString, layout);
    QFETCH(int, shard);
    QFETCH(int, expected);
    Fixture f(layout);
    QCOMPARE(f.indexOf(f.group.serving(shard)), expected);
}

void TestConnectionGroup::nextShardFollowsTheHighest_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("expected");

    QTest::newRow("empty group") << QStringLiteral("") << 0;
    QTest::newRow("one connection") << QStringLiteral("0:") << 1;
    QTest::newRow("three shards") << QStringLiteral("0: 1: 2:") << 3;
    QTest::newRow("a shard retired in the middle is not reused") << QStringLiteral("0: 2:") << 3;
    QTest::newRow("a replacement is no new shard") << QStringLiteral("0: 1: 1r:") << 2;
}

void TestConnectionGroup::nextShardFollowsTheHighest()
{
    QFETCH(QString, layout);
    QFETCH(int, expected);
    Fixture f(layout);
    QCOMPARE(f.group.nextShard(), expected);
}

void TestConnectionGroup::withRoomPicksTheConnectionForNewStreams_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("perConnection"); // 0: unlimited
    QTest::addColumn<int>("namedInUrl");    // streams the URL names, carried by shard 0
    QTest::addColumn<int>("wanted");
    QTest::addColumn<int>("expected"); // index in the layout; -1: a new connection must open
    QTest::addColumn<int>("room");

    QTest::newRow("first connection has room for some") << QStringLiteral("0:a,b") << 5 << 1 << 4 << 0 << 2;
    QTest::newRow("first connection has room for all") << QStringLiteral("0:a") << 5 << 1 << 2 << 0 << 2;
    QTest::newRow("the URL's streams fill the first") << QStringLiteral("0:a,b,c 1:d") << 4 << 1 << 2 << 1 << 2;
    QTest::newRow("URL streams count on shard 0 only") << QStringLiteral("0:a 1:b,c") << 3 << 2 << 5 << 1 << 1;
    QTest::newRow("all full: a new connection takes one's worth")
        << QStringLiteral("0:a,b,c 1:d,e,f,g") << 4 << 1 << 10 << -1 << 4;
    QTest::newRow("all full: a new connection takes all wanted")
        << QStringLiteral("0:a,b,c 1:d,e,f,g") << 4 << 1 << 3 << -1 << 3;
    QTest::newRow("over-full connection has no room") << QStringLiteral("0:a,b,c,d,e") << 4 << 2 << 1 << -1 << 1;
    QTest::newRow("a replacement takes none") << QStringLiteral("0r: 0:a,b,c,d 1:e") << 4 << 0 << 3 << 2 << 3;
    QTest::newRow("unlimited: the first takes all") << QStringLiteral("0:a,b,c 1:d") << 0 << 1 << 2000 << 0 << 2000;
    QTest::newRow("unlimited, replacement first") << QStringLiteral("0r:a 0:a") << 0 << 1 << 7 << 1 << 7;
    QTest::newRow("empty group") << QStringLiteral("") << 4 << 2 << 9 << -1 << 4;
    QTest::newRow("empty group, unlimited") << QStringLiteral("") << 0 << 0 << 9 << -1 << 9;
}

void TestConnectionGroup::withRoomPicksTheConnectionForNewStreams()
{
    QFETCH(QString, layout);
    QFETCH(int, perConnection);
    QFETCH(int, namedInUrl);
    QFETCH(int, wanted);
    QFETCH(int, expected);
    QFETCH(int, room);
    Fixture f(layout);
    int gotRoom = -1;
    const Link *link = f.group.withRoom(perConnection, namedInUrl, wanted, &gotRoom);
    QCOMPARE(f.indexOf(link), expected);
    QCOMPARE(gotRoom, room);
}

void TestConnectionGroup::takeStreamsFromTheConnectionsCarryingThem_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<QString>("take");
    QTest::addColumn<QString>("given");   // "<index>:<streams>" per connection that answers
    QTest::addColumn<QString>("remains"); // the layout's streams afterwards

    QTest::newRow("each from its connection") << QStringLiteral("0:a,b 1:c,d") << QStringLiteral("b,c")
                                              << QStringLiteral("0:b 1:c") << QStringLiteral("0:a 1:d");
    QTest::newRow("several from one") << QStringLiteral("0:a 1:b,c,d") << QStringLiteral("d,b")
                                      << QStringLiteral("1:d,b") << QStringLiteral("0:a 1:c");
    QTest::newRow("unknown stream to the first shard")
        << QStringLiteral("0:a 1:b") << QStringLiteral("x,b") << QStringLiteral("0:x 1:b") << QStringLiteral("0:a 1:");
    QTest::newRow("the URL's stream to the first shard")
        << QStringLiteral("1:b 0:") << QStringLiteral("btcusdt@aggTrade") << QStringLiteral("1:btcusdt@aggTrade")
        << QStringLiteral("1:b 0:");
    QTest::newRow("old and replacement both give it up") << QStringLiteral("0:a,b 0r:a,b") << QStringLiteral("a")
                                                         << QStringLiteral("0:a 1:a") << QStringLiteral("0:b 0r:b");
    QTest::newRow("asked twice, taken once")
        << QStringLiteral("0:a,b") << QStringLiteral("a,a") << QStringLiteral("0:a") << QStringLiteral("0:b");
    QTest::newRow("nothing asked") << QStringLiteral("0:a") << QStringLiteral("") << QStringLiteral("")
                                   << QStringLiteral("0:a");
}

void TestConnectionGroup::takeStreamsFromTheConnectionsCarryingThem()
{
    QFETCH(QString, layout);
    QFETCH(QString, take);
    QFETCH(QString, given);
    QFETCH(QString, remains);
    Fixture f(layout);
    QStringList answered;
    for (const auto &[link, streams] : f.group.takeStreams(list(take)))
        answered << QStringLiteral("%1:%2").arg(f.indexOf(link)).arg(streams.join(QLatin1Char(',')));
    QCOMPARE(answered.join(QLatin1Char(' ')), given);
    QCOMPARE(f.streamsLayout(), remains);
}

// Three shards and a replacement of the first: what the snapshot shows of each, and the
// group's totals, before and after a shard goes.
void TestConnectionGroup::countsOverSeveralShards()
{
    Fixture f(QStringLiteral("0+:a,b 1+:c 2:d,e,f 0r:a,b"));
    const auto &links = f.group.links();
    links[0]->outbox.enqueue(QStringLiteral("one"));
    links[0]->outbox.enqueue(QStringLiteral("two"));
    for (int i = 0; i < 3; ++i)
        links[2]->outbox.enqueue(QStringLiteral("three %1").arg(i));
    links[3]->outbox.enqueue(QStringLiteral("four"));

    QCOMPARE(f.group.size(), std::size_t(4));
    QCOMPARE(f.group.nextShard(), 3);
    QCOMPARE(f.group.queuedMessages(), 6);
    QVERIFY(f.group.anyActive());
    const QVector<ConnectionInfo> all = f.group.describe();
    QCOMPARE(all.size(), 4);
    const int shards[] = {0, 1, 2, 0};
    const bool rollovers[] = {false, false, false, true};
    const bool connected[] = {true, true, false, false};
    const int subscriptions[] = {2, 1, 3, 2};
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(all[i].shard, shards[i]);
        QCOMPARE(all[i].rollover, rollovers[i]);
        QCOMPARE(all[i].connected, connected[i]);
        QCOMPARE(all[i].subscriptions, subscriptions[i]);
        QCOMPARE(all[i].connectedSinceMs, connected[i] ? 1'780'000'000'000 + shards[i] : 0);
        // The URL as shown: no password, no credential in the query.
        QCOMPARE(all[i].url.toString(), QStringLiteral("ws://user@127.0.0.1:9/stream?streams=btcusdt@aggTrade"));
    }

    f.group.retire(links[2].get());
    QCOMPARE(f.group.size(), std::size_t(3));
    QCOMPARE(f.group.nextShard(), 2);
    QCOMPARE(f.group.queuedMessages(), 3);
    const QVector<ConnectionInfo> left = f.group.describe();
    QCOMPARE(left.size(), 3);
    QCOMPARE(left[2].shard, 0);
    QVERIFY(left[2].rollover);

    f.group.retire(f.group.serving(0));
    f.group.retire(f.group.serving(1));
    QVERIFY(!f.group.anyActive()); // the replacement has not come up
    QCOMPARE(f.group.queuedMessages(), 1);
    QCOMPARE(f.group.nextShard(), 1);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestConnectionGroup)
#include "tst_connectiongroup.moc"
