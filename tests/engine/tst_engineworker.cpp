// EngineWorker alone, on its own thread as the Engine runs it, its sessions connected to a
// real websocket server on 127.0.0.1: tasks posted from any thread run there, in order, each
// once; sessions are placed on the worker and publish from it; commands reach their own
// stream only; a stop acts at once under a firehose; the housekeeping tick (and only it)
// drives the sessions' watchdogs; removal and shutdown close the connections.

#include "../common/LoopbackWsServer.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "core/EngineWorker.h"
#include "core/ThreadHandOff.h"
#include "model/StreamSnapshot.h"
#include "stats/StreamShared.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QMutex>
#include <QtCore/QThread>
#include <QtTest/QtTest>

#include <atomic>
#include <thread>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

// The worker on its own thread, started and shut down as the Engine does it. Records every
// event it publishes with the thread it came from.
class WorkerRig {
public:
    explicit WorkerRig(bool tick = true)
    {
        thread.setObjectName(QStringLiteral("worker-under-test"));
        worker->moveToThread(&thread);
        QObject::connect(
            worker, &EngineWorker::eventOccurred, &context,
            [this](const StreamEvent &e) {
                QMutexLocker lock(&mutex);
                events << e;
                eventThreads << QThread::currentThread();
            },
            Qt::DirectConnection);
        thread.start();
        if (tick)
            startTick();
    }
    ~WorkerRig()
    {
        // As Engine's destructor: the join orders what the worker did before the delete, and
        // the hand-off says so to ThreadSanitizer, which cannot see inside QThread::wait.
        worker->post([w = worker, t = &thread] {
            w->shutdown();
            t->quit();
            handOffRelease(w);
        });
        if (!thread.wait(scaledMs(10000)))
            qFatal("the worker thread did not end after its shutdown was posted");
        handOffAcquire(worker);
        delete worker;
    }

    void startTick()
    {
        worker->post([w = worker] { w->init(); });
    }
    std::shared_ptr<StreamShared> add(StreamId id, const StreamConfig &config)
    {
        auto shared = std::make_shared<StreamShared>(id, config);
        worker->post([w = worker, shared, config] { w->addSession(shared, config); });
        return shared;
    }
    // Runs fn on the worker and waits for it.
    void onWorker(const std::function<void()> &fn)
    {
        std::atomic<bool> done{false};
        worker->post([&] {
            fn();
            done.store(true, std::memory_order_release);
        });
        QTRY_VERIFY_WITH_TIMEOUT(done.load(std::memory_order_acquire), scaledMs(10000));
    }
    QList<StreamState> states(StreamId id) const
    {
        QMutexLocker lock(&mutex);
        QList<StreamState> out;
        for (const StreamEvent &e : events)
            if (e.stream == id && e.kind == EventKind::StateChanged)
                out << e.state;
        return out;
    }
    int eventCount(StreamId id) const
    {
        QMutexLocker lock(&mutex);
        return int(std::count_if(events.begin(), events.end(), [id](const StreamEvent &e) { return e.stream == id; }));
    }
    bool allEventsFromTheWorker() const
    {
        QMutexLocker lock(&mutex);
        return !eventThreads.isEmpty()
            && std::all_of(eventThreads.begin(), eventThreads.end(), [this](QThread *t) { return t == &thread; });
    }

    QThread thread;
    EngineWorker *worker = new EngineWorker;
    QObject context;
    mutable QMutex mutex;
    QVector<StreamEvent> events;
    QVector<QThread *> eventThreads;
};

// A stop or restart as the Engine gives it: left in the stream's command word, then the
// worker woken for it (StreamCommands.h).
void command(WorkerRig &rig, StreamShared &shared, StreamId id, StreamCommands::Command c)
{
    shared.commands.post(c);
    rig.worker->post([w = rig.worker, id] { w->runCommands(id); });
}

StreamSnapshot snap(const std::shared_ptr<StreamShared> &shared)
{
    StreamSnapshot s;
    shared->fillSnapshot(s, false);
    return s;
}

StreamConfig depthStream(const LoopbackWsServer &server, const QString &path)
{
    StreamConfig c;
    c.name = path.mid(1);
    c.venue = Venue::Generic; // a Binance stream on 127.0.0.1 would ask this server for its time
    c.url = server.url(path);
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    c.stallTimeoutMs = 600000;
    c.pingIntervalMs = 0;
    c.pongTimeoutMs = 0;
    return c;
}

} // namespace

class TestEngineWorker : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void postedTasksRunOnTheWorkerInOrderEachOnce();
    void sessionIsPlacedOnTheWorker();
    void commandsReachTheirOwnStreamOnly();
    void stopActsAtOnceUnderAFirehose();
    void tickDrivesTheSessions_data();
    void tickDrivesTheSessions();
    void removeSessionClosesItsConnectionOnly();
    void shutdownClosesEverySession();
};

void TestEngineWorker::initTestCase()
{
    qRegisterMetaType<streamscope::StreamEvent>();
}

// Three threads post at once; a task may post another. Every task runs on the worker, once,
// and the tasks of each poster in the order posted.
void TestEngineWorker::postedTasksRunOnTheWorkerInOrderEachOnce()
{
    WorkerRig rig(false);
    constexpr int kPerPoster = 2000;
    constexpr int kPosters = 3;
    std::vector<std::vector<int>> ran(kPosters); // written on the worker only
    std::atomic<int> done{0};
    std::atomic<int> offThread{0};
    const auto task = [&](int poster, int i) {
        return [&, poster, i] {
            if (QThread::currentThread() != &rig.thread)
                offThread.fetch_add(1);
            ran[std::size_t(poster)].push_back(i);
            done.fetch_add(1, std::memory_order_release);
        };
    };
    std::thread second([&] {
        for (int i = 0; i < kPerPoster; ++i)
            rig.worker->post(task(1, i));
    });
    std::thread third([&] {
        for (int i = 0; i < kPerPoster; ++i)
            rig.worker->post(task(2, i));
    });
    for (int i = 0; i < kPerPoster; ++i) {
        if (i % 2 == 0) {
            rig.worker->post(task(0, i));
        } else { // posted from a running task: it runs after the tasks already queued
            rig.worker->post([&, i] { rig.worker->post(task(0, i)); });
        }
    }
    second.join();
    third.join();
    QTRY_COMPARE_WITH_TIMEOUT(done.load(std::memory_order_acquire), kPosters * kPerPoster, scaledMs(10000));
    QCOMPARE(offThread.load(), 0);
    for (int poster = 1; poster < kPosters; ++poster) {
        const std::vector<int> &r = ran[std::size_t(poster)];
        QCOMPARE(int(r.size()), kPerPoster);
        QVERIFY(std::is_sorted(r.begin(), r.end()));
        QCOMPARE(r.back(), kPerPoster - 1);
        QVERIFY(std::adjacent_find(r.begin(), r.end()) == r.end());
    }
    std::vector<int> mine = ran[0];
    QCOMPARE(int(mine.size()), kPerPoster);
    std::sort(mine.begin(), mine.end());
    for (int i = 0; i < kPerPoster; ++i)
        QCOMPARE(mine[std::size_t(i)], i);
    QTest::qWait(50); // nothing runs twice later
    QCOMPARE(done.load(), kPosters * kPerPoster);
}

void TestEngineWorker::sessionIsPlacedOnTheWorker()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/ws/a"), 1000);
    WorkerRig rig;
    rig.worker->addLoad(1); // what the Engine does when it assigns the stream
    QCOMPARE(rig.worker->load(), 1);
    const auto shared = rig.add(7, depthStream(server, QStringLiteral("/ws/a")));
    QTRY_COMPARE_WITH_TIMEOUT(snap(shared).dataMessages, quint64(1000), scaledMs(10000));
    const StreamSnapshot s = snap(shared);
    QCOMPARE(s.messages, quint64(1000));
    QCOMPARE(s.gaps, quint64(0));
    QCOMPARE(s.state, StreamState::Live);
    QCOMPARE(server.accepted(QStringLiteral("/ws/a")), 1);
    QTRY_COMPARE_WITH_TIMEOUT(rig.states(7), (QList<StreamState>{StreamState::Connecting, StreamState::Live}),
                              scaledMs(10000));
    QVERIFY(rig.allEventsFromTheWorker());
}

// Commands for one stream touch no other; commands for a stream the worker does not hold
// do nothing.
void TestEngineWorker::commandsReachTheirOwnStreamOnly()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    WorkerRig rig;
    const auto a = rig.add(1, depthStream(server, QStringLiteral("/ws/a")));
    const auto b = rig.add(2, depthStream(server, QStringLiteral("/ws/b")));
    QTRY_COMPARE_WITH_TIMEOUT(snap(a).state, StreamState::Live, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(b).state, StreamState::Live, scaledMs(10000));

    rig.worker->post([w = rig.worker] { w->sendRaw(1, QStringLiteral("hello a")); });
    rig.worker->post(
        [w = rig.worker] { w->sendControl(2, QStringLiteral("SUBSCRIBE"), {QStringLiteral("ethusdt@depth")}, 4242); });
    for (StreamId unknown : {StreamId(3), StreamId(0)}) {
        rig.worker->post([w = rig.worker, unknown] {
            w->sendRaw(unknown, QStringLiteral("nobody"));
            w->sendControl(unknown, QStringLiteral("SUBSCRIBE"), {QStringLiteral("x@depth")}, 1);
            w->runCommands(unknown);
            w->removeSession(unknown);
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(server.last(QStringLiteral("/ws/b"))->received.size(), 1, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(server.last(QStringLiteral("/ws/a"))->received.size(), 1, scaledMs(10000));
    QCOMPARE(server.last(QStringLiteral("/ws/a"))->received.at(0), QStringLiteral("hello a"));
    const QJsonObject subscribe =
        QJsonDocument::fromJson(server.last(QStringLiteral("/ws/b"))->received.at(0).toUtf8()).object();
    QCOMPARE(subscribe.value(QLatin1String("method")).toString(), QStringLiteral("SUBSCRIBE"));
    QCOMPARE(subscribe.value(QLatin1String("id")).toInteger(), 4242);
    QTRY_COMPARE_WITH_TIMEOUT(snap(b).results, quint64(1), scaledMs(10000)); // the server's answer
    QCOMPARE(snap(a).results, quint64(0));

    // A stop and a restart of a: b keeps its one connection.
    command(rig, *a, 1, StreamCommands::Command::Stop);
    QTRY_COMPARE_WITH_TIMEOUT(snap(a).state, StreamState::Stopped, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/ws/a")), 0, scaledMs(10000));
    command(rig, *a, 1, StreamCommands::Command::Restart);
    QTRY_COMPARE_WITH_TIMEOUT(snap(a).state, StreamState::Live, scaledMs(10000));
    QCOMPARE(server.accepted(QStringLiteral("/ws/a")), 2);
    QCOMPARE(server.accepted(QStringLiteral("/ws/b")), 1);
    QCOMPARE(server.open(QStringLiteral("/ws/b")), 1);
    QTRY_COMPARE_WITH_TIMEOUT(rig.states(2), (QList<StreamState>{StreamState::Connecting, StreamState::Live}),
                              scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(rig.states(1),
                              (QList<StreamState>{StreamState::Connecting, StreamState::Live, StreamState::Stopped,
                                                  StreamState::Connecting, StreamState::Live}),
                              scaledMs(10000));
    QVERIFY(rig.allEventsFromTheWorker());
    QCOMPARE(rig.eventCount(0) + rig.eventCount(3), 0);
}

// The Engine leaves the stop in the stream's command word, then wakes the worker: the hot path
// sees the word at its next message, so nothing is counted from the moment the stop is asked,
// even while the worker reads a firehose's backlog.
void TestEngineWorker::stopActsAtOnceUnderAFirehose()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/ws/a"), LoopbackWsServer::kFirehose);
    WorkerRig rig;
    const auto shared = rig.add(1, depthStream(server, QStringLiteral("/ws/a")));
    QTRY_VERIFY_WITH_TIMEOUT(snap(shared).messages > 20000, scaledMs(20000));
    QElapsedTimer roundTripTimer;
    roundTripTimer.start();
    rig.onWorker([] {});
    const qint64 roundTrip = roundTripTimer.elapsed();

    QElapsedTimer t;
    t.start();
    const quint64 before = snap(shared).messages;
    shared->commands.post(StreamCommands::Command::Stop);
    const quint64 atStop = snap(shared).messages;
    rig.worker->post([w = rig.worker] { w->runCommands(1); });
    QTRY_COMPARE_WITH_TIMEOUT(snap(shared).state, StreamState::Stopped, stopActsAtOnceMs(roundTrip));
    QVERIFY2(t.elapsed() < stopActsAtOnceMs(roundTrip),
             qPrintable(QStringLiteral("stop took %1 ms (a round trip %2 ms)").arg(t.elapsed()).arg(roundTrip)));
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/ws/a")), 0, scaledMs(10000));

    const StreamSnapshot stopped = snap(shared);
    QVERIFY(stopped.messages >= before);
    // At most the one message the worker was handling when the count went up.
    QVERIFY2(stopped.messages <= atStop + 1,
             qPrintable(QStringLiteral("%1 counted after the stop").arg(stopped.messages - atStop)));
    QCOMPARE(stopped.dataMessages, stopped.messages);
    QCOMPARE(stopped.gaps, quint64(0));
    QVERIFY(stopped.messages <= quint64(server.last(QStringLiteral("/ws/a"))->sent));
    QTRY_COMPARE_WITH_TIMEOUT(rig.states(1).last(), StreamState::Stopped, scaledMs(10000));

    // The stop carried out is the one asked for: a restart counts again, exactly.
    server.setFeed(QStringLiteral("/ws/a"), 500);
    command(rig, *shared, 1, StreamCommands::Command::Restart);
    QTRY_COMPARE_WITH_TIMEOUT(snap(shared).messages, stopped.messages + 500, scaledMs(10000));
    QCOMPARE(snap(shared).state, StreamState::Live);
    QCOMPARE(snap(shared).gaps, quint64(0));
    QCOMPARE(server.accepted(QStringLiteral("/ws/a")), 2);
}

void TestEngineWorker::tickDrivesTheSessions_data()
{
    QTest::addColumn<QString>("watchdog");
    QTest::newRow("stall") << QStringLiteral("stall");
    QTest::newRow("ping") << QStringLiteral("ping");
}

// A stall and a websocket ping are the housekeeping tick's: a worker whose tick has not
// started (init() not run yet) neither stalls a silent stream nor pings; once it runs, both
// happen.
void TestEngineWorker::tickDrivesTheSessions()
{
    QFETCH(QString, watchdog);
    const bool stall = watchdog == QLatin1String("stall");
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/ws/a"), 5); // then silent
    StreamConfig config = depthStream(server, QStringLiteral("/ws/a"));
    if (stall)
        config.stallTimeoutMs = 200;
    else
        config.pingIntervalMs = 100;
    WorkerRig rig(false);
    const auto shared = rig.add(1, config);
    QTRY_COMPARE_WITH_TIMEOUT(snap(shared).dataMessages, quint64(5), scaledMs(10000));
    QTest::qWait(600); // three stall timeouts, six ping intervals: none without the tick
    QCOMPARE(snap(shared).state, StreamState::Live);
    QCOMPARE(snap(shared).outgoingPings, quint64(0));

    rig.startTick();
    if (stall) {
        QTRY_COMPARE_WITH_TIMEOUT(snap(shared).state, StreamState::Stalled, scaledMs(10000));
        QVERIFY2(snap(shared).stateReason.startsWith(QLatin1String("no data for")),
                 qPrintable(snap(shared).stateReason));
        QTRY_COMPARE_WITH_TIMEOUT(rig.states(1).last(), StreamState::Stalled, scaledMs(10000));
    } else {
        QTRY_VERIFY_WITH_TIMEOUT(snap(shared).outgoingPings >= 3, scaledMs(10000));
        QCOMPARE(snap(shared).state, StreamState::Live); // the server's pongs keep it alive
    }
    QCOMPARE(server.accepted(QStringLiteral("/ws/a")), 1);
}

void TestEngineWorker::removeSessionClosesItsConnectionOnly()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/ws/b"), 3000);
    WorkerRig rig;
    const auto a = rig.add(1, depthStream(server, QStringLiteral("/ws/a")));
    const auto b = rig.add(2, depthStream(server, QStringLiteral("/ws/b")));
    QTRY_COMPARE_WITH_TIMEOUT(snap(a).state, StreamState::Live, scaledMs(10000));
    QTRY_VERIFY_WITH_TIMEOUT(snap(b).dataMessages > 0, scaledMs(10000));

    rig.worker->post([w = rig.worker] { w->removeSession(1); });
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/ws/a")), 0, scaledMs(10000));
    const int eventsOfA = rig.eventCount(1);
    // Commands for the removed stream reach nobody; b goes on, exact.
    rig.worker->post([w = rig.worker] { w->sendRaw(1, QStringLiteral("to a removed stream")); });
    command(rig, *a, 1, StreamCommands::Command::Restart);
    QTRY_COMPARE_WITH_TIMEOUT(snap(b).dataMessages, quint64(3000), scaledMs(10000));
    rig.onWorker([] {}); // the commands above have run
    QCOMPARE(server.accepted(QStringLiteral("/ws/a")), 1);
    QVERIFY(server.last(QStringLiteral("/ws/a"))->received.isEmpty());
    QCOMPARE(rig.eventCount(1), eventsOfA);
    QCOMPARE(snap(b).messages, quint64(3000));
    QCOMPARE(snap(b).gaps, quint64(0));
    QCOMPARE(snap(b).state, StreamState::Live);
    QCOMPARE(server.open(QStringLiteral("/ws/b")), 1);
}

void TestEngineWorker::shutdownClosesEverySession()
{
    LoopbackWsServer server;
    QVERIFY(server.listen());
    server.setFeed(QStringLiteral("/ws/b"), LoopbackWsServer::kFirehose);
    auto rig = std::make_unique<WorkerRig>();
    const auto a = rig->add(1, depthStream(server, QStringLiteral("/ws/a")));
    const auto b = rig->add(2, depthStream(server, QStringLiteral("/ws/b")));
    QTRY_COMPARE_WITH_TIMEOUT(snap(a).state, StreamState::Live, scaledMs(10000));
    QTRY_VERIFY_WITH_TIMEOUT(snap(b).messages > 1000, scaledMs(10000));
    rig->onWorker([w = rig->worker] { w->shutdown(); });
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/ws/a")), 0, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(server.open(QStringLiteral("/ws/b")), 0, scaledMs(10000));
    const quint64 countedB = snap(b).messages;
    rig.reset(); // joins the thread
    QCOMPARE(snap(b).messages, countedB);
    QVERIFY(countedB <= quint64(server.last(QStringLiteral("/ws/b"))->sent));
    QCOMPARE(snap(b).gaps, quint64(0));
    // Nothing reconnects after a shutdown.
    QCOMPARE(server.accepted(QStringLiteral("/ws/a")) + server.accepted(QStringLiteral("/ws/b")), 2);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestEngineWorker)
#include "tst_engineworker.moc"
