// Many streams started at once (issue 28's 10,000): the engine keeps a bounded number of
// connection attempts under way, whatever the venue, and every stream connects and stays
// connected with its count exact; the replay server serves them from its event loop (epoll on
// Linux) and one pace timer.

#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include "ReplayServerThread.h"
#include "session/ConnectionPacer.h"
#ifdef Q_OS_LINUX
#include "EpollEventDispatcher.h"
#endif

#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

using namespace streamscope;
using namespace streamscope::testing;
using streamscope::replay::ReplayOptions;
using streamscope::replay::ReplayServer;
using streamscope::replay::ReplayServerThread;

class TestConnectStorm : public QObject {
    Q_OBJECT
private slots:
    void attemptsUnderWayAreBounded();
    void ticketsAreGivenBack();
    void hundredsOfStreamsConnectOnceWithCountsExact();
    void pacedConnectionsShareOneTimer();
    void replayThreadRunsTheEpollLoop();
};

// A peer that accepts TCP and never answers the upgrade: every attempt stays under way. With
// 40 streams and room for 8 attempts, it never holds more than 8 connections; once it lets
// them go (closes each), the next ones come, up to every stream.
void TestConnectStorm::attemptsUnderWayAreBounded()
{
    int open = 0;
    int mostOpen = 0;
    int accepted = 0;
    QTcpServer peer;
    QVERIFY(peer.listen(QHostAddress::LocalHost));
    std::vector<std::unique_ptr<QTcpSocket>> held; // before the peer, whose children they are, goes
    connect(&peer, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket *s = peer.nextPendingConnection()) {
            ++accepted;
            mostOpen = std::max(mostOpen, ++open);
            connect(s, &QTcpSocket::disconnected, this, [&open] { --open; });
            held.emplace_back(s);
        }
    });

    Engine::Options options;
    options.workerCount = 2;
    options.maxConnectsInFlight = 8;
    Engine engine(options);
    for (int i = 0; i < 40; ++i) {
        StreamConfig c = wsStream(QStringLiteral("s%1").arg(i), peer.serverPort(), QStringLiteral("small_aggtrade"));
        c.connectTimeoutMs = 600000; // the attempts stay under way until the peer lets them go
        engine.addStream(c);
    }
    QTRY_COMPARE_WITH_TIMEOUT(accepted, 8, scaledMs(10000));
    QTest::qWait(500); // the workers' ticks (100 ms) would have opened more by now
    QCOMPARE(accepted, 8);
    QCOMPARE(mostOpen, 8);

    // The peer refuses them one by one: each attempt that ends lets the next one begin.
    QTimer closer;
    connect(&closer, &QTimer::timeout, this, [&] {
        for (auto &s : held)
            if (s->state() == QAbstractSocket::ConnectedState)
                s->abort();
    });
    closer.start(50);
    QTRY_VERIFY_WITH_TIMEOUT(accepted >= 40, scaledMs(30000));
    QVERIFY2(mostOpen <= 8, qPrintable(QStringLiteral("%1 attempts under way at once").arg(mostOpen)));
}

// The pacer's own bound, and a ticket that goes gives its place back.
void TestConnectStorm::ticketsAreGivenBack()
{
    auto pacer = std::make_shared<ConnectionPacer>();
    QCOMPARE(pacer->maxHandshakes(), ConnectionPacer::kDefaultMaxHandshakes);
    pacer->setMaxHandshakes(2);
    HandshakeTicket a = HandshakeTicket::tryTake(pacer);
    HandshakeTicket b = HandshakeTicket::tryTake(pacer);
    HandshakeTicket c = HandshakeTicket::tryTake(pacer);
    QVERIFY(a.held());
    QVERIFY(b.held());
    QVERIFY(!c.held());
    QCOMPARE(pacer->handshakesInFlight(), 2);
    a.release();
    QCOMPARE(pacer->handshakesInFlight(), 1);
    {
        HandshakeTicket d = HandshakeTicket::tryTake(pacer);
        QVERIFY(d.held());
        QVERIFY(!HandshakeTicket::tryTake(pacer).held());
    }
    QCOMPARE(pacer->handshakesInFlight(), 1);
    HandshakeTicket moved = std::move(b);
    QVERIFY(moved.held());
    QCOMPARE(pacer->handshakesInFlight(), 1);
    moved = HandshakeTicket();
    QCOMPARE(pacer->handshakesInFlight(), 0);
}

// 600 streams at 10 msgs/s each, started together, against the replay server on its thread:
// every one connects once (no reconnect), and every connection's count arrives exactly.
void TestConnectStorm::hundredsOfStreamsConnectOnceWithCountsExact()
{
    constexpr int kStreams = 600;
    constexpr int kCount = 30;
    ReplayServerThread replay;
    const quint16 port = replay.start(ReplayOptions{});
    QVERIFY2(port != 0, qPrintable(replay.errorString()));

    Engine::Options options;
    options.workerCount = 2;
    options.maxConnectsInFlight = 32; // the bound at work, well below the streams
    Engine engine(options);
    QList<StreamId> ids;
    for (int i = 0; i < kStreams; ++i)
        ids << engine.addStream(wsStream(QStringLiteral("s%1").arg(i), port,
                                         QStringLiteral("small_aggtrade?count=%1&rate=10").arg(kCount)));
    auto received = [&] {
        quint64 n = 0;
        for (const StreamSnapshot &s : engine.snapshot())
            n += s.dataMessages;
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(received(), quint64(kStreams) * kCount, scaledMs(120000));
    QTest::qWait(300); // anything beyond the count would show here
    quint64 reconnects = 0;
    for (const StreamSnapshot &s : engine.snapshot()) {
        reconnects += s.reconnects;
        QCOMPARE(s.dataMessages, quint64(kCount));
    }
    QCOMPARE(reconnects, quint64(0));
}

// A timer per paced connection was a million timer events a second at 10,000 × 10 msgs/s.
void TestConnectStorm::pacedConnectionsShareOneTimer()
{
    ReplayServer server;
    QVERIFY(server.listen());
    std::vector<std::unique_ptr<QTcpSocket>> clients;
    for (int i = 0; i < 50; ++i) {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(s->waitForConnected(scaledMs(5000)));
        s->write(QByteArrayLiteral("GET /small_aggtrade?count=1000&rate=10 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"));
        clients.push_back(std::move(s));
    }
    QTRY_COMPARE_WITH_TIMEOUT(server.connectionCount(), 50, scaledMs(10000));
    // Every connection is paced and has sent (the first message goes at once).
    QTRY_VERIFY_WITH_TIMEOUT(server.totalSent() >= 50, scaledMs(10000));
    QVERIFY2(server.findChildren<QTimer *>().size() <= 2,
             qPrintable(QStringLiteral("%1 timers").arg(server.findChildren<QTimer *>().size())));
}

// The replay server's thread runs the engine workers' event loop (epoll on Linux).
void TestConnectStorm::replayThreadRunsTheEpollLoop()
{
#ifndef Q_OS_LINUX
    QSKIP("epoll is Linux's");
#else
    // Atomic, and made before the thread starts: the blocking call's hand-over happens inside
    // Qt, which ThreadSanitizer cannot see, while the thread's start it does see.
    std::atomic<bool> epoll{false};
    ReplayServerThread replay;
    QVERIFY(replay.start(ReplayOptions{}) != 0);
    QMetaObject::invokeMethod(
        replay.server(),
        [&epoll] { epoll = qobject_cast<EpollEventDispatcher *>(QAbstractEventDispatcher::instance()) != nullptr; },
        Qt::BlockingQueuedConnection);
    QVERIFY(epoll);
#endif
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestConnectStorm)
#include "tst_connectstorm.moc"
