// The metrics endpoint's HTTP server against raw loopback clients in this process: honest
// scrapes (GET, HEAD, keep-alive, Connection: close, pipelining, HTTP/1.0), the refusals
// (400, 404, 405, 414, 431, 505) and the bounds on connections (request, idle and write
// timeouts, the connection cap, scrapes answered while 2,000 connections are held). The
// engine has no streams unless a test adds one: the body is still a full OpenMetrics
// exposition ("# EOF"), and the server's behaviour does not depend on it.

#include "../common/TestRegistry.h"
#include "BuiltinCertificate.h"
#include "Engine.h"
#include "MetricsServer.h"
#include "Report.h"
#include "ReportCsv.h"

#include "../common/TimeFactor.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <vector>

#ifdef Q_OS_UNIX
#include <sys/resource.h>
#endif

using streamscope::Engine;
using streamscope::app::HttpServerLimits;
using streamscope::app::MetricsServer;
using streamscope::testing::scaledMs;

namespace {

constexpr int kWaitMs = 10000;

struct Response {
    int status = 0;
    QByteArray statusLine;
    QMap<QByteArray, QByteArray> headers; // names in lower case
    QByteArray body;
};

// Takes one whole response from the front of `data` (its body by Content-Length, none after
// HEAD); returns false and leaves `data` alone while it is incomplete.
bool takeResponse(QByteArray &data, Response *r, bool head)
{
    const qsizetype headEnd = data.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return false;
    const QList<QByteArray> lines = data.first(headEnd).split('\n');
    Response parsed;
    parsed.statusLine = lines.first().trimmed();
    parsed.status = parsed.statusLine.split(' ').value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        parsed.headers.insert(lines[i].first(colon).trimmed().toLower(), lines[i].sliced(colon + 1).trimmed());
    }
    const qsizetype length = head ? 0 : parsed.headers.value("content-length").toLongLong();
    if (data.size() < headEnd + 4 + length)
        return false;
    parsed.body = data.sliced(headEnd + 4, length);
    data.remove(0, headEnd + 4 + length);
    *r = parsed;
    return true;
}

// A raw HTTP client on loopback; every wait runs the event loop, so the in-process server
// answers meanwhile.
class Client {
public:
    explicit Client(quint16 port) { m_socket.connectToHost(QHostAddress::LocalHost, port); }

    void send(const QByteArray &bytes) { m_socket.write(bytes); }

    bool waitForResponse(Response *r, bool head = false)
    {
        return QTest::qWaitFor(
            [&] {
                m_received += m_socket.readAll();
                return takeResponse(m_received, r, head);
            },
            scaledMs(kWaitMs));
    }

    // True once the server has closed the connection (waits up to `ms`).
    bool waitForClose(int ms = kWaitMs)
    {
        return QTest::qWaitFor(
            [&] {
                m_received += m_socket.readAll();
                return m_socket.state() == QAbstractSocket::UnconnectedState;
            },
            scaledMs(ms));
    }

    bool isOpen() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    bool isClosed() const { return m_socket.state() == QAbstractSocket::UnconnectedState; }
    QByteArray unread() { return m_received + m_socket.readAll(); }
    void close() { m_socket.abort(); }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
};

const QByteArray kScrape = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n";

QByteArray headerLines(int count, int valueBytes)
{
    QByteArray out;
    for (int i = 0; i < count; ++i)
        out += "X-Filler-" + QByteArray::number(i) + ": " + QByteArray(valueBytes, 'v') + "\r\n";
    return out;
}

// Holds `count` connections to a port from a thread of its own, sending nothing, and opens a
// new one whenever one is closed: the client that starved every scrape.
class ConnectionHolder : public QObject {
public:
    ConnectionHolder(quint16 port, int count)
        : m_port(port)
        , m_count(count)
    {
    }

    // On the holder's thread.
    void start()
    {
        for (int i = 0; i < m_count; ++i)
            open();
    }
    void stop()
    {
        m_stopping = true;
        for (QTcpSocket *s : findChildren<QTcpSocket *>()) {
            s->disconnect(this);
            delete s;
        }
    }

    int opened() const { return m_opened.load(); }
    int closed() const { return m_closed.load(); }
    int connectedNow() const { return m_connectedNow.load(); }

private:
    void open()
    {
        if (m_stopping)
            return;
        auto *socket = new QTcpSocket(this);
        connect(socket, &QTcpSocket::connected, this, [this] { ++m_connectedNow; });
        connect(socket, &QTcpSocket::stateChanged, this, [this, socket](QAbstractSocket::SocketState state) {
            if (state != QAbstractSocket::UnconnectedState)
                return;
            socket->disconnect(this);
            if (socket->property("wasConnected").toBool())
                --m_connectedNow;
            ++m_closed;
            socket->deleteLater();
            QMetaObject::invokeMethod(
                this, [this] { open(); }, Qt::QueuedConnection);
        });
        connect(socket, &QTcpSocket::connected, socket, [socket] { socket->setProperty("wasConnected", true); });
        socket->connectToHost(QHostAddress::LocalHost, m_port);
        ++m_opened;
    }

    quint16 m_port;
    int m_count;
    bool m_stopping = false;
    std::atomic<int> m_opened{0};
    std::atomic<int> m_closed{0};
    std::atomic<int> m_connectedNow{0};
};

// One scrape as a scraper in another process makes it: from a thread of its own, with blocking
// calls (this thread serves meanwhile): connect, send, read the whole answer. Status 0 when
// no answer came within `timeoutMs`.
Response scrapeFromAnotherThread(quint16 port, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    const auto left = [&] { return int(std::max<qint64>(1, timeoutMs - clock.elapsed())); };
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    Response r;
    if (!socket.waitForConnected(left()))
        return r;
    socket.write(kScrape);
    QByteArray received;
    while (!takeResponse(received, &r, false)) {
        if (clock.hasExpired(timeoutMs) || (!socket.waitForReadyRead(left()) && socket.bytesAvailable() == 0))
            return Response{};
        received += socket.readAll();
    }
    return r;
}

// Raises the soft limit on open descriptors to at least `wanted` (within the hard limit).
bool haveDescriptors(int wanted)
{
#ifdef Q_OS_UNIX
    const auto n = rlim_t(wanted);
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return false;
    if (limit.rlim_cur >= n)
        return true;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < n)
        return false;
    limit.rlim_cur = n;
    return setrlimit(RLIMIT_NOFILE, &limit) == 0;
#else
    Q_UNUSED(wanted);
    return true;
#endif
}

} // namespace

class TestMetricsServer : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();

    void honestScrapeMatchesRender();
    void headHasNoBody();
    void formatNegotiated_data();
    void formatNegotiated();
    void classicTextFormatScrape();
    void keepAliveOrClose_data();
    void keepAliveOrClose();
    void pipelinedRequestsAnsweredInOrder();
    void routing_data();
    void routing();
    void refusedAndClosed_data();
    void refusedAndClosed();
    void oversizedRequestLineIsNotBuffered();
    void slowRequestTimesOut();
    void silentConnectionClosed();
    void idleKeepAliveClosed();
    void clientNotTakingItsResponseDropped();
    void connectionCap();
    void streamsEndpointIsTheReport();
    void basicAuthentication_data();
    void basicAuthentication();
    void authFileRead_data();
    void authFileRead();
    void tlsOnly();
    void failedAuthenticationClosesAtOnce();
    void scrapesGetThroughHeldConnections();
    void urlSecretsNeverServed_data();
    void urlSecretsNeverServed();

private:
    quint16 start(const HttpServerLimits &limits = {}, const MetricsServer::Access &access = {});

    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<MetricsServer> m_server;
};

void TestMetricsServer::init()
{
    m_engine = std::make_unique<Engine>();
}

void TestMetricsServer::cleanup()
{
    m_server.reset();
    m_engine.reset();
}

quint16 TestMetricsServer::start(const HttpServerLimits &limits, const MetricsServer::Access &access)
{
    m_server = std::make_unique<MetricsServer>(*m_engine, limits);
    m_server->setAccess(access);
    QString error;
    const quint16 port = m_server->listen(QHostAddress::LocalHost, 0, &error);
    if (!port)
        qWarning() << "listen:" << error;
    return port;
}

void TestMetricsServer::honestScrapeMatchesRender()
{
    const quint16 port = start();
    QVERIFY(port);
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)));
    QNetworkReply *reply = nam.get(request);
    QSignalSpy done(reply, &QNetworkReply::finished);
    QVERIFY(reply->isFinished() || done.wait(scaledMs(kWaitMs)));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(),
             QByteArray("application/openmetrics-text; version=1.0.0; charset=utf-8"));
    QCOMPARE(reply->readAll(), MetricsServer::render(*m_engine));
    reply->deleteLater();
}

void TestMetricsServer::headHasNoBody()
{
    const quint16 port = start();
    Client client(port);
    client.send("HEAD /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    Response head;
    QVERIFY(client.waitForResponse(&head, true));
    QCOMPARE(head.status, 200);
    QCOMPARE(head.headers.value("content-length").toLongLong(), MetricsServer::render(*m_engine).size());
    QVERIFY(head.headers.value("content-type").startsWith("application/openmetrics-text"));
    // No body follows: the next bytes on the connection are the next response's status line.
    client.send(kScrape);
    Response get;
    QVERIFY(client.waitForResponse(&get));
    QCOMPARE(get.statusLine, QByteArray("HTTP/1.1 200 OK"));
    QCOMPARE(get.body, MetricsServer::render(*m_engine));
    QCOMPARE(client.unread(), QByteArray());
}

void TestMetricsServer::formatNegotiated_data()
{
    QTest::addColumn<QByteArray>("accept");
    QTest::addColumn<bool>("classic");
    QTest::newRow("no Accept") << QByteArray() << false;
    QTest::newRow("anything") << QByteArray("*/*") << false;
    QTest::newRow("Prometheus 2.x") << QByteArray("application/openmetrics-text;version=1.0.0,application/"
                                                  "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
                                                  "q=0.5,*/*;q=0.1")
                                    << false;
    QTest::newRow("classic text") << QByteArray("text/plain;version=0.0.4") << true;
    QTest::newRow("classic text preferred")
        << QByteArray("application/openmetrics-text;q=0.3, text/plain;q=0.9") << true;
    QTest::newRow("equal: OpenMetrics") << QByteArray("text/plain, application/openmetrics-text") << false;
    QTest::newRow("text refused") << QByteArray("text/plain;q=0") << false;
    QTest::newRow("a q-value out of range") << QByteArray("text/plain;q=7") << false;
    QTest::newRow("other types only") << QByteArray("application/json, text/html") << false;
}

void TestMetricsServer::formatNegotiated()
{
    QFETCH(QByteArray, accept);
    QFETCH(bool, classic);
    QCOMPARE(MetricsServer::negotiate(accept) == MetricsServer::Format::PrometheusText, classic);
}

// A scraper that asks for the classic text format (as `promtool check metrics` needs) gets
// it: counters named by their _total sample, the stateset as a gauge, no # EOF.
void TestMetricsServer::classicTextFormatScrape()
{
    const quint16 port = start();
    Client client(port);
    client.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain;version=0.0.4;q=1,*/*;q=0.1\r\n\r\n");
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.headers.value("content-type"), QByteArray("text/plain; version=0.0.4; charset=utf-8"));
    const QByteArray expected = MetricsServer::render(*m_engine, MetricsServer::Format::PrometheusText);
    QCOMPARE(r.body, expected);
    QVERIFY(r.body.contains("# TYPE streamscope_messages_total counter\n"));
    QVERIFY(r.body.contains("# TYPE streamscope_stream_state gauge\n"));
    QVERIFY(r.body.contains("# TYPE streamscope_invalid_event_times_total counter\n"));
    QVERIFY(!r.body.contains("# EOF"));
    const QByteArray openMetrics = MetricsServer::render(*m_engine);
    QVERIFY(openMetrics.contains("# TYPE streamscope_messages counter\n"));
    QVERIFY(openMetrics.contains("# TYPE streamscope_stream_state stateset\n"));
    QVERIFY(openMetrics.endsWith("# EOF\n"));
}

void TestMetricsServer::keepAliveOrClose_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<bool>("closes");
    QTest::addColumn<QByteArray>("connectionHeader");
    QTest::newRow("HTTP/1.1 keeps the connection") << kScrape << false << QByteArray();
    QTest::newRow("HTTP/1.1 Connection: close")
        << QByteArray("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") << true
        << QByteArray("close");
    QTest::newRow("Connection: Close among other tokens")
        << QByteArray("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: TE, Close\r\n\r\n") << true
        << QByteArray("close");
    QTest::newRow("HTTP/1.0 closes by default")
        << QByteArray("GET /metrics HTTP/1.0\r\n\r\n") << true << QByteArray("close");
    QTest::newRow("HTTP/1.0 keep-alive") << QByteArray("GET /metrics HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                                         << false << QByteArray("keep-alive");
}

void TestMetricsServer::keepAliveOrClose()
{
    QFETCH(QByteArray, request);
    QFETCH(bool, closes);
    QFETCH(QByteArray, connectionHeader);
    const quint16 port = start();
    Client client(port);
    client.send(request);
    Response first;
    QVERIFY(client.waitForResponse(&first));
    QCOMPARE(first.status, 200);
    QVERIFY(first.body.endsWith("# EOF\n"));
    QCOMPARE(first.headers.value("connection"), connectionHeader);
    if (closes) {
        QVERIFY(client.waitForClose());
        QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
        return;
    }
    // Kept alive: a second request on the same connection is served too.
    client.send(request);
    Response second;
    QVERIFY(client.waitForResponse(&second));
    QCOMPARE(second.status, 200);
    QCOMPARE(second.body, first.body);
    QVERIFY(client.isOpen());
    QCOMPARE(m_server->openConnections(), 1);
}

void TestMetricsServer::pipelinedRequestsAnsweredInOrder()
{
    const quint16 port = start();
    Client client(port);
    client.send(kScrape + "GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + kScrape);
    Response r1, r2, r3;
    QVERIFY(client.waitForResponse(&r1));
    QVERIFY(client.waitForResponse(&r2));
    QVERIFY(client.waitForResponse(&r3));
    QCOMPARE(r1.status, 200);
    QCOMPARE(r2.status, 404);
    QCOMPARE(r3.status, 200);
    QVERIFY(client.isOpen());
}

void TestMetricsServer::routing_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("allow");
    QTest::newRow("POST /metrics") << QByteArray("POST /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 405
                                   << QByteArray("GET, HEAD");
    QTest::newRow("PUT /metrics") << QByteArray("PUT /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 405
                                  << QByteArray("GET, HEAD");
    QTest::newRow("DELETE /metrics") << QByteArray("DELETE /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 405
                                     << QByteArray("GET, HEAD");
    QTest::newRow("GET /nope") << QByteArray("GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 404 << QByteArray();
    QTest::newRow("GET /") << QByteArray("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 404 << QByteArray();
    QTest::newRow("POST /nope") << QByteArray("POST /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 404 << QByteArray();
    QTest::newRow("GET /metrics/extra") << QByteArray("GET /metrics/extra HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 404
                                        << QByteArray();
    QTest::newRow("GET /metrics with a query")
        << QByteArray("GET /metrics?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 200 << QByteArray();
}

void TestMetricsServer::routing()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QByteArray, allow);
    const quint16 port = start();
    Client client(port);
    client.send(request);
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, status);
    QCOMPARE(r.headers.value("allow"), allow);
    if (status != 200)
        QVERIFY(!r.body.contains("streamscope_"));
}

void TestMetricsServer::refusedAndClosed_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    const QByteArray host = "Host: 127.0.0.1\r\n";
    QTest::newRow("request line over 8 KB")
        << QByteArray("GET /metrics?" + QByteArray(9 * 1024, 'q') + " HTTP/1.1\r\n" + host + "\r\n") << 414;
    QTest::newRow("64 KB without a line end") << QByteArray(64 * 1024, 'G') << 414;
    QTest::newRow("headers over 16 KB") << QByteArray("GET /metrics HTTP/1.1\r\n" + host + headerLines(20, 1000)
                                                      + "\r\n")
                                        << 431;
    QTest::newRow("one header over 16 KB")
        << QByteArray("GET /metrics HTTP/1.1\r\n" + host + "Cookie: " + QByteArray(17 * 1024, 'c') + "\r\n\r\n") << 431;
    QTest::newRow("HTTP/2.0") << QByteArray("GET /metrics HTTP/2.0\r\n" + host + "\r\n") << 505;
    QTest::newRow("HTTP/1.2") << QByteArray("GET /metrics HTTP/1.2\r\n" + host + "\r\n") << 505;
    QTest::newRow("HTTP/0.9 line") << QByteArray("GET /metrics\r\n\r\n") << 400;
    QTest::newRow("garbage") << QByteArray("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 15) << 400;
    QTest::newRow("words") << QByteArray("hello there\r\n\r\n") << 400;
    QTest::newRow("lower-case version") << QByteArray("GET /metrics http/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("absolute target") << QByteArray("GET http://x/metrics HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("two spaces") << QByteArray("GET  /metrics HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("header without colon") << QByteArray("GET /metrics HTTP/1.1\r\n" + host + "Bogus\r\n\r\n") << 400;
    QTest::newRow("space before colon") << QByteArray("GET /metrics HTTP/1.1\r\nHost : x\r\n\r\n") << 400;
    QTest::newRow("folded header") << QByteArray("GET /metrics HTTP/1.1\r\n" + host + "X-A: 1\r\n  2\r\n\r\n") << 400;
    QTest::newRow("bad Content-Length") << QByteArray("GET /metrics HTTP/1.1\r\n" + host + "Content-Length: x\r\n\r\n")
                                        << 400;
}

void TestMetricsServer::refusedAndClosed()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    const quint16 port = start();
    Client client(port);
    client.send(request);
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, status);
    QCOMPARE(r.headers.value("connection"), QByteArray("close"));
    QVERIFY(client.waitForClose());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

void TestMetricsServer::oversizedRequestLineIsNotBuffered()
{
    // The client keeps sending a request line after the answer: it is told 414 and the
    // connection ends, whatever it sends; the server does not wait for the line to end.
    HttpServerLimits limits;
    limits.lingerMs = scaledMs(200);
    const quint16 port = start(limits);
    Client client(port);
    client.send("GET /" + QByteArray(64 * 1024, 'a'));
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, 414);
    for (int i = 0; i < 16 && client.isOpen(); ++i)
        client.send(QByteArray(64 * 1024, 'a'));
    QVERIFY(client.waitForClose());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

void TestMetricsServer::slowRequestTimesOut()
{
    HttpServerLimits limits;
    limits.requestTimeoutMs = scaledMs(1000);
    const quint16 port = start(limits);
    Client client(port);
    client.send("GET /metrics HTTP/1.1\r\nHost: 1");
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, 408);
    QVERIFY(client.waitForClose());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

void TestMetricsServer::silentConnectionClosed()
{
    HttpServerLimits limits;
    limits.requestTimeoutMs = scaledMs(300);
    const quint16 port = start(limits);
    Client client(port);
    QVERIFY(client.waitForClose());
    QCOMPARE(client.unread(), QByteArray());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

void TestMetricsServer::idleKeepAliveClosed()
{
    HttpServerLimits limits;
    limits.idleTimeoutMs = scaledMs(300);
    const quint16 port = start(limits);
    Client client(port);
    client.send(kScrape);
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.headers.value("connection"), QByteArray());
    QVERIFY(client.waitForClose());
    QCOMPARE(client.unread(), QByteArray());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

void TestMetricsServer::clientNotTakingItsResponseDropped()
{
    // Many pipelined requests whose answers the client never reads: once the socket buffers
    // are full the server cannot send, and it drops the connection after the request timeout
    // instead of holding it (and the answers) for ever.
    HttpServerLimits limits;
    limits.requestTimeoutMs = scaledMs(1000);
    const quint16 port = start(limits);
    QTcpSocket client;
    client.setReadBufferSize(1); // Qt reads almost nothing, so the kernel's buffers fill up
    client.connectToHost(QHostAddress::LocalHost, port);
    QByteArray many;
    for (int i = 0; i < 20000; ++i)
        many += kScrape;
    client.write(many);
    QTRY_VERIFY_WITH_TIMEOUT(m_server->openConnections() == 1, scaledMs(kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

// Idle connections hold only their share of the slots (all of these come from one address)
// and give them up oldest first; a scrape still gets through, and connections let go are
// forgotten.
void TestMetricsServer::connectionCap()
{
    const HttpServerLimits limits; // the product's shares; the held connections are not timed out meanwhile
    const int share = limits.maxWaitingPerPeer;
    const quint16 port = start(limits);
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < share + 10; ++i) {
        clients.push_back(std::make_unique<Client>(port));
        // One at a time, so that "oldest" means the first opened.
        if (i < share)
            QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), i + 1, scaledMs(kWaitMs));
        else
            QVERIFY(clients[std::size_t(i - share)]->waitForClose());
    }
    for (int i = 0; i < share + 10; ++i)
        QCOMPARE(clients[std::size_t(i)]->isOpen(), i >= 10);
    QCOMPARE(m_server->openConnections(), share);
    // While the share is taken, a scrape is answered: its request arrives whole.
    Client scraper(port);
    scraper.send(kScrape);
    Response r;
    QVERIFY(scraper.waitForResponse(&r));
    QCOMPARE(r.status, 200);
    QVERIFY(m_server->openConnections() <= share + 1);
    // Let go: the server forgets the connections.
    clients.clear();
    scraper.close();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

void TestMetricsServer::streamsEndpointIsTheReport()
{
    streamscope::StreamConfig c;
    c.name = QStringLiteral("nobody-listens");
    c.venue = streamscope::Venue::Generic;
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:1"));
    m_engine->addStream(c);
    const quint16 port = start();
    Client client(port);
    client.send("GET /api/v1/streams HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.headers.value("content-type"), QByteArray("application/json"));
    const QJsonObject report = QJsonDocument::fromJson(r.body).object();
    QCOMPARE(report.value(QStringLiteral("version")).toInt(), 1);
    const QJsonArray streams = report.value(QStringLiteral("streams")).toArray();
    QCOMPARE(streams.size(), 1);
    QCOMPARE(streams.first().toObject().value(QStringLiteral("name")).toString(), QStringLiteral("nobody-listens"));
    QVERIFY(streams.first().toObject().contains(QStringLiteral("latency_ms")));
    client.send("POST /api/v1/streams HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, 405);
}

void TestMetricsServer::basicAuthentication_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    const QByteArray good = "Authorization: Basic " + QByteArray("scraper:s3cret:x").toBase64() + "\r\n";
    const auto get = [](const QByteArray &path, const QByteArray &headers) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n";
    };
    QTest::newRow("no credentials") << get("/metrics", {}) << 401;
    QTest::newRow("no credentials, streams") << get("/api/v1/streams", {}) << 401;
    QTest::newRow("wrong password") << get("/metrics",
                                           "Authorization: Basic " + QByteArray("scraper:s3cret:y").toBase64() + "\r\n")
                                    << 401;
    QTest::newRow("password's prefix") << get(
        "/metrics", "Authorization: Basic " + QByteArray("scraper:s3cret").toBase64() + "\r\n")
                                       << 401;
    QTest::newRow("other user") << get("/metrics",
                                       "Authorization: Basic " + QByteArray("root:s3cret:x").toBase64() + "\r\n")
                                << 401;
    QTest::newRow("bearer") << get("/metrics", "Authorization: Bearer s3cret\r\n") << 401;
    QTest::newRow("empty") << get("/metrics", "Authorization:\r\n") << 401;
    QTest::newRow("two headers") << get("/metrics", good + good) << 400;
    QTest::newRow("right") << get("/metrics", good) << 200;
    QTest::newRow("right, streams") << get("/api/v1/streams", good) << 200;
}

void TestMetricsServer::basicAuthentication()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    MetricsServer::Access access;
    access.basicAuth = "scraper:s3cret:x"; // a password may hold a colon
    const quint16 port = start({}, access);
    Client client(port);
    client.send(request);
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, status);
    if (status == 401) {
        QCOMPARE(r.headers.value("www-authenticate"), QByteArray("Basic realm=\"streamscope\", charset=\"UTF-8\""));
        QCOMPARE(r.body, QByteArray("Unauthorized\n")); // no data
    } else if (status == 200) {
        QVERIFY(r.body.contains("# EOF") || r.body.startsWith("{"));
    }
}

void TestMetricsServer::authFileRead_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("ok");
    QTest::newRow("user:password") << QByteArray("scraper:hunter2\n") << true;
    QTest::newRow("CRLF") << QByteArray("scraper:hunter2\r\n") << true;
    QTest::newRow("no newline") << QByteArray("scraper:hunter2") << true;
    QTest::newRow("no colon") << QByteArray("scraper\n") << false;
    QTest::newRow("no user") << QByteArray(":hunter2\n") << false;
    QTest::newRow("no password") << QByteArray("scraper:\n") << false;
    QTest::newRow("two lines") << QByteArray("a:hunter2\nc:hunter2\n") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("too large") << QByteArray("a:") + QByteArray(5000, 'x') << false;
}

void TestMetricsServer::authFileRead()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, ok);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("auth"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    QByteArray credentials;
    QString error;
    QCOMPARE(MetricsServer::readAuthFile(path, &credentials, &error), ok);
    if (ok) {
        QCOMPARE(credentials, QByteArray("scraper:hunter2"));
    } else {
        // Names the file and never the secret (a password longer than the random part of a temporary
        // directory's name, so that the path cannot contain it by chance).
        QVERIFY2(error.startsWith(path), qPrintable(error));
        QVERIFY(!error.contains(QLatin1String("hunter2")));
    }
    QVERIFY(!MetricsServer::readAuthFile(dir.filePath(QStringLiteral("missing")), &credentials, &error));
    QVERIFY(error.contains(QLatin1String("missing")));
}

void TestMetricsServer::tlsOnly()
{
    QTemporaryDir dir;
    const auto write = [&dir](const QString &name, const QByteArray &bytes) {
        QFile f(dir.filePath(name));
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    };
    QVERIFY(write(QStringLiteral("cert.pem"), streamscope::replay::builtinCertificatePem()));
    QVERIFY(write(QStringLiteral("key.pem"), streamscope::replay::builtinPrivateKeyPem()));
    QVERIFY(write(QStringLiteral("bad.pem"), "not a certificate"));
    MetricsServer::Access access;
    QString error;
    QVERIFY(!MetricsServer::tlsFromFiles(dir.filePath(QStringLiteral("bad.pem")),
                                         dir.filePath(QStringLiteral("key.pem")), &access.tls, &error));
    QVERIFY2(error.contains(QLatin1String("expected a PEM certificate")), qPrintable(error));
    QVERIFY(!MetricsServer::tlsFromFiles(dir.filePath(QStringLiteral("cert.pem")),
                                         dir.filePath(QStringLiteral("bad.pem")), &access.tls, &error));
    QVERIFY2(error.contains(QLatin1String("private key")), qPrintable(error));
    QVERIFY2(MetricsServer::tlsFromFiles(dir.filePath(QStringLiteral("cert.pem")),
                                         dir.filePath(QStringLiteral("key.pem")), &access.tls, &error),
             qPrintable(error));
    access.basicAuth = "scraper:pw";
    const quint16 port = start({}, access);

    // A TLS client that trusts the certificate and knows the password reads the metrics.
    QSslSocket tls;
    QSslConfiguration c = tls.sslConfiguration();
    c.addCaCertificates(QSslCertificate::fromData(streamscope::replay::builtinCertificatePem()));
    tls.setSslConfiguration(c);
    tls.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
    // The server runs in this thread: wait with the event loop, not with waitForEncrypted().
    QVERIFY2(QTest::qWaitFor([&tls] { return tls.isEncrypted(); }, scaledMs(kWaitMs)), qPrintable(tls.errorString()));
    tls.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic " + QByteArray("scraper:pw").toBase64()
              + "\r\n\r\n");
    QByteArray received;
    Response r;
    QVERIFY(QTest::qWaitFor(
        [&] {
            received += tls.readAll();
            return takeResponse(received, &r, false);
        },
        scaledMs(kWaitMs)));
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.contains("# EOF"));

    // Plain HTTP on the TLS port gets no metrics: the server waits for a handshake that does
    // not come, and the request timeout closes the connection.
    Client plain(port);
    plain.send(kScrape);
    QTest::qWait(200);
    QVERIFY(!plain.unread().contains("streamscope"));
    QVERIFY(!plain.unread().contains("200 OK"));
}

// With basic authentication configured, a request that fails it is answered 401 and its
// connection closed at once, kept-alive or not: a client without the password holds no slot.
void TestMetricsServer::failedAuthenticationClosesAtOnce()
{
    MetricsServer::Access access;
    access.basicAuth = "scraper:pw";
    const quint16 port = start({}, access); // default limits: an idle connection would stay 30 s
    Client client(port);
    client.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic "
                + QByteArray("scraper:wrong").toBase64() + "\r\n\r\n");
    Response r;
    QVERIFY(client.waitForResponse(&r));
    QCOMPARE(r.status, 401);
    QCOMPARE(r.headers.value("connection"), QByteArray("close"));
    QVERIFY(client.waitForClose());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, scaledMs(kWaitMs));
}

// A local client holding 2,000 idle connections, re-opening each as it is closed, while a
// scraper asks once a second: every scrape is answered. (The cap used to count connections
// before they sent a request: 64 held ones stopped every scrape.)
void TestMetricsServer::scrapesGetThroughHeldConnections()
{
    constexpr int kHeld = 2000;
    constexpr int kScrapes = 10;
    if (!haveDescriptors(kHeld + 1024))
        QSKIP("cannot raise the limit on open descriptors to hold 2,000 connections");
    const quint16 port = start(); // the product's limits and timeouts
    QThread thread;
    auto *holder = new ConnectionHolder(port, kHeld);
    holder->moveToThread(&thread);
    thread.start();
    QMetaObject::invokeMethod(holder, [holder] { holder->start(); });
    const auto release = qScopeGuard([&] {
        QMetaObject::invokeMethod(
            holder,
            [holder] {
                holder->stop();
                delete holder;
            },
            Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    });
    // Under pressure before the first scrape: the held connections fill what they may.
    QTRY_VERIFY_WITH_TIMEOUT(holder->opened() >= kHeld && m_server->openConnections() >= 16, scaledMs(kWaitMs));
    QElapsedTimer pace;
    for (int i = 0; i < kScrapes; ++i) {
        pace.start();
        std::future<Response> scrape = std::async(std::launch::async, scrapeFromAnotherThread, port, scaledMs(kWaitMs));
        QTRY_VERIFY_WITH_TIMEOUT(scrape.wait_for(std::chrono::seconds(0)) == std::future_status::ready,
                                 scaledMs(kWaitMs) + 5000);
        const Response r = scrape.get();
        QVERIFY2(r.status == 200, qPrintable(QStringLiteral("scrape %1: status %2").arg(i + 1).arg(r.status)));
        QVERIFY(r.body.endsWith("# EOF\n"));
        QVERIFY(m_server->openConnections() <= streamscope::app::kMaxConnections);
        QVERIFY(QTest::qWaitFor([&pace] { return pace.hasExpired(1000); })); // one scrape a second
    }
    // The connections were held all along, and closed and re-opened meanwhile.
    QVERIFY2(holder->connectedNow() >= 16, qPrintable(QString::number(holder->connectedNow())));
    QVERIFY2(holder->closed() > 0, qPrintable(QString::number(holder->closed())));
}

// A stream's URL that carries a literal secret (the workspace refuses one; code or an older
// file may not) is served and written without it: in /api, /metrics, the report and its CSV.
void TestMetricsServer::urlSecretsNeverServed_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("shown"); // what the report says instead
    QTest::newRow("password") << QStringLiteral("ws://user:SECRET@127.0.0.1:1/feed")
                              << QStringLiteral("ws://user@127.0.0.1:1/feed");
    QTest::newRow("userinfo with an encoded colon")
        << QStringLiteral("ws://user%3ASECRET@127.0.0.1:1/feed") << QStringLiteral("ws://127.0.0.1:1/feed");
    QTest::newRow("';' as a query separator")
        << QStringLiteral("ws://127.0.0.1:1/feed?a=1;token=SECRET") << QStringLiteral("ws://127.0.0.1:1/feed?a=1");
    QTest::newRow("pwd") << QStringLiteral("ws://127.0.0.1:1/feed?pwd=SECRET&b=2")
                         << QStringLiteral("ws://127.0.0.1:1/feed?b=2");
    QTest::newRow("passwd") << QStringLiteral("ws://127.0.0.1:1/feed?passwd=SECRET")
                            << QStringLiteral("ws://127.0.0.1:1/feed");
    QTest::newRow("fragment") << QStringLiteral("ws://127.0.0.1:1/feed#token=SECRET")
                              << QStringLiteral("ws://127.0.0.1:1/feed");
}

void TestMetricsServer::urlSecretsNeverServed()
{
    QFETCH(QString, url);
    QFETCH(QString, shown);
    streamscope::StreamConfig c;
    c.name = QStringLiteral("feed");
    c.venue = streamscope::Venue::Generic;
    c.url = QUrl(url);
    m_engine->addStream(c);
    const quint16 port = start();
    Client client(port);
    Response api;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            client.send("GET /api/v1/streams HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            return client.waitForResponse(&api) && api.body.contains("connecting");
        }(),
        scaledMs(kWaitMs));
    client.send(kScrape);
    Response metrics;
    QVERIFY(client.waitForResponse(&metrics));
    const QJsonObject report = streamscope::app::buildReport(m_engine->snapshot(true), 1.0);
    const QByteArray json = QJsonDocument(report).toJson();
    const QByteArray csv = streamscope::app::reportCsv(report).toUtf8();
    for (const auto &[where, text] : {std::pair{"/api", api.body}, std::pair{"/metrics", metrics.body},
                                      std::pair{"report", json}, std::pair{"CSV", csv}})
        QVERIFY2(!text.contains("SECRET"),
                 qPrintable(QString::fromLatin1(where) + QStringLiteral(": ") + QString::fromUtf8(text.left(4000))));
    const QJsonObject stream = report.value(QStringLiteral("streams")).toArray().first().toObject();
    QCOMPARE(stream.value(QStringLiteral("url")).toString(), shown);
    QVERIFY(csv.contains(shown.toUtf8()));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestMetricsServer)
#include "tst_metricsserver.moc"
