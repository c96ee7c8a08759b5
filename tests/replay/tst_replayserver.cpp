// The replay server seen from real clients on 127.0.0.1: QWebSocket, QTcpSocket and QSslSocket.
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "FrameSet.h"
#include "ReplayServer.h"
#include "ReplayServerThread.h"
#include "ScenarioPool.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTest>
#include <QUrl>
#include <QWebSocket>

#include <chrono>
#include <map>
#include <memory>

using namespace streamscope::replay;

namespace {

// A websocket client that keeps every text message it receives.
class WsClient {
public:
    explicit WsClient(qint64 maxMessageSize = 64 * 1024 * 1024)
    {
        m_socket.setMaxAllowedIncomingMessageSize(quint64(maxMessageSize));
        m_socket.setMaxAllowedIncomingFrameSize(quint64(maxMessageSize));
        QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket,
                         [this](const QString &text) { messages.append(text); });
        QObject::connect(&m_socket, &QWebSocket::disconnected, &m_socket, [this] { disconnected = true; });
    }
    void open(quint16 port, const QString &pathAndQuery)
    {
        m_socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1%2").arg(port).arg(pathAndQuery)));
    }
    QWebSocket &socket() { return m_socket; }
    QJsonObject json(qsizetype i) const { return QJsonDocument::fromJson(messages.at(i).toUtf8()).object(); }

    QStringList messages;
    bool disconnected = false;

private:
    QWebSocket m_socket;
};

// A CRLF-line client over TCP or TLS.
class LineClient {
public:
    explicit LineClient(bool tls)
    {
        if (tls) {
            auto *ssl = new QSslSocket;
            QSslConfiguration config = QSslConfiguration::defaultConfiguration();
            config.addCaCertificates(QSslCertificate::fromData(builtinCertificatePem()));
            ssl->setSslConfiguration(config);
            QObject::connect(ssl, &QSslSocket::sslErrors, ssl,
                             [this](const QList<QSslError> &errors) { sslErrors += errors; });
            m_socket.reset(ssl);
        } else {
            m_socket.reset(new QTcpSocket);
        }
        QObject::connect(m_socket.get(), &QTcpSocket::readyRead, m_socket.get(), [this] {
            m_buffer += m_socket->readAll();
            for (qsizetype end = m_buffer.indexOf("\r\n"); end >= 0; end = m_buffer.indexOf("\r\n")) {
                lines.append(m_buffer.left(end));
                m_buffer.remove(0, end + 2);
            }
        });
        QObject::connect(m_socket.get(), &QTcpSocket::disconnected, m_socket.get(), [this] { disconnected = true; });
    }
    void open(quint16 port)
    {
        if (auto *ssl = qobject_cast<QSslSocket *>(m_socket.get()))
            ssl->connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
        else
            m_socket->connectToHost(QHostAddress::LocalHost, port);
    }
    void send(const QByteArray &json) { m_socket->write(json + "\r\n"); }
    QJsonObject json(qsizetype i) const { return QJsonDocument::fromJson(lines.at(i)).object(); }
    QTcpSocket &socket() { return *m_socket; }

    QList<QByteArray> lines;
    QList<QSslError> sslErrors;
    bool disconnected = false;

private:
    std::unique_ptr<QTcpSocket> m_socket;
    QByteArray m_buffer;
};

// A listening server, or null (with the reason logged): callers QVERIFY the result.
std::unique_ptr<ReplayServer> startServer(const ReplayOptions &options = {})
{
    auto server = std::make_unique<ReplayServer>(options);
    if (!server->listen()) {
        qWarning("listen failed: %s", qPrintable(server->errorString()));
        return nullptr;
    }
    return server;
}

// Lets the event loop run so that anything still on its way would arrive.
void settle(int ms = 150)
{
    QTest::qWait(ms);
}

} // namespace

class TestReplayServer : public QObject {
    Q_OBJECT

private slots:
    void pools_data();
    void pools();
    void exactCount_data();
    void exactCount();
    void binanceUrls();
    void betfairHeartbeatAndClk();
    void depthSequenceContinuity();
    void gap();
    void depthSnapshot();
    void depthBooksManyInstruments();
    void controlResponses_data();
    void controlResponses();
    void waitSubscribe();
    void pingPongAndClose();
    void handshake_data();
    void handshake();
    void closeCodes_data();
    void closeCodes();
    void dropOnceThenEvery();
    void silent();
    void serverSilentAndDropAll();
    void badJson();
    void stamp();
    void pacedRate();
    void lineProtocol_data();
    void lineProtocol();
    void lineAuthFailure();
    void lineMisbehaviour();
    void webSocketTls();
    void serverThread();
    void executable();
};

void TestReplayServer::pools_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("expectedSize");
    QTest::addColumn<int>("expectedCount");
    QTest::newRow("small_aggtrade") << "small_aggtrade" << 186 << 300000;
    QTest::newRow("medium_kline") << "medium_kline" << 305 << 150000;
    QTest::newRow("large_depth20") << "large_depth20" << 1024 << 60000;
    QTest::newRow("xlarge_depth_diff") << "xlarge_depth_diff" << 9523 << 30000;
    QTest::newRow("huge_ticker_arr") << "huge_ticker_arr" << 455 * 1024 << 600;
    QTest::newRow("multiplex_mix") << "multiplex_mix" << 200 << 120000;
    QTest::newRow("betfair_mcm") << "betfair_mcm" << 100 << 200000;
}

void TestReplayServer::pools()
{
    QFETCH(QString, scenario);
    QFETCH(int, expectedSize);
    QFETCH(int, expectedCount);
    QVERIFY(scenarioNames().contains(scenario));
    QCOMPARE(scenarioDefaultCount(scenario), quint64(expectedCount));
    const auto pool = ScenarioPool::get(scenario);
    QVERIFY(pool);
    QCOMPARE(ScenarioPool::get(scenario), pool); // built once
    if (scenario == QLatin1String("huge_ticker_arr"))
        QVERIFY(pool->messages().size() >= 16);
    else
        QCOMPARE(pool->messages().size(), size_t(500));
    const double size = double(pool->medianSize());
    QVERIFY2(size > 0.8 * expectedSize && size < 1.25 * expectedSize,
             qPrintable(QStringLiteral("median %1 B, table %2 B").arg(size).arg(expectedSize)));
    for (const PoolMessage &message : pool->messages()) {
        QJsonParseError error;
        QJsonDocument::fromJson(message.json, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
    }
    QJsonParseError error;
    QJsonDocument::fromJson(pool->badJson().json, &error);
    QVERIFY(error.error != QJsonParseError::NoError);
}

void TestReplayServer::exactCount_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("firstKey");
    QTest::newRow("small_aggtrade") << "/small_aggtrade" << 1234 << "stream";
    QTest::newRow("medium_kline") << "/medium_kline" << 700 << "stream";
    QTest::newRow("large_depth20") << "/large_depth20" << 300 << "stream";
    QTest::newRow("xlarge_depth_diff") << "/xlarge_depth_diff" << 120 << "stream";
    QTest::newRow("huge_ticker_arr") << "/huge_ticker_arr" << 3 << "stream";
    QTest::newRow("multiplex_mix") << "/multiplex_mix" << 1001 << "stream";
    QTest::newRow("betfair_mcm over ws") << "/betfair_mcm" << 50 << "op";
    QTest::newRow("scenario as a query") << "/?scenario=medium_kline" << 10 << "stream";
}

void TestReplayServer::exactCount()
{
    QFETCH(QString, path);
    QFETCH(int, count);
    QFETCH(QString, firstKey);
    auto server = startServer();
    QVERIFY(server);
    QSignalSpy connected(server.get(), &ReplayServer::clientConnected);
    WsClient client;
    const QString sep = path.contains(QLatin1Char('?')) ? QStringLiteral("&") : QStringLiteral("?");
    client.open(server->port(), path + sep + QStringLiteral("count=%1").arg(count));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), count, 10000);
    QCOMPARE(connected.size(), 1);
    QCOMPARE(server->connectionCount(), 1);
    settle();
    QCOMPARE(client.messages.size(), count); // then quiet, connection kept
    QVERIFY(!client.disconnected);
    QCOMPARE(server->totalSent(), quint64(count));
    for (qsizetype i : {qsizetype(0), qsizetype(count - 1)}) {
        const QJsonObject message = client.json(i);
        QVERIFY2(message.contains(firstKey), qPrintable(client.messages.at(i).left(200)));
    }
    if (path.contains(QLatin1String("kline")))
        QCOMPARE(client.json(0).value(QStringLiteral("stream")).toString(), QStringLiteral("btcusdt@kline_1m"));
    // The event time is the send time, not the time the pool was built.
    if (path == QLatin1String("/small_aggtrade")) {
        const qint64 eventMs = qint64(client.json(0)[QStringLiteral("data")][QStringLiteral("E")].toDouble());
        QVERIFY(qAbs(QDateTime::currentMSecsSinceEpoch() - eventMs) < 10000);
    }
}

void TestReplayServer::binanceUrls()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient combined;
    combined.open(server->port(), QStringLiteral("/stream?streams=btcusdt@aggTrade/ethusdt@aggTrade&count=5"));
    WsClient raw;
    raw.open(server->port(), QStringLiteral("/ws/btcusdt@aggTrade?count=5"));
    QTRY_COMPARE(combined.messages.size(), 5);
    QTRY_COMPARE(raw.messages.size(), 5);
    QCOMPARE(combined.json(0)[QStringLiteral("stream")].toString(), QStringLiteral("btcusdt@aggTrade"));
    combined.socket().sendTextMessage(QStringLiteral(R"({"method":"LIST_SUBSCRIPTIONS","id":3})"));
    QTRY_COMPARE(combined.messages.size(), 6);
    QCOMPARE(combined.messages.last(), QStringLiteral(R"({"result":["btcusdt@aggTrade","ethusdt@aggTrade"],"id":3})"));
    raw.socket().sendTextMessage(QStringLiteral(R"({"method":"LIST_SUBSCRIPTIONS","id":4})"));
    QTRY_COMPARE(raw.messages.size(), 6);
    QCOMPARE(raw.messages.last(), QStringLiteral(R"({"result":["btcusdt@aggTrade"],"id":4})"));
}

void TestReplayServer::betfairHeartbeatAndClk()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient client;
    client.open(server->port(), QStringLiteral("/betfair_mcm?count=2001"));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 2001, 10000);
    QCOMPARE(client.json(0)[QStringLiteral("ct")].toString(), QStringLiteral("SUB_IMAGE"));
    QVERIFY(client.json(0).contains(QStringLiteral("initialClk")));
    qint64 lastClk = 0;
    int heartbeats = 0;
    for (qsizetype i = 0; i < client.messages.size(); ++i) {
        const QJsonObject mcm = client.json(i);
        QCOMPARE(mcm[QStringLiteral("op")].toString(), QStringLiteral("mcm"));
        const qint64 clk = mcm[QStringLiteral("clk")].toString().toLongLong();
        QVERIFY(clk > lastClk);
        lastClk = clk;
        if (mcm[QStringLiteral("ct")].toString() == QLatin1String("HEARTBEAT")) {
            ++heartbeats;
            QVERIFY((i + 1) % 1000 == 0);
        }
    }
    QCOMPARE(heartbeats, 2);
}

namespace {
// U and u of every depth-diff message, in order.
QList<QPair<qint64, qint64>> depthSequence(const WsClient &client)
{
    QList<QPair<qint64, qint64>> seq;
    for (qsizetype i = 0; i < client.messages.size(); ++i) {
        const QJsonObject data = client.json(i)[QStringLiteral("data")].toObject();
        if (data[QStringLiteral("e")].toString() == QLatin1String("depthUpdate"))
            seq.append({data[QStringLiteral("U")].toInteger(), data[QStringLiteral("u")].toInteger()});
    }
    return seq;
}
} // namespace

void TestReplayServer::depthSequenceContinuity()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient client;
    client.open(server->port(), QStringLiteral("/xlarge_depth_diff?count=620")); // wraps the pool
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 620, 10000);
    const auto seq = depthSequence(client);
    QCOMPARE(seq.size(), 620);
    QCOMPARE(seq.first().first, 5000000000LL);
    for (qsizetype i = 0; i < seq.size(); ++i) {
        QCOMPARE(seq[i].second, seq[i].first + 200);
        if (i > 0)
            QCOMPARE(seq[i].first, seq[i - 1].second + 1);
    }
}

void TestReplayServer::gap()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient client;
    client.open(server->port(), QStringLiteral("/xlarge_depth_diff?count=40&misbehave=gap&after=10&gap=3"));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 40, 10000);
    const auto seq = depthSequence(client);
    int gaps = 0;
    for (qsizetype i = 1; i < seq.size(); ++i) {
        if (seq[i].first != seq[i - 1].second + 1) {
            ++gaps;
            QCOMPARE(i, qsizetype(10));
            QCOMPARE(seq[i].first, seq[i - 1].second + 1 + 3 * 201);
        }
    }
    QCOMPARE(gaps, 1);
}

namespace {
// One plain HTTP GET on the server's port (the server runs on this thread: the wait runs the
// event loop); the status line and the body.
QPair<QByteArray, QByteArray> httpGet(quint16 port, const QByteArray &target)
{
    QTcpSocket s;
    QByteArray all;
    QObject::connect(&s, &QTcpSocket::connected, &s, [&s, target] {
        s.write("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    });
    QObject::connect(&s, &QTcpSocket::readyRead, &s, [&s, &all] { all += s.readAll(); });
    s.connectToHost(QHostAddress::LocalHost, port);
    QElapsedTimer waited;
    waited.start();
    while (s.state() != QAbstractSocket::UnconnectedState && waited.elapsed() < 10000)
        QTest::qWait(5);
    all += s.readAll();
    const qsizetype head = all.indexOf("\r\n\r\n");
    return {all.left(all.indexOf("\r\n")), head < 0 ? QByteArray() : all.mid(head + 4)};
}

// A side of a book: price text → quantity text, by price value.
using BookSide = std::map<double, QString>;
void applyLevels(BookSide &side, const QJsonArray &levels)
{
    for (const QJsonValue &v : levels) {
        const QJsonArray l = v.toArray();
        if (l.at(1).toString().toDouble() == 0.0)
            side.erase(l.at(0).toString().toDouble());
        else
            side[l.at(0).toString().toDouble()] = l.at(1).toString();
    }
}
} // namespace

// A book scenario's REST snapshot, as Binance's /api/v3/depth: before any diff the whole pool
// at kFirstSeq − 1; after a connection's diffs, at the last one's u, equal to the first snapshot
// with those diffs applied (what a client keeping the book by Binance's rules holds), never
// crossed; other symbols and scenarios refused as Binance refuses an unknown symbol.
void TestReplayServer::depthSnapshot()
{
    auto server = startServer();
    QVERIFY(server);
    const auto [status0, body0] = httpGet(server->port(), "/book_depth_diff/api/v3/depth?symbol=BTCUSDT&limit=5000");
    QCOMPARE(status0, QByteArray("HTTP/1.1 200 OK"));
    const QJsonObject first = QJsonDocument::fromJson(body0).object();
    QCOMPARE(first.value(QStringLiteral("lastUpdateId")).toInteger(), qint64(ScenarioPool::kFirstSeq - 1));
    BookSide bids;
    BookSide asks;
    applyLevels(bids, first.value(QStringLiteral("bids")).toArray());
    applyLevels(asks, first.value(QStringLiteral("asks")).toArray());
    QVERIFY(bids.size() > 20 && asks.size() > 20);
    QVERIFY(bids.rbegin()->first < asks.begin()->first); // not crossed
    // Best first, as Binance writes them.
    QCOMPARE(first.value(QStringLiteral("bids")).toArray().at(0).toArray().at(0).toString().toDouble(),
             bids.rbegin()->first);

    WsClient client;
    client.open(server->port(), QStringLiteral("/book_depth_diff?count=120"));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 120, 10000);
    qint64 lastU = 0;
    for (qsizetype i = 0; i < client.messages.size(); ++i) {
        const QJsonObject data = client.json(i).value(QStringLiteral("data")).toObject();
        applyLevels(bids, data.value(QStringLiteral("b")).toArray());
        applyLevels(asks, data.value(QStringLiteral("a")).toArray());
        lastU = data.value(QStringLiteral("u")).toInteger();
    }
    const auto [status1, body1] = httpGet(server->port(), "/book_depth_diff/api/v3/depth?symbol=BTCUSDT&limit=1000");
    QCOMPARE(status1, QByteArray("HTTP/1.1 200 OK"));
    const QJsonObject later = QJsonDocument::fromJson(body1).object();
    QCOMPARE(later.value(QStringLiteral("lastUpdateId")).toInteger(), lastU);
    BookSide snapBids;
    BookSide snapAsks;
    applyLevels(snapBids, later.value(QStringLiteral("bids")).toArray());
    applyLevels(snapAsks, later.value(QStringLiteral("asks")).toArray());
    QCOMPARE(snapBids, bids);
    QCOMPARE(snapAsks, asks);
    QVERIFY(bids.rbegin()->first < asks.begin()->first);
    // limit cuts each side.
    const QJsonObject few =
        QJsonDocument::fromJson(httpGet(server->port(), "/book_depth_diff/api/v3/depth?symbol=BTCUSDT&limit=5").second)
            .object();
    QCOMPARE(few.value(QStringLiteral("bids")).toArray().size(), 5);

    // Another symbol, a scenario without a book, the server's default scenario (not a book's).
    for (const QByteArray &target :
         {QByteArray("/book_depth_diff/api/v3/depth?symbol=ETHUSDT"),
          QByteArray("/xlarge_depth_diff/api/v3/depth?symbol=BTCUSDT"), QByteArray("/api/v3/depth?symbol=BTCUSDT")}) {
        const auto [status, body] = httpGet(server->port(), target);
        QCOMPARE(status, QByteArray("HTTP/1.1 400 Bad Request"));
        QCOMPARE(body, QByteArray(R"({"code":-1121,"msg":"Invalid symbol."})"));
    }
    QCOMPARE(server->connectionCount(), 1); // the websocket's: HTTP requests are no stream connections
}

// depth_books: a connection sends the instruments it asks for in turn (S0005USDT..S0007USDT),
// each with its own sequence (U = the instrument's previous u + 1) and its own book; the REST
// snapshot of each is at that instrument's last u and equals its diffs applied to its first
// snapshot; an instrument no connection serves yet is at the start (a bad range: handshake).
void TestReplayServer::depthBooksManyInstruments()
{
    auto server = startServer();
    QVERIFY(server);
    constexpr int kInstruments = 3;
    std::map<QString, std::pair<BookSide, BookSide>> books;
    for (int k = 0; k < kInstruments; ++k) {
        const QString symbol = QStringLiteral("S%1USDT").arg(5 + k, 4, 10, QLatin1Char('0'));
        const auto [status, body] =
            httpGet(server->port(), "/depth_books/api/v3/depth?symbol=" + symbol.toLatin1() + "&limit=5000");
        QCOMPARE(status, QByteArray("HTTP/1.1 200 OK"));
        const QJsonObject snapshot = QJsonDocument::fromJson(body).object();
        QCOMPARE(snapshot.value(QStringLiteral("lastUpdateId")).toInteger(), qint64(ScenarioPool::kFirstSeq - 1));
        applyLevels(books[symbol].first, snapshot.value(QStringLiteral("bids")).toArray());
        applyLevels(books[symbol].second, snapshot.value(QStringLiteral("asks")).toArray());
    }

    WsClient client;
    client.open(server->port(), QStringLiteral("/depth_books?count=31&instruments=3&first_instrument=5"));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 31, 10000);
    std::map<QString, qint64> lastU;
    for (qsizetype i = 0; i < client.messages.size(); ++i) {
        const QJsonObject message = client.json(i);
        const QJsonObject data = message.value(QStringLiteral("data")).toObject();
        const QString symbol = data.value(QStringLiteral("s")).toString();
        QCOMPARE(symbol, QStringLiteral("S%1USDT").arg(5 + i % kInstruments, 4, 10, QLatin1Char('0')));
        QCOMPARE(message.value(QStringLiteral("stream")).toString(), symbol.toLower() + QStringLiteral("@depth@100ms"));
        const qint64 first = data.value(QStringLiteral("U")).toInteger();
        QCOMPARE(first, lastU.count(symbol) ? lastU[symbol] + 1 : qint64(ScenarioPool::kFirstSeq));
        lastU[symbol] = data.value(QStringLiteral("u")).toInteger();
        applyLevels(books[symbol].first, data.value(QStringLiteral("b")).toArray());
        applyLevels(books[symbol].second, data.value(QStringLiteral("a")).toArray());
    }
    QCOMPARE(lastU.size(), std::size_t(kInstruments));
    for (const auto &[symbol, book] : books) {
        const auto [status, body] =
            httpGet(server->port(), "/depth_books/api/v3/depth?symbol=" + symbol.toLatin1() + "&limit=5000");
        QCOMPARE(status, QByteArray("HTTP/1.1 200 OK"));
        const QJsonObject snapshot = QJsonDocument::fromJson(body).object();
        QCOMPARE(snapshot.value(QStringLiteral("lastUpdateId")).toInteger(), lastU[symbol]);
        BookSide bids;
        BookSide asks;
        applyLevels(bids, snapshot.value(QStringLiteral("bids")).toArray());
        applyLevels(asks, snapshot.value(QStringLiteral("asks")).toArray());
        QCOMPARE(bids, book.first);
        QCOMPARE(asks, book.second);
        QVERIFY(bids.rbegin()->first < asks.begin()->first);
    }
    // The instrument after the connection's range has had no diff yet.
    const QJsonObject other =
        QJsonDocument::fromJson(httpGet(server->port(), "/depth_books/api/v3/depth?symbol=S0008USDT").second).object();
    QCOMPARE(other.value(QStringLiteral("lastUpdateId")).toInteger(), qint64(ScenarioPool::kFirstSeq - 1));
    for (const QByteArray &symbol : {QByteArray("BTCUSDT"), QByteArray("S12345USDT"), QByteArray("S00a1USDT")}) {
        const auto [status, body] = httpGet(server->port(), "/depth_books/api/v3/depth?symbol=" + symbol);
        QCOMPARE(status, QByteArray("HTTP/1.1 400 Bad Request"));
    }
}

void TestReplayServer::controlResponses_data()
{
    QTest::addColumn<QString>("request");
    QTest::addColumn<QString>("response");
    QTest::newRow("subscribe, numeric id") << R"({"method":"SUBSCRIBE","params":["ethusdt@aggTrade"],"id":1})"
                                           << R"({"result":null,"id":1})";
    QTest::newRow("subscribe, UUID id")
        << R"({"method":"SUBSCRIBE","params":["ethusdt@aggTrade"],"id":"e2a85d9f-07a5-4f94-8d5f-789dc3deb097"})"
        << R"({"result":null,"id":"e2a85d9f-07a5-4f94-8d5f-789dc3deb097"})";
    QTest::newRow("large numeric id") << R"({"method":"UNSUBSCRIBE","params":["x"],"id":4294967297})"
                                      << R"({"result":null,"id":4294967297})";
    QTest::newRow("list after subscribe")
        << R"({"method":"SUBSCRIBE","params":["a@trade","b@trade"],"id":7}|{"method":"UNSUBSCRIBE","params":["a@trade"],"id":8}|{"method":"LIST_SUBSCRIPTIONS","id":9})"
        << R"({"result":null,"id":7}|{"result":null,"id":8}|{"result":["b@trade"],"id":9})";
    QTest::newRow("unknown method") << R"({"method":"FOO","id":5})"
                                    << R"({"error":{"code":2,"msg":"Invalid request: unknown method"},"id":5})";
    QTest::newRow("invalid JSON") << R"({"method":)"
                                  << R"({"code":3,"msg":"Invalid JSON: )";
}

void TestReplayServer::controlResponses()
{
    QFETCH(QString, request);
    QFETCH(QString, response);
    auto server = startServer();
    QVERIFY(server);
    QSignalSpy controls(server.get(), &ReplayServer::controlReceived);
    WsClient client;
    client.open(server->port(), QStringLiteral("/stream?idle=1"));
    QTRY_VERIFY(client.socket().state() == QAbstractSocket::ConnectedState);
    const QStringList requests = request.split(QLatin1Char('|'));
    const QStringList responses = response.split(QLatin1Char('|'));
    for (const QString &r : requests)
        client.socket().sendTextMessage(r);
    QTRY_COMPARE(client.messages.size(), responses.size());
    QCOMPARE(controls.size(), requests.size());
    QCOMPARE(controls.first().first().toString(), requests.first());
    for (qsizetype i = 0; i < responses.size(); ++i)
        QVERIFY2(client.messages[i].startsWith(responses[i]), qPrintable(client.messages[i]));
    settle(50);
    QCOMPARE(server->totalSent(), quint64(0)); // idle: control answers only
}

void TestReplayServer::waitSubscribe()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient client;
    client.open(server->port(), QStringLiteral("/stream?wait_subscribe=1&count=10"));
    QTRY_VERIFY(client.socket().state() == QAbstractSocket::ConnectedState);
    settle(100);
    QCOMPARE(client.messages.size(), 0);
    client.socket().sendTextMessage(QStringLiteral(R"({"method":"SUBSCRIBE","params":["btcusdt@aggTrade"],"id":1})"));
    QTRY_COMPARE(client.messages.size(), 11);
    QCOMPARE(client.messages.first(), QStringLiteral(R"({"result":null,"id":1})"));
}

void TestReplayServer::pingPongAndClose()
{
    auto server = startServer();
    QVERIFY(server);
    QSignalSpy disconnectedSpy(server.get(), &ReplayServer::clientDisconnected);
    WsClient client;
    QSignalSpy pong(&client.socket(), &QWebSocket::pong);
    client.open(server->port(), QStringLiteral("/?idle=1&ping_ms=50"));
    QTRY_VERIFY(client.socket().state() == QAbstractSocket::ConnectedState);
    client.socket().ping(QByteArrayLiteral("hello"));
    QTRY_COMPARE(pong.size(), 1);
    QCOMPARE(pong.first().at(1).toByteArray(), QByteArrayLiteral("hello"));
    // The server's own pings are answered by QWebSocket; the connection stays up meanwhile.
    settle(120);
    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    client.socket().close(QWebSocketProtocol::CloseCodeNormal);
    QTRY_VERIFY(client.disconnected);
    QTRY_COMPARE(disconnectedSpy.size(), 1);
    QCOMPARE(client.socket().closeCode(), QWebSocketProtocol::CloseCodeNormal);
    QTRY_COMPARE(server->connectionCount(), 0);
}

void TestReplayServer::handshake_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<QByteArray>("responseStart");
    QTest::addColumn<QByteArray>("responseContains");
    const QByteArray headers = "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               "Sec-WebSocket-Version: 13\r\n";
    // The key and accept value of RFC 6455, section 1.3.
    QTest::newRow("upgrade") << "GET /stream?idle=1 HTTP/1.1\r\n" + headers
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
                             << QByteArray("HTTP/1.1 101 ")
                             << QByteArray("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n");
    QTest::newRow("unknown scenario") << "GET /?scenario=nope HTTP/1.1\r\n" + headers
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
                                      << QByteArray("HTTP/1.1 400 ") << QByteArray("unknown scenario \"nope\"");
    QTest::newRow("unknown misbehaviour")
        << "GET /?misbehave=explode HTTP/1.1\r\n" + headers + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        << QByteArray("HTTP/1.1 400 ") << QByteArray("unknown misbehaviour");
    QTest::newRow("instruments beyond S9999USDT")
        << "GET /depth_books?instruments=2&first_instrument=9999 HTTP/1.1\r\n" + headers
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        << QByteArray("HTTP/1.1 400 ") << QByteArray("instruments must be 1 to 10000");
    QTest::newRow("not a websocket request") << QByteArray("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                                             << QByteArray("HTTP/1.1 400 ") << QByteArray("websocket upgrade expected");
}

void TestReplayServer::handshake()
{
    QFETCH(QByteArray, request);
    QFETCH(QByteArray, responseStart);
    QFETCH(QByteArray, responseContains);
    auto server = startServer();
    QVERIFY(server);
    QTcpSocket socket;
    QByteArray response;
    connect(&socket, &QTcpSocket::readyRead, this, [&] { response += socket.readAll(); });
    socket.connectToHost(QHostAddress::LocalHost, server->port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write(request);
    QTRY_VERIFY(response.contains("\r\n\r\n"));
    QVERIFY2(response.startsWith(responseStart), response.constData());
    QTRY_VERIFY2(response.contains(responseContains), response.constData());
    if (responseStart.contains("101")) {
        QTRY_COMPARE(server->connectionCount(), 1);
    } else {
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState); // the server closed it
        QCOMPARE(server->connectionCount(), 0);
    }
}

void TestReplayServer::closeCodes_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<int>("closeCode");
    QTest::newRow("bad_frame") << "misbehave=bad_frame&after=5" << 1002;
    QTest::newRow("invalid_utf8") << "misbehave=invalid_utf8&after=5" << 1007;
    QTest::newRow("oversized") << "misbehave=oversized&after=5&size=200000" << 1009;
}

void TestReplayServer::closeCodes()
{
    QFETCH(QString, query);
    QFETCH(int, closeCode);
    auto server = startServer();
    QVERIFY(server);
    WsClient client(64 * 1024);
    client.open(server->port(), QStringLiteral("/small_aggtrade?count=20&") + query);
    QTRY_VERIFY_WITH_TIMEOUT(client.disconnected, 5000);
    QCOMPARE(int(client.socket().closeCode()), closeCode);
    QCOMPARE(client.messages.size(), 5);
    QTRY_COMPARE(server->connectionCount(), 0);
}

void TestReplayServer::dropOnceThenEvery()
{
    auto server = startServer();
    QVERIFY(server);
    QSignalSpy connected(server.get(), &ReplayServer::clientConnected);
    {
        WsClient first;
        first.open(server->port(), QStringLiteral("/small_aggtrade?count=20&misbehave=drop&after=7"));
        QTRY_VERIFY(first.disconnected);
        QCOMPARE(first.messages.size(), 7);
        QVERIFY(first.socket().closeCode() != QWebSocketProtocol::CloseCodeNormal
                || first.socket().closeReason().isEmpty());
        WsClient second; // the same URL: the drop happened once already
        second.open(server->port(), QStringLiteral("/small_aggtrade?count=20&misbehave=drop&after=7"));
        QTRY_COMPARE(second.messages.size(), 20);
        settle(50);
        QVERIFY(!second.disconnected);
    }
    for (int i = 0; i < 2; ++i) {
        WsClient again;
        again.open(server->port(), QStringLiteral("/small_aggtrade?count=20&misbehave=drop&after=3&drop_every=1"));
        QTRY_VERIFY(again.disconnected);
        QCOMPARE(again.messages.size(), 3);
    }
    QCOMPARE(connected.size(), 4);
    QTRY_COMPARE(server->connectionCount(), 0);
}

void TestReplayServer::silent()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient stuck;
    stuck.open(server->port(), QStringLiteral("/small_aggtrade?count=20&misbehave=silent&after=5"));
    // The clock starts before the connection, so the silence lies inside what it measures
    // however late this thread sees the messages on a busy machine.
    QElapsedTimer clock;
    clock.start();
    WsClient resumes;
    resumes.open(server->port(), QStringLiteral("/small_aggtrade?count=20&misbehave=silent&after=5&silent_ms=300"));
    QTRY_COMPARE(stuck.messages.size(), 5);
    QTRY_COMPARE_WITH_TIMEOUT(resumes.messages.size(), 20, 5000 * streamscope::testing::timeFactor());
    QVERIFY2(clock.elapsed() >= 300, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(stuck.messages.size(), 5);
    QVERIFY(!stuck.disconnected);
    // Still answers control messages while silent.
    stuck.socket().sendTextMessage(QStringLiteral(R"({"method":"LIST_SUBSCRIPTIONS","id":1})"));
    QTRY_COMPARE(stuck.messages.size(), 6);
}

void TestReplayServer::serverSilentAndDropAll()
{
    auto server = startServer();
    QVERIFY(server);
    QSignalSpy disconnectedSpy(server.get(), &ReplayServer::clientDisconnected);
    WsClient client;
    client.open(server->port(), QStringLiteral("/small_aggtrade?loop=1&rate=2000"));
    QTRY_VERIFY(client.messages.size() > 10);
    server->setSilent(true);
    settle(50);
    const qsizetype stalled = client.messages.size();
    settle(150);
    QCOMPARE(client.messages.size(), stalled);
    server->setSilent(false);
    QTRY_VERIFY(client.messages.size() > stalled + 10);
    server->dropAllConnections();
    QTRY_VERIFY(client.disconnected);
    QTRY_COMPARE(disconnectedSpy.size(), 1);
    QCOMPARE(server->connectionCount(), 0);
}

void TestReplayServer::badJson()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient client;
    client.open(server->port(), QStringLiteral("/small_aggtrade?count=20&misbehave=bad_json&after=5"));
    QTRY_COMPARE(client.messages.size(), 20);
    QCOMPARE(server->totalSent(), quint64(20));
    for (qsizetype i = 0; i < client.messages.size(); ++i) {
        QJsonParseError error;
        QJsonDocument::fromJson(client.messages[i].toUtf8(), &error);
        QCOMPARE(error.error != QJsonParseError::NoError, (i + 1) % 5 == 0);
    }
}

void TestReplayServer::stamp()
{
    auto server = startServer();
    QVERIFY(server);
    WsClient client;
    client.open(server->port(), QStringLiteral("/medium_kline?count=600&stamp=1"));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 600, 10000);
    static const QRegularExpression prefix(QStringLiteral(R"(^\{"ts":(\d{19}),"stream":")"));
    const qint64 nowNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    qint64 last = 0;
    for (const QString &message : std::as_const(client.messages)) {
        const auto match = prefix.match(message);
        QVERIFY2(match.hasMatch(), qPrintable(message.left(80)));
        const qint64 ts = match.captured(1).toLongLong();
        QVERIFY(ts >= last);
        QVERIFY(qAbs(nowNs - ts) < 10'000'000'000LL);
        last = ts;
        QVERIFY(QJsonDocument::fromJson(message.toUtf8()).isObject());
    }
}

void TestReplayServer::pacedRate()
{
    auto server = startServer();
    QVERIFY(server);
    // The clock starts before the connection: the pacing lies inside what it measures however
    // late this thread sees the messages, so "never faster than the rate" holds exactly.
    QElapsedTimer clock;
    clock.start();
    WsClient client;
    client.open(server->port(), QStringLiteral("/small_aggtrade?count=150&rate=500"));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 150, 5000 * streamscope::testing::timeFactor());
    const qint64 ms = clock.elapsed(); // the first at once, 149 more at 500/s: 298 ms
    // Not at a fraction of the rate either. The server's token bucket catches up after a late
    // timer, so only a machine stalled for seconds comes near this bound; it scales with the
    // time factor like every bound that must stay.
    QVERIFY2(ms >= 298 && ms < 1500 * streamscope::testing::timeFactor(), qPrintable(QString::number(ms)));
}

void TestReplayServer::lineProtocol_data()
{
    QTest::addColumn<bool>("tls");
    QTest::addColumn<bool>("resubscribe");
    QTest::newRow("tcp") << false << false;
    QTest::newRow("tcp, resubscribe with clk") << false << true;
    QTest::newRow("tls, built-in certificate") << true << false;
}

void TestReplayServer::lineProtocol()
{
    QFETCH(bool, tls);
    QFETCH(bool, resubscribe);
    ReplayOptions options;
    options.protocol = ReplayOptions::Protocol::Line;
    options.scenario = QStringLiteral("betfair_mcm");
    options.count = 1500;
    options.tls = tls;
    options.authSession = QStringLiteral("ssoid-123");
    auto server = startServer(options);
    QVERIFY(server);
    QVERIFY(server->isListening());
    LineClient client(tls);
    client.open(server->port());
    QTRY_COMPARE(client.lines.size(), 1);
    QVERIFY(client.sslErrors.isEmpty());
    QCOMPARE(client.json(0)[QStringLiteral("op")].toString(), QStringLiteral("connection"));
    QVERIFY(!client.json(0)[QStringLiteral("connectionId")].toString().isEmpty());
    client.send(R"({"op":"authentication","id":1,"appKey":"k","session":"ssoid-123"})");
    QTRY_COMPARE(client.lines.size(), 2);
    QCOMPARE(client.lines[1],
             QByteArray(
                 R"({"op":"status","id":1,"statusCode":"SUCCESS","connectionClosed":false,"connectionsAvailable":9})"));
    settle(50);
    QCOMPARE(client.lines.size(), 2); // no data before the subscription
    client.send(
        resubscribe ? QByteArray(
            R"({"op":"marketSubscription","id":2,"initialClk":"abc","clk":"def","marketFilter":{"marketIds":["1.2345"]}})")
                    : QByteArray(R"({"op":"marketSubscription","id":2,"marketFilter":{"marketIds":["1.2345"]}})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.lines.size(), 3 + 1500, 10000);
    QCOMPARE(client.lines[2], QByteArray(R"({"op":"status","id":2,"statusCode":"SUCCESS","connectionClosed":false})"));
    QCOMPARE(client.json(3)[QStringLiteral("ct")].toString(),
             resubscribe ? QStringLiteral("RESUB_DELTA") : QStringLiteral("SUB_IMAGE"));
    QCOMPARE(client.json(3 + 999)[QStringLiteral("ct")].toString(), QStringLiteral("HEARTBEAT"));
    QCOMPARE(client.json(3 + 500)[QStringLiteral("op")].toString(), QStringLiteral("mcm"));
    client.send(R"({"op":"heartbeat","id":"hb-7"})");
    QTRY_COMPARE(client.lines.size(), 3 + 1500 + 1);
    QCOMPARE(client.lines.last(),
             QByteArray(R"({"op":"status","id":"hb-7","statusCode":"SUCCESS","connectionClosed":false})"));
    QCOMPARE(server->totalSent(), quint64(1500));
}

void TestReplayServer::lineAuthFailure()
{
    ReplayOptions options;
    options.protocol = ReplayOptions::Protocol::Line;
    options.scenario = QStringLiteral("betfair_mcm");
    options.authSession = QStringLiteral("right");
    auto server = startServer(options);
    QVERIFY(server);
    LineClient client(false);
    client.open(server->port());
    QTRY_COMPARE(client.lines.size(), 1);
    client.send(R"({"op":"authentication","id":1,"appKey":"k","session":"wrong"})");
    QTRY_VERIFY(client.disconnected);
    QCOMPARE(client.lines.size(), 2);
    const QJsonObject status = client.json(1);
    QCOMPARE(status[QStringLiteral("statusCode")].toString(), QStringLiteral("FAILURE"));
    QCOMPARE(status[QStringLiteral("errorCode")].toString(), QStringLiteral("NO_SESSION"));
    QCOMPARE(status[QStringLiteral("id")].toInt(), 1);
    QCOMPARE(status[QStringLiteral("connectionClosed")].toBool(), true);
    QCOMPARE(server->totalSent(), quint64(0));
}

void TestReplayServer::lineMisbehaviour()
{
    ReplayOptions options;
    options.protocol = ReplayOptions::Protocol::Line;
    options.scenario = QStringLiteral("small_aggtrade"); // starts right after connect
    options.count = 30;
    options.misbehave = QStringLiteral("drop");
    options.after = 12;
    options.dropEvery = true;
    auto server = startServer(options);
    QVERIFY(server);
    LineClient client(false);
    client.open(server->port());
    QTRY_VERIFY(client.disconnected);
    QCOMPARE(client.lines.size(), 1 + 12);
    QCOMPARE(client.json(12)[QStringLiteral("stream")].toString(), QStringLiteral("btcusdt@aggTrade"));

    options.misbehave = QStringLiteral("bad_json");
    options.after = 10;
    auto badJsonServer = startServer(options);
    QVERIFY(badJsonServer);
    LineClient second(false);
    second.open(badJsonServer->port());
    QTRY_COMPARE(second.lines.size(), 1 + 30);
    int bad = 0;
    for (qsizetype i = 1; i < second.lines.size(); ++i)
        bad += QJsonDocument::fromJson(second.lines[i]).isNull() ? 1 : 0;
    QCOMPARE(bad, 3);
}

void TestReplayServer::webSocketTls()
{
    ReplayOptions options;
    options.tls = true;
    auto server = startServer(options);
    QVERIFY(server);
    QWebSocket socket;
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.addCaCertificates(QSslCertificate::fromData(builtinCertificatePem()));
    socket.setSslConfiguration(config);
    QSignalSpy sslErrors(&socket, &QWebSocket::sslErrors);
    int received = 0;
    connect(&socket, &QWebSocket::textMessageReceived, this, [&received] { ++received; });
    socket.open(QUrl(QStringLiteral("wss://127.0.0.1:%1/small_aggtrade?count=2500").arg(server->port())));
    QTRY_COMPARE_WITH_TIMEOUT(received, 2500, 10000);
    QCOMPARE(sslErrors.size(), 0);
    const QSslCertificate peer = socket.sslConfiguration().peerCertificate();
    QCOMPARE(peer, QSslCertificate(builtinCertificatePem()));
    QVERIFY(peer.expiryDate().date().year() >= 2120);
}

void TestReplayServer::serverThread()
{
    ReplayServerThread thread;
    ReplayOptions options;
    options.scenario = QStringLiteral("multiplex_mix");
    const quint16 port = thread.start(options);
    QVERIFY(port != 0);
    QVERIFY(thread.server()->thread() != QThread::currentThread());
    QSignalSpy connected(thread.server(), &ReplayServer::clientConnected);
    WsClient client;
    client.open(port, QStringLiteral("/stream?count=5000"));
    QTRY_COMPARE_WITH_TIMEOUT(client.messages.size(), 5000, 10000);
    QCOMPARE(connected.size(), 1);
    QCOMPARE(thread.server()->totalSent(), quint64(5000));
    QCOMPARE(thread.server()->connectionCount(), 1);
    thread.server()->dropAllConnections();
    QTRY_VERIFY(client.disconnected);
    thread.stop();
    QVERIFY(!thread.isRunning());
    QCOMPARE(thread.start(ReplayOptions{}, QHostAddress::LocalHost, port), port); // restart, same port
}

void TestReplayServer::executable()
{
    QProcess process;
    process.start(QStringLiteral(STREAMSCOPE_REPLAY_EXECUTABLE),
                  {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"),
                   QStringLiteral("medium_kline"), QStringLiteral("--count"), QStringLiteral("7")});
    QVERIFY(process.waitForStarted(5000));
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 10000);
    const QByteArray first = process.readLine().trimmed();
    QVERIFY2(first.startsWith("port "), first.constData());
    const quint16 port = quint16(first.mid(5).toUInt());
    QVERIFY(port != 0);
    WsClient client;
    client.open(port, QStringLiteral("/stream"));
    QTRY_COMPARE(client.messages.size(), 7);
    QCOMPARE(client.json(0)[QStringLiteral("stream")].toString(), QStringLiteral("btcusdt@kline_1m"));
#ifdef Q_OS_UNIX
    process.terminate(); // SIGTERM: a clean exit
    QVERIFY(process.waitForFinished(5000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
#else
    process.kill();
    process.waitForFinished(5000);
#endif
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestReplayServer)
#include "tst_replayserver.moc"
