// Faults around a stream's connection, against real peers on loopback: a reconnect storm, a
// refused connection, a host name that does not resolve, a TLS handshake or websocket
// upgrade that never finishes, and no file descriptor left. Each fault is shown (state and
// reason), retried with backoff within the policy's ceilings, never a crash, and a
// neighbour on the same worker keeps exact counts through it. The websocket faults run against
// both websocket clients (the stream's "transport": qt and native); the storm against Qt's.

#include "../common/RefusingPort.h"
#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include "BuiltinCertificate.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <algorithm>
#include <cmath>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/resource.h>
#endif

using namespace streamscope;
using namespace streamscope::testing;
using replay::ReplayOptions;
using replay::ReplayServer;

namespace {

// The backoff policy (Backoff.h, StreamConfig): the n-th consecutive reconnect waits a
// uniformly random time in [0, min(cap, base * 2^(n-1))].
qint64 ceilingMs(int attempt, int baseMs, int capMs)
{
    return std::min<qint64>(capMs, qint64(baseMs) << std::min(attempt - 1, 30));
}

// The most reconnect attempts the policy allows within `elapsedMs`, but for a chance below
// one in a billion. n attempts within T means their n waits sum to at most T; the waits are
// independent, the i-th in [0, c_i], so by Hoeffding's inequality
//   P(S_n <= T) <= exp(-2 (E[S_n] - T)^2 / sum c_i^2),  E[S_n] = sum c_i / 2,
// whatever the time each connection itself took. The first n for which that chance is
// below 1e-9 is the first count the test may call a storm the backoff did not hold back.
quint64 maxAttemptsWithin(qint64 elapsedMs, int baseMs, int capMs)
{
    double mean = 0;
    double squares = 0;
    for (int n = 1;; ++n) {
        const double c = double(ceilingMs(n, baseMs, capMs));
        mean += c / 2;
        squares += c * c;
        const double margin = mean - double(elapsedMs);
        if (margin > 0 && std::exp(-2 * margin * margin / squares) < 1e-9)
            return quint64(n - 1);
    }
}

struct ScheduledReconnect {
    int attempt = 0;
    int delayMs = 0; // as shown: to 0.1 s
    QString reason;
};

// The reconnects the engine scheduled for `id`, from its events ("reconnecting in 0.4 s
// (attempt 3): <reason>").
QList<ScheduledReconnect> scheduledReconnects(const QSignalSpy &events, StreamId id)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^reconnecting in ([0-9.]+) s \(attempt ([0-9]+)\): (.*)$)"));
    QList<ScheduledReconnect> list;
    for (const auto &args : events) {
        const auto e = args.at(0).value<StreamEvent>();
        if (e.stream != id || e.kind != EventKind::ReconnectScheduled)
            continue;
        const QRegularExpressionMatch m = pattern.match(e.text);
        ScheduledReconnect r;
        r.attempt = m.hasMatch() ? m.captured(2).toInt() : -1;
        r.delayMs = m.hasMatch() ? int(std::lround(m.captured(1).toDouble() * 1000)) : -1;
        r.reason = m.captured(3);
        list << r;
    }
    return list;
}

// Every scheduled reconnect of `id` is the next attempt (none reset: no connection stayed
// up for healthy_reset_ms) and waits no longer than its ceiling (the text rounds to 0.1 s).
void verifyBackoff(const QSignalSpy &events, StreamId id, int baseMs, int capMs)
{
    const QList<ScheduledReconnect> list = scheduledReconnects(events, id);
    QVERIFY(!list.isEmpty());
    for (int i = 0; i < list.size(); ++i) {
        const ScheduledReconnect &r = list.at(i);
        QCOMPARE(r.attempt, i + 1);
        QVERIFY2(r.delayMs >= 0 && r.delayMs <= ceilingMs(r.attempt, baseMs, capMs) + 50,
                 qPrintable(QStringLiteral("attempt %1 waits %2 ms, its ceiling is %3 ms")
                                .arg(r.attempt)
                                .arg(r.delayMs)
                                .arg(ceilingMs(r.attempt, baseMs, capMs))));
    }
}

// A stream on the same worker as the faulty one, served by a server of its own: it must get
// exactly what its server sends, on one connection, whatever its neighbour goes through.
class Neighbour {
public:
    Neighbour(quint64 count, double rate)
        : m_count(count)
        , m_rate(rate)
    {
    }
    bool listen() { return m_server.listen(); }
    StreamId add(Engine &engine)
    {
        m_id = engine.addStream(wsStream(QStringLiteral("neighbour"), m_server.port(),
                                         QStringLiteral("small_aggtrade?count=%1&rate=%2").arg(m_count).arg(m_rate)));
        return m_id;
    }
    void verifyExact(const Engine &engine) const
    {
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(m_id).dataMessages, m_count, scaledMs(60000));
        const StreamSnapshot s = engine.snapshot(m_id);
        QCOMPARE(s.messages, m_count);
        QCOMPARE(m_server.totalSent(), m_count);
        QCOMPARE(s.parseErrors, quint64(0));
        QCOMPARE(s.reconnects, quint64(0));
        QCOMPARE(s.state, StreamState::Live);
    }

private:
    ReplayServer m_server{ReplayOptions{}};
    quint64 m_count;
    double m_rate;
    StreamId m_id = kInvalidStreamId;
};

// A peer that accepts TCP connections and then fails the client in the middle of setting
// one up: it never says a word (a TLS handshake or a websocket upgrade that never ends), or
// it starts the upgrade's answer and never finishes it.
class StallingServer : public QObject {
public:
    enum class Mode { Silent, HalfUpgrade };

    explicit StallingServer(Mode mode)
        : m_mode(mode)
    {
        connect(&m_server, &QTcpServer::pendingConnectionAvailable, this, &StallingServer::onPending);
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    quint16 port() const { return m_server.serverPort(); }
    int accepted() const { return m_accepted; }
    // Connections the client gave up on and closed.
    int closedByClient() const { return m_closedByClient; }

private:
    void onPending()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            socket->setParent(this);
            ++m_accepted;
            connect(socket, &QTcpSocket::disconnected, this, [this] { ++m_closedByClient; });
            if (m_mode == Mode::HalfUpgrade)
                connect(socket, &QTcpSocket::readyRead, this, [socket] {
                    socket->readAll();
                    // The status line and one header of "101 Switching Protocols"; the rest
                    // (Connection, Sec-WebSocket-Accept, the blank line) never comes.
                    if (socket->property("answered").toBool())
                        return;
                    socket->setProperty("answered", true);
                    socket->write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n");
                });
        }
    }

    QTcpServer m_server;
    Mode m_mode;
    int m_accepted = 0;
    int m_closedByClient = 0;
};

#ifdef Q_OS_UNIX
// Takes every descriptor number below a limit and lowers the process's limit on open files
// to it, then gives both back. Lowering the limit alone is not enough: closing any
// descriptor below it would make room again. So a ballast of descriptors is opened first
// (each takes the lowest free number, so every gap below fills too), and the limit goes to
// just above the ballast: no descriptor can be created while it holds, and a socket opened
// after the ballast, having a number above the limit, frees none below it when it closes.
// The limit stays well above the few descriptors any one thread polls (poll() refuses more
// than the limit).
class DescriptorExhaustion {
public:
    static constexpr int kBallast = 64;

    ~DescriptorExhaustion() { release(); }

    bool openBallast()
    {
        for (int i = 0; i < kBallast; ++i) {
            const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                return false;
            m_ballast.push_back(fd);
        }
        return true;
    }
    // The first descriptor number above the ballast: a socket opened after openBallast()
    // has a number from here on.
    int top() const { return m_ballast.empty() ? 0 : *std::max_element(m_ballast.begin(), m_ballast.end()) + 1; }
    // Whether every number below top() is open.
    bool full() const
    {
        for (int fd = 0; fd < top(); ++fd) {
            if (::fcntl(fd, F_GETFD) == -1)
                return false;
        }
        return true;
    }
    bool lowerLimit()
    {
        if (::getrlimit(RLIMIT_NOFILE, &m_saved) != 0 || rlim_t(top()) > m_saved.rlim_cur)
            return false;
        rlimit lowered = m_saved;
        lowered.rlim_cur = rlim_t(top());
        m_lowered = ::setrlimit(RLIMIT_NOFILE, &lowered) == 0;
        return m_lowered;
    }
    void release()
    {
        if (m_lowered)
            m_lowered = ::setrlimit(RLIMIT_NOFILE, &m_saved) != 0;
        for (const int fd : m_ballast)
            ::close(fd);
        m_ballast.clear();
    }

private:
    std::vector<int> m_ballast;
    rlimit m_saved{};
    bool m_lowered = false;
};
#endif

// What a retrying stream was doing, for a wait that failed.
QString retryText(const StreamSnapshot &s)
{
    return QStringLiteral("%1 after %2 reconnects: %3").arg(stateName(s.state)).arg(s.reconnects).arg(s.stateReason);
}

} // namespace

class TestFaults : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void reconnectStormStaysWithinTheBackoff();
    void refusedConnectionRetriesUntilAServerListens_data();
    void refusedConnectionRetriesUntilAServerListens();
    void unresolvableHostRetriesWithBackoff_data();
    void unresolvableHostRetriesWithBackoff();
    void stalledSetUpTimesOutAndRetries_data();
    void stalledSetUpTimesOutAndRetries();
    void noDescriptorLeftFailsClearlyAndRecovers_data();
    void noDescriptorLeftFailsClearlyAndRecovers();

private:
    StreamConfig faulty(const QString &scheme, const QString &host, quint16 port,
                        WebSocketClient client = WebSocketClient::Qt) const;
    QTemporaryDir m_dir;
    QString m_caFile;
};

void TestFaults::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_caFile = m_dir.filePath(QStringLiteral("ca.pem"));
    QFile f(m_caFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(replay::builtinCertificatePem());
}

// A generic stream of one scheme: ws/wss read the replay server's default scenario, tcp/tls
// its lines; TLS trusts the replay server's built-in certificate.
StreamConfig TestFaults::faulty(const QString &scheme, const QString &host, quint16 port, WebSocketClient client) const
{
    StreamConfig c;
    c.name = QStringLiteral("faulty");
    c.transport = client;
    c.url = QUrl(QStringLiteral("%1://%2:%3").arg(scheme, host).arg(port));
    c.caFile = m_caFile;
    c.reconnectBaseMs = 100;
    c.reconnectMaxMs = 400;
    return c;
}

// The server closes every connection without a close frame after 5 messages, for a minute.
// The stream reconnects every time, each wait within its ceiling and the attempts no more
// than the backoff allows; every message the server sent is counted once, and the neighbour
// on the same worker gets all of its messages.
void TestFaults::reconnectStormStaysWithinTheBackoff()
{
    constexpr qint64 kStormMs = 60000; // the issue's minute; not scaled, it is the fault itself
    constexpr int kBaseMs = 100;
    constexpr int kCapMs = 1600;
    constexpr quint64 kPerConnection = 5;
    ReplayServer storm{ReplayOptions{}};
    QVERIFY(storm.listen());
    QSignalSpy served(&storm, &ReplayServer::clientConnected);
    Neighbour neighbour(5000, 100); // 50 s at 100/s, through the storm
    QVERIFY(neighbour.listen());
    Engine engine(Engine::Options{1});
    QSignalSpy events(&engine, &Engine::eventOccurred);

    StreamConfig c =
        wsStream(QStringLiteral("storm"), storm.port(),
                 QStringLiteral("small_aggtrade?loop=1&misbehave=drop&after=%1&drop_every=1").arg(kPerConnection));
    c.reconnectBaseMs = kBaseMs;
    c.reconnectMaxMs = kCapMs;
    QElapsedTimer clock;
    clock.start();
    const StreamId id = engine.addStream(c);
    neighbour.add(engine);
    while (clock.elapsed() < kStormMs) {
        QTest::qWait(250);
        QVERIFY2(engine.snapshot(id).state != StreamState::Failed, qPrintable(engine.snapshot(id).stateReason));
    }

    // The storm ends: later attempts are refused. Once one has been, the last connection the
    // server took is over and every message it sent has arrived.
    storm.stopListening();
    const auto settled = [&] {
        const StreamSnapshot s = engine.snapshot(id);
        return s.state == StreamState::Reconnecting && s.stateReason.contains(QLatin1String("refused"))
            && s.messages == storm.totalSent();
    };
    QTRY_VERIFY2_WITH_TIMEOUT(settled(),
                              qPrintable(QStringLiteral("%1 counted, %2 sent; %3")
                                             .arg(engine.snapshot(id).messages)
                                             .arg(storm.totalSent())
                                             .arg(engine.snapshot(id).stateReason)),
                              scaledMs(30000));
    const StreamSnapshot s = engine.snapshot(id);
    const qint64 elapsedMs = clock.elapsed(); // after the snapshot: its attempts all waited within it
    const auto connections = quint64(served.count());
    QVERIFY2(connections >= 2, "the server took one connection only: no storm");
    QCOMPARE(storm.totalSent(), kPerConnection * connections);
    QCOMPARE(s.messages, kPerConnection * connections); // none lost, none counted twice
    QCOMPARE(s.dataMessages, s.messages);
    QCOMPARE(s.parseErrors, quint64(0));
    QCOMPARE(s.lastCloseCode, 1006); // no close frame: an abnormal closure

    // 1 + reconnects attempts: every connection the server took, and at least one refused.
    QVERIFY(s.reconnects >= connections);
    const quint64 allowed = maxAttemptsWithin(elapsedMs, kBaseMs, kCapMs);
    QVERIFY2(s.reconnects <= allowed,
             qPrintable(QStringLiteral("%1 reconnects in %2 ms; the backoff allows %3")
                            .arg(s.reconnects)
                            .arg(elapsedMs)
                            .arg(allowed)));
    qInfo("storm: %llu connections served, %llu messages, %llu reconnect attempts in %lld ms (the backoff allows %llu)",
          connections, s.messages, s.reconnects, elapsedMs, allowed);
    // The scheduling events are queued to this thread after the attempts they announce.
    QTRY_VERIFY(quint64(scheduledReconnects(events, id).size()) >= s.reconnects);
    verifyBackoff(events, id, kBaseMs, kCapMs);

    neighbour.verifyExact(engine);
}

// Websocket rows run against both clients (the stream's "transport").
void TestFaults::refusedConnectionRetriesUntilAServerListens_data()
{
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<WebSocketClient>("client");
    QTest::newRow("websocket") << QStringLiteral("ws") << WebSocketClient::Qt;
    QTest::newRow("websocket over TLS") << QStringLiteral("wss") << WebSocketClient::Qt;
    QTest::newRow("native websocket") << QStringLiteral("ws") << WebSocketClient::Native;
    QTest::newRow("native websocket over TLS") << QStringLiteral("wss") << WebSocketClient::Native;
    QTest::newRow("lines") << QStringLiteral("tcp") << WebSocketClient::Qt;
    QTest::newRow("lines over TLS") << QStringLiteral("tls") << WebSocketClient::Qt;
}

// Nobody listens: the stream shows why and retries with a growing delay; once a server
// listens on that port, the next attempt connects and every message counts.
void TestFaults::refusedConnectionRetriesUntilAServerListens()
{
    QFETCH(QString, scheme);
    QFETCH(WebSocketClient, client);
    RefusingPort refusing;
    const quint16 port = refusing.port();
    QVERIFY(port != 0);
    Neighbour neighbour(1000, 1000);
    QVERIFY(neighbour.listen());
    Engine engine(Engine::Options{1});
    QSignalSpy events(&engine, &Engine::eventOccurred);
    const StreamConfig c = faulty(scheme, QStringLiteral("127.0.0.1"), port, client);
    const StreamId id = engine.addStream(c);
    neighbour.add(engine);

    // One snapshot both waited for and read: the state may change the moment after.
    StreamSnapshot down;
    QTRY_VERIFY2_WITH_TIMEOUT((down = engine.snapshot(id)).state == StreamState::Reconnecting && down.reconnects >= 3,
                              qPrintable(retryText(down)), scaledMs(20000));
    QVERIFY2(down.stateReason.startsWith(QLatin1String("Connection refused")), qPrintable(down.stateReason));
    QVERIFY2(down.stateReason.contains(QLatin1String("reconnect attempt")), qPrintable(down.stateReason));
    QVERIFY(down.nextRetryAtMs >= down.stateSinceMs);
    QCOMPARE(down.messages, quint64(0));
    QTRY_VERIFY(quint64(scheduledReconnects(events, id).size()) >= down.reconnects);
    verifyBackoff(events, id, c.reconnectBaseMs, c.reconnectMaxMs);
    for (const ScheduledReconnect &r : scheduledReconnects(events, id))
        QVERIFY2(r.reason.startsWith(QLatin1String("Connection refused")), qPrintable(r.reason));

    ReplayOptions o;
    o.protocol =
        scheme.startsWith(QLatin1String("ws")) ? ReplayOptions::Protocol::WebSocket : ReplayOptions::Protocol::Line;
    o.tls = scheme == QLatin1String("wss") || scheme == QLatin1String("tls");
    o.count = 1000;
    ReplayServer server{o};
    refusing.release();
    QVERIFY2(server.listen(QHostAddress::LocalHost, port), qPrintable(server.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(1000), scaledMs(20000));
    const StreamSnapshot up = engine.snapshot(id);
    QCOMPARE(up.state, StreamState::Live);
    QCOMPARE(up.dataMessages, server.totalSent());
    QCOMPARE(up.parseErrors, quint64(0));

    neighbour.verifyExact(engine);
}

void TestFaults::unresolvableHostRetriesWithBackoff_data()
{
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<WebSocketClient>("client");
    QTest::newRow("websocket") << QStringLiteral("ws") << WebSocketClient::Qt;
    QTest::newRow("websocket over TLS") << QStringLiteral("wss") << WebSocketClient::Qt;
    QTest::newRow("native websocket over TLS") << QStringLiteral("wss") << WebSocketClient::Native;
    QTest::newRow("lines over TLS") << QStringLiteral("tls") << WebSocketClient::Qt;
}

// A host name that does not resolve: shown as such and retried with backoff (a failed lookup
// is often a passing one), never given up and never a crash.
void TestFaults::unresolvableHostRetriesWithBackoff()
{
    QFETCH(QString, scheme);
    QFETCH(WebSocketClient, client);
#ifndef __GLIBC__
    QSKIP("that the host name below never reaches a resolver is checked for glibc only");
#endif
    // A host name that no DNS server is ever asked about, so that the test stays on this
    // machine: 4 labels of 63 characters are a valid URL host (each label within 63), but
    // at 263 characters longer than a domain name may be on the wire (255 octets, RFC 1035
    // 2.3.4). glibc's getaddrinfo reads /etc/hosts, then res_mkquery refuses to encode the
    // name, and the lookup fails without a query: checked with strace in an empty network
    // namespace (a netlink and an nscd probe, /etc/hosts, then "Host not found"; no UDP or
    // TCP socket, where any ordinary name opens one to the nameserver).
    QStringList labels;
    for (const char letter : {'a', 'b', 'c', 'd'})
        labels << QString(63, QLatin1Char(letter));
    labels << QStringLiteral("invalid");
    const QString host = labels.join(QLatin1Char('.'));
    QVERIFY(host.size() > 255);

    Neighbour neighbour(1000, 1000);
    QVERIFY(neighbour.listen());
    Engine engine(Engine::Options{1});
    QSignalSpy events(&engine, &Engine::eventOccurred);
    const StreamConfig c = faulty(scheme, host, 9, client);
    QVERIFY(c.url.isValid());
    QCOMPARE(c.url.host(), host);
    const StreamId id = engine.addStream(c);
    neighbour.add(engine);

    // One snapshot both waited for and read: the state may change the moment after.
    StreamSnapshot s;
    QTRY_VERIFY2_WITH_TIMEOUT((s = engine.snapshot(id)).state == StreamState::Reconnecting && s.reconnects >= 3,
                              qPrintable(retryText(s)), scaledMs(20000));
    QVERIFY2(s.stateReason.startsWith(QLatin1String("Host not found")), qPrintable(s.stateReason));
    QCOMPARE(s.messages, quint64(0));
    QTRY_VERIFY(quint64(scheduledReconnects(events, id).size()) >= s.reconnects);
    verifyBackoff(events, id, c.reconnectBaseMs, c.reconnectMaxMs);
    for (const ScheduledReconnect &r : scheduledReconnects(events, id))
        QVERIFY2(r.reason.startsWith(QLatin1String("Host not found")), qPrintable(r.reason));

    neighbour.verifyExact(engine);
}

void TestFaults::stalledSetUpTimesOutAndRetries_data()
{
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<int>("mode");
    QTest::addColumn<WebSocketClient>("client");
    QTest::newRow("TLS handshake never answered (tls lines)")
        << QStringLiteral("tls") << int(StallingServer::Mode::Silent) << WebSocketClient::Qt;
    for (WebSocketClient client : {WebSocketClient::Qt, WebSocketClient::Native}) {
        const QString n = webSocketClientName(client) + QStringLiteral(": ");
        QTest::newRow(qPrintable(n + QStringLiteral("TLS handshake never answered (wss)")))
            << QStringLiteral("wss") << int(StallingServer::Mode::Silent) << client;
        QTest::newRow(qPrintable(n + QStringLiteral("websocket upgrade never answered")))
            << QStringLiteral("ws") << int(StallingServer::Mode::Silent) << client;
        QTest::newRow(qPrintable(n + QStringLiteral("websocket upgrade answered halfway")))
            << QStringLiteral("ws") << int(StallingServer::Mode::HalfUpgrade) << client;
    }
}

// The peer takes the TCP connection and then stalls the set-up. connect_timeout_ms bounds
// the whole set-up (TCP, TLS handshake, websocket upgrade): the attempt is abandoned, its
// socket closed, and the stream retries with backoff.
void TestFaults::stalledSetUpTimesOutAndRetries()
{
    QFETCH(QString, scheme);
    QFETCH(int, mode);
    QFETCH(WebSocketClient, client);
    StallingServer server{StallingServer::Mode(mode)};
    QVERIFY(server.listen());
    Neighbour neighbour(1000, 1000);
    QVERIFY(neighbour.listen());
    Engine engine(Engine::Options{1});
    QSignalSpy events(&engine, &Engine::eventOccurred);
    StreamConfig c = faulty(scheme, QStringLiteral("127.0.0.1"), server.port(), client);
    c.connectTimeoutMs = 500;
    const StreamId id = engine.addStream(c);
    neighbour.add(engine);

    QTRY_VERIFY_WITH_TIMEOUT(server.accepted() >= 2, scaledMs(20000)); // given up, then retried
    QTRY_VERIFY_WITH_TIMEOUT(server.closedByClient() >= 1, scaledMs(20000));
    QTRY_VERIFY_WITH_TIMEOUT(!scheduledReconnects(events, id).isEmpty(), scaledMs(20000));
    const QList<ScheduledReconnect> retries = scheduledReconnects(events, id);
    for (const ScheduledReconnect &r : retries)
        QVERIFY2(r.reason == QLatin1String("no connection after 0.5 s"), qPrintable(r.reason));
    verifyBackoff(events, id, c.reconnectBaseMs, c.reconnectMaxMs);
    const StreamSnapshot s = engine.snapshot(id);
    QVERIFY(s.state == StreamState::Connecting || s.state == StreamState::Reconnecting);
    QVERIFY(s.reconnects >= 1);
    QCOMPARE(s.messages, quint64(0));
    // Each abandoned attempt closed its socket: at most the current one is still open.
    QTRY_VERIFY_WITH_TIMEOUT(server.accepted() - server.closedByClient() <= 1, scaledMs(20000));

    neighbour.verifyExact(engine);
}

// With no descriptor left, a reconnect cannot even create its socket: the stream says so and
// retries with backoff; once descriptors are available again it reconnects by itself. The
// open connection of its neighbour needs no new descriptor and keeps counting.
void TestFaults::noDescriptorLeftFailsClearlyAndRecovers_data()
{
    QTest::addColumn<WebSocketClient>("client");
    QTest::newRow("qt") << WebSocketClient::Qt;
    QTest::newRow("native") << WebSocketClient::Native;
}

void TestFaults::noDescriptorLeftFailsClearlyAndRecovers()
{
    QFETCH(WebSocketClient, client);
#ifndef Q_OS_UNIX
    QSKIP("RLIMIT_NOFILE is POSIX");
#else
    ReplayOptions o;
    o.loop = true;
    o.rate = 500;
    ReplayServer server{o};
    QVERIFY(server.listen());
    Neighbour neighbour(2000, 500);
    QVERIFY(neighbour.listen());
    Engine engine(Engine::Options{1});
    QSignalSpy events(&engine, &Engine::eventOccurred);
    const StreamId neighbourId = neighbour.add(engine);
    WAIT_STATE(engine, neighbourId, StreamState::Live, 20000);

    DescriptorExhaustion exhaustion;
    QVERIFY(exhaustion.openBallast());
    const StreamConfig c = faulty(QStringLiteral("ws"), QStringLiteral("127.0.0.1"), server.port(), client);
    const StreamId id = engine.addStream(c); // its sockets, both ends, above the ballast
    WAIT_STATE(engine, id, StreamState::Live, 20000);
    QVERIFY(exhaustion.lowerLimit());
    QVERIFY(exhaustion.full());

    server.dropAllConnections();
    // One snapshot both waited for and read: the state may change the moment after.
    StreamSnapshot down;
    QTRY_VERIFY_WITH_TIMEOUT((down = engine.snapshot(id)).state == StreamState::Reconnecting && down.reconnects >= 3,
                             scaledMs(20000));
    QVERIFY2(down.stateReason.startsWith(QLatin1String("cannot create a socket: too many open files")),
             qPrintable(down.stateReason));
    QCOMPARE(server.connectionCount(), 0);
    QVERIFY(exhaustion.full()); // the test's own premise held throughout

    // Descriptors are back: a later attempt connects, and data flows again.
    exhaustion.release();
    const quint64 before = engine.snapshot(id).messages;
    WAIT_STATE(engine, id, StreamState::Live, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).messages > before + 100, scaledMs(20000));
    QCOMPARE(engine.snapshot(id).parseErrors, quint64(0));
    QTRY_VERIFY(quint64(scheduledReconnects(events, id).size()) >= engine.snapshot(id).reconnects);
    verifyBackoff(events, id, c.reconnectBaseMs, c.reconnectMaxMs);
    const QList<ScheduledReconnect> retries = scheduledReconnects(events, id);
    for (int i = 1; i < retries.size(); ++i) // the first one is the dropped connection
        QVERIFY2(retries.at(i).reason.startsWith(QLatin1String("cannot create a socket")),
                 qPrintable(retries.at(i).reason));

    neighbour.verifyExact(engine);
#endif
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
