// The snapshot hub: the engine's streams, a remote agent's (a fake agent on loopback) and an
// opened capture come from one source, in one order; each tick hands on only what changed
// (the engine's streams that changed lately; the agent's after it answered; the capture once)
// and the rows that went, once; the table's stage comes before the others; the timer makes
// every tenth tick a slow one. An engine stream that went quiet is not read again (its row
// keeps its reading, with the tick's time), and one message on one of two quiet streams hands
// on that one row, its figures refreshed in the row in place (no whole reading made). The
// timer's ticks run their stages in turns of the event loop of their own, in order; a poll out
// of turn runs a pending stage first.

#include "../common/QuietStreams.h"
#include "../common/RefusingPort.h"
#include "../common/TestRegistry.h"
#include "CaptureList.h"
#include "Engine.h"
#include "RemoteAgent.h"
#include "SnapshotHub.h"

#include "../common/TimeFactor.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <functional>

using namespace streamscope;
using namespace streamscope::ui;
using streamscope::testing::idsOf;
using streamscope::testing::scaledMs;

namespace {

// A headless agent's GET /api/v1/streams on 127.0.0.1: one stream, "quotes", whose count and
// uptime grow with every answer.
class QuotesAgent : public QObject {
public:
    QuotesAgent()
    {
        QVERIFY(m_server.listen(QHostAddress::LocalHost, 0));
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, this, [this, s] {
                    m_request += s->readAll();
                    if (!m_request.contains("\r\n\r\n"))
                        return;
                    m_request.clear();
                    ++m_answers;
                    const QByteArray body = QStringLiteral("{\"version\":1,\"duration_s\":%1,\"streams\":[{\"name\":"
                                                           "\"quotes\",\"state\":\"live\",\"messages\":%2}]}")
                                                .arg(m_answers)
                                                .arg(m_answers * 100)
                                                .toUtf8();
                    s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                             "Content-Length: "
                             + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    s->disconnectFromHost();
                });
            }
        });
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }
    int answers() const { return m_answers; }

private:
    QTcpServer m_server;
    QByteArray m_request;
    int m_answers = 0;
};

// A small uncompressed capture as docs/capture.md describes it: its header and three messages.
bool writeCapture(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write("2025-12-01T12:00:00.000000Z#{\"event\":\"capture\",\"compressed\":false,\"file_index\":0,\"format\":1,"
            "\"host_clock\":\"unknown\",\"mode\":\"parsed\",\"stream\":\"trades\",\"url\":\"ws://127.0.0.1:1/t\","
            "\"venue\":\"generic\",\"version\":\"0.9.0\"}\n");
    for (int i = 0; i < 3; ++i)
        f.write(QStringLiteral("2025-12-01T12:00:0%1.000000Z {\"seq\":%1}\n").arg(i + 1).toUtf8());
    return true;
}

} // namespace

class tst_SnapshotHub : public QObject {
    Q_OBJECT
private slots:
    void oneSourceAndOnlyWhatChanged();
    void everyTenthTickIsSlow();
    void eachTickReadsATenthOfTheHistograms();
    void aQuietStreamIsNotReadAgain();
    void timerTicksRunTheirStagesApart();
};

void tst_SnapshotHub::oneSourceAndOnlyWhatChanged()
{
    Engine engine(Engine::Options{1});
    const testing::RefusingPort refusing; // nothing listens on this port: the stream keeps trying
    QVERIFY(refusing.port() != 0);
    StreamConfig c;
    c.name = QStringLiteral("local");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(refusing.port()));
    const StreamId local = engine.addStream(c);
    QuotesAgent fake;
    QTemporaryDir dir;
    const QString capturePath = dir.filePath(QStringLiteral("trades.ndjson"));
    QVERIFY(writeCapture(capturePath));

    SnapshotHub hub(&engine); // not started: it ticks when polled
    QStringList stages;
    QVector<StreamSnapshot> changed;
    QList<StreamId> removed;
    SnapshotHub::Tick seen;
    connect(&hub, &SnapshotHub::snapshotsChanged, this,
            [&](const QList<qsizetype> &got, const QList<StreamId> &gone, const SnapshotHub::Tick &t) {
                stages << QStringLiteral("changed");
                changed.clear();
                for (qsizetype i : got)
                    changed.append(hub.snapshots().at(i));
                removed = gone;
                seen = t;
            });
    SnapshotHub::TickKind tickedKind = SnapshotHub::TickKind::Unknown;
    connect(&hub, &SnapshotHub::ticked, this, [&](const SnapshotHub::Tick &t) {
        stages << QStringLiteral("ticked");
        tickedKind = t.kind;
    });

    RemoteAgent *agent = hub.addAgent({QStringLiteral("far"), fake.url(), {}, {}, {}, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(agent->isConnected() && !agent->streams().isEmpty(), scaledMs(10000));
    QSignalSpy opened(hub.captures(), &CaptureList::opened);
    hub.captures()->open(capturePath);
    QVERIFY(opened.wait(scaledMs(10000)));
    const StreamId remote = agent->streams().first().id;
    const StreamId capture = hub.captures()->captures().first().id;
    QVERIFY(isRemoteStream(remote));
    QVERIFY(isCaptureStream(capture));

    // The first tick: every row, new, from one source, in the table's order; the table's stage first.
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    hub.poll(SnapshotHub::TickKind::Fast);
    QCOMPARE(stages, (QStringList{QStringLiteral("changed"), QStringLiteral("ticked")}));
    QCOMPARE(seen.kind, SnapshotHub::TickKind::Fast);
    QCOMPARE(tickedKind, SnapshotHub::TickKind::Fast);
    QVERIFY(seen.nowMs >= before);
    QCOMPARE(idsOf(hub.snapshots()), (QList<StreamId>{local, remote, capture}));
    QCOMPARE(idsOf(changed), (QList<StreamId>{local, remote, capture}));
    QVERIFY(removed.isEmpty());
    QCOMPARE(hub.streamName(remote), QStringLiteral("quotes @ far"));
    QCOMPARE(hub.streamName(capture), QStringLiteral("trades (capture)"));
    QCOMPARE(hub.streamName(local), QStringLiteral("local"));
    const quint64 firstMessages = hub.find(remote)->messages;
    QVERIFY(firstMessages > 0);

    // Nothing new from the agent or the capture: only the engine's stream, read anew. A slow
    // tick reads the engine's latency too.
    stages.clear();
    hub.poll(SnapshotHub::TickKind::Slow);
    QCOMPARE(stages, (QStringList{QStringLiteral("changed"), QStringLiteral("ticked")}));
    QCOMPARE(seen.kind, SnapshotHub::TickKind::Slow);
    QCOMPARE(tickedKind, SnapshotHub::TickKind::Slow);
    QCOMPARE(idsOf(changed), QList<StreamId>{local});
    QVERIFY(removed.isEmpty());
    QCOMPARE(hub.snapshots().size(), 3);

    // The agent answers again: its row is handed on at the next tick, and once.
    QSignalSpy answered(agent, &RemoteAgent::streamsChanged);
    const int answers = fake.answers();
    agent->pollNow();
    QVERIFY(answered.wait(scaledMs(10000)));
    QVERIFY(fake.answers() > answers);
    hub.poll(SnapshotHub::TickKind::Fast);
    QCOMPARE(idsOf(changed), (QList<StreamId>{local, remote}));
    QVERIFY(changed.last().messages > firstMessages);
    hub.poll(SnapshotHub::TickKind::Fast);
    QCOMPARE(idsOf(changed), QList<StreamId>{local});

    // The capture closed and the agent let go: their rows are removed, once.
    QVERIFY(hub.captures()->close(capture));
    hub.removeAgents();
    hub.poll(SnapshotHub::TickKind::Fast);
    QCOMPARE(removed, (QList<StreamId>{remote, capture}));
    QCOMPARE(idsOf(hub.snapshots()), QList<StreamId>{local});
    QVERIFY(!hub.find(remote));
    hub.poll(SnapshotHub::TickKind::Fast);
    QVERIFY(removed.isEmpty());

    // A stream the engine removes goes the same way.
    engine.removeStream(local);
    hub.poll(SnapshotHub::TickKind::Fast);
    QCOMPARE(removed, QList<StreamId>{local});
    QVERIFY(changed.isEmpty());
    QVERIFY(hub.snapshots().isEmpty());
}

void tst_SnapshotHub::everyTenthTickIsSlow()
{
    Engine engine(Engine::Options{1});
    SnapshotHub hub(&engine);
    QList<SnapshotHub::TickKind> kinds;
    connect(&hub, &SnapshotHub::ticked, this, [&](const SnapshotHub::Tick &t) { kinds << t.kind; });
    hub.start();
    QTRY_VERIFY_WITH_TIMEOUT(kinds.size() >= 2 * SnapshotHub::kSlowEvery, scaledMs(20000));
    for (int i = 0; i < 2 * SnapshotHub::kSlowEvery; ++i)
        QCOMPARE(kinds[i],
                 (i + 1) % SnapshotHub::kSlowEvery == 0 ? SnapshotHub::TickKind::Slow : SnapshotHub::TickKind::Fast);
}

// The timer's ticks spread the histograms over the second: each reads those of the tenth of
// the streams it is due for, and ten ticks read every stream's once; a slow poll out of turn
// is due for all of them, a fast one for none, and a stream whose reading has its histograms
// and did not change since is not read again.
void tst_SnapshotHub::eachTickReadsATenthOfTheHistograms()
{
    Engine engine(Engine::Options{1});
    const testing::RefusingPort refusing; // nothing listens on this port: the streams keep trying
    QVERIFY(refusing.port() != 0);
    const QUrl dead(QStringLiteral("ws://127.0.0.1:%1/").arg(refusing.port()));
    for (int i = 0; i < 200; ++i) {
        StreamConfig c;
        c.name = QStringLiteral("s%1").arg(i);
        c.url = dead;
        engine.addStream(c);
    }
    engine.stopAll(); // stopped streams do not change: what each tick reads is known
    const auto allStopped = [&engine] {
        for (const StreamSnapshot &s : engine.snapshot())
            if (s.state != StreamState::Stopped)
                return false;
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(allStopped(), scaledMs(10000));
    Engine::SnapshotCursor settling; // the ticks after the stop have published what it moved
    QVERIFY(streamscope::testing::settled(engine, settling));
    SnapshotHub hub(&engine); // not started: the test ticks it
    QHash<StreamId, int> due;
    QList<SnapshotHub::TickKind> kinds;
    connect(&hub, &SnapshotHub::snapshotsChanged, this,
            [&](const QList<qsizetype> &changed, const QList<StreamId> &, const SnapshotHub::Tick &t) {
                kinds << t.kind;
                for (qsizetype i : changed) {
                    const StreamId id = hub.snapshots().at(i).id;
                    due[id] += t.due(id) ? 1 : 0;
                }
            });
    for (int i = 0; i < SnapshotHub::kSlowEvery; ++i) {
        hub.tickNow();
        QCOMPARE(hub.latencyReadsLastTick(), 20);
    }
    QCOMPARE(kinds.count(SnapshotHub::TickKind::Slow), 1);
    QCOMPARE(due.size(), 200);
    for (int n : std::as_const(due))
        QCOMPARE(n, 1);
    hub.poll(SnapshotHub::TickKind::Slow); // every reading has its histograms already
    QCOMPARE(hub.latencyReadsLastTick(), 0);
    hub.poll(SnapshotHub::TickKind::Fast);
    QCOMPARE(hub.latencyReadsLastTick(), 0);
}

void tst_SnapshotHub::aQuietStreamIsNotReadAgain()
{
    streamscope::testing::LoopbackWsServer server;
    QVERIFY(server.listen());
    Engine engine(Engine::Options{1});
    QList<StreamId> ids;
    for (const QString &path : {QStringLiteral("/a"), QStringLiteral("/b")}) {
        server.setFeed(path, 3);
        ids << engine.addStream(streamscope::testing::quietStream(server, path));
    }
    const auto fed = [&](quint64 messages) {
        for (const StreamSnapshot &s : engine.snapshot())
            if (s.messages != messages || s.state != StreamState::Live || s.freshness.workerBusyShare < 0)
                return false; // the worker's busy share is first measured a second after it starts
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(fed(3), scaledMs(10000));

    SnapshotHub hub(&engine);
    QVector<StreamSnapshot> changed;
    connect(&hub, &SnapshotHub::snapshotsChanged, this,
            [&](const QList<qsizetype> &got, const QList<StreamId> &, const SnapshotHub::Tick &) {
                changed.clear();
                for (qsizetype i : got)
                    changed.append(hub.snapshots().at(i));
            });
    // Ticks until one hands on nothing: the streams' last change is kRecentPolls ticks behind.
    const auto tickUntil = [&](const std::function<bool()> &done) {
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < scaledMs(20000)) {
            hub.poll(SnapshotHub::TickKind::Fast);
            if (done())
                return true;
            QTest::qWait(20);
        }
        return false;
    };
    hub.poll(SnapshotHub::TickKind::Fast);
    QCOMPARE(hub.lastRead(), 2);
    QVERIFY(tickUntil([&] { return changed.isEmpty(); }));
    QCOMPARE(hub.lastRead(), 0);
    QCOMPARE(hub.lastUnchanged(), 2);
    QCOMPARE(idsOf(hub.snapshots()), ids);
    const qint64 takenAt = hub.find(ids[1])->takenAtNs;
    QTest::qWait(50);
    hub.poll(SnapshotHub::TickKind::Fast);
    QVERIFY(changed.isEmpty());
    QCOMPARE(hub.find(ids[1])->messages, quint64(3));
    QVERIFY(hub.find(ids[1])->takenAtNs > takenAt); // a reading as of this tick

    // One message on /b: one row handed on, /b's, with its new count.
    const auto *b = server.last(QStringLiteral("/b"));
    QVERIFY(b && b->socket);
    b->socket->sendTextMessage(QStringLiteral("{\"E\":1}"));
    QVERIFY(tickUntil([&] { return !changed.isEmpty(); }));
    QCOMPARE(idsOf(changed), QList<StreamId>{ids[1]});
    QCOMPARE(changed.first().messages, quint64(4));
    QCOMPARE(hub.lastRead(), 1);
    // Its figures alone moved: refreshed in its row, in place; no reading was made whole.
    QCOMPARE(hub.lastRefreshed(), 1);
    QCOMPARE(hub.find(ids[1])->name, QStringLiteral("b"));
    QCOMPARE(hub.find(ids[0])->messages, quint64(3));
    // A stop changes its state and reason: that reading is made whole, and shows them.
    engine.stopStream(ids[0]);
    QVERIFY(tickUntil([&] { return idsOf(changed).contains(ids[0]) && hub.lastRefreshed() < hub.lastRead(); }));
    QCOMPARE(hub.find(ids[0])->state, StreamState::Stopped);
    QCOMPARE(idsOf(hub.snapshots()), ids);
}

void tst_SnapshotHub::timerTicksRunTheirStagesApart()
{
    Engine engine(Engine::Options{1});
    const testing::RefusingPort refusing; // nothing listens on this port
    QVERIFY(refusing.port() != 0);
    const QUrl dead(QStringLiteral("ws://127.0.0.1:%1/").arg(refusing.port()));
    StreamConfig c;
    c.name = QStringLiteral("s");
    c.url = dead;
    const StreamId id = engine.addStream(c);
    SnapshotHub hub(&engine);
    // A zero timer started within stage 1 runs before stage 2: the loop turned between them.
    QTimer between;
    between.setSingleShot(true);
    between.setInterval(0);
    int turns = 0;
    connect(&between, &QTimer::timeout, this, [&turns] { ++turns; });
    QList<QString> order;
    int turnsAtStage1 = -1;
    connect(&hub, &SnapshotHub::snapshotsChanged, this,
            [&](const QList<qsizetype> &, const QList<StreamId> &, const SnapshotHub::Tick &t) {
                order << QStringLiteral("changed %1").arg(int(t.kind));
                turnsAtStage1 = turns;
                between.start();
            });
    int apart = 0;
    connect(&hub, &SnapshotHub::ticked, this, [&](const SnapshotHub::Tick &t) {
        order << QStringLiteral("ticked %1").arg(int(t.kind));
        apart += turns > turnsAtStage1 ? 1 : 0;
    });
    hub.start();
    QTRY_VERIFY_WITH_TIMEOUT(order.size() >= 6, scaledMs(10000));
    hub.poll(SnapshotHub::TickKind::Fast); // stages left pending run first, then the poll's own
    for (qsizetype i = 0; i + 1 < order.size(); i += 2) {
        QVERIFY2(order[i].startsWith(QLatin1String("changed")), qPrintable(order.join(QLatin1Char(','))));
        QCOMPARE(order[i + 1].mid(7), order[i].mid(8));
    }
    QVERIFY2(apart >= 3, qPrintable(QString::number(apart))); // the timer's ticks
    QVERIFY(hub.find(id));
    // A tick out of turn runs its stages at once.
    const int before = apart;
    hub.tickNow();
    QCOMPARE(apart, before);
}

STREAMSCOPE_TEST_MAIN(tst_SnapshotHub)
#include "tst_snapshothub.moc"
