// Betfair in depth (docs/venues.md, "Betfair"), against a TLS line server of the test's own on
// 127.0.0.1 (not the replay server), which answers each request as the test says: status
// errorCodes sorted into fatal (Failed, the reason escaped, no reconnect) and retryable
// (reconnect with backoff); the session keep-alive against an HTTP peer on 127.0.0.1 (the
// credentials it sends, SUCCESS and FAIL counted, a FAIL making INVALID_SESSION_INFORMATION
// fatal again); segmented images checked whole and the initial image timed; a market twice
// in one image kept at its higher version and counted.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include "BuiltinCertificate.h"
#include "Report.h"
#include "venues/betfair/BetfairVenue.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslServer>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <functional>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

const QByteArray kDepthAppKey = "depth-test-app-key-91c2";
const QByteArray kDepthSession = "depth-test-session-5be0";

QByteArray line(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// A message as Betfair writes it, "op" first (QJsonDocument would sort it among the others).
QByteArray venueLine(const char *op, const QJsonObject &rest)
{
    const QByteArray head = QByteArray(R"({"op":")") + op + '"';
    return rest.isEmpty() ? head + '}' : head + ',' + line(rest).mid(1);
}

QByteArray success(qint64 id, int connectionsAvailable = -1)
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("statusCode"), QStringLiteral("SUCCESS")},
                  {QStringLiteral("connectionClosed"), false}};
    if (connectionsAvailable >= 0)
        o.insert(QStringLiteral("connectionsAvailable"), connectionsAvailable);
    return venueLine("status", o);
}

QByteArray failure(qint64 id, const QString &code, const QString &message, bool connectionClosed)
{
    QJsonObject o{{QStringLiteral("statusCode"), QStringLiteral("FAILURE")},
                  {QStringLiteral("errorCode"), code},
                  {QStringLiteral("errorMessage"), message},
                  {QStringLiteral("connectionClosed"), connectionClosed}};
    if (id >= 0)
        o.insert(QStringLiteral("id"), id);
    return venueLine("status", o);
}

// One market of a change message: its id and, when >= 0, its definition's version.
struct Market {
    QString id;
    int version = -1;
};

// A market change message: `ct` (empty: a delta), `segmentType` (empty: whole).
QByteArray mcm(const QString &ct, const QString &segmentType, const QList<Market> &markets)
{
    QJsonArray mc;
    for (const Market &m : markets) {
        QJsonObject o{{QStringLiteral("id"), m.id},
                      {QStringLiteral("rc"),
                       QJsonArray{QJsonObject{{QStringLiteral("id"), 47972}, {QStringLiteral("ltp"), 2.5}}}}};
        if (m.version >= 0)
            o.insert(QStringLiteral("marketDefinition"), QJsonObject{{QStringLiteral("version"), m.version}});
        if (ct == QLatin1String("SUB_IMAGE"))
            o.insert(QStringLiteral("img"), true);
        mc.append(o);
    }
    QJsonObject o{{QStringLiteral("id"), 2},
                  {QStringLiteral("clk"), QStringLiteral("AAAA")},
                  {QStringLiteral("pt"), QDateTime::currentMSecsSinceEpoch()},
                  {QStringLiteral("mc"), mc}};
    if (!ct.isEmpty())
        o.insert(QStringLiteral("ct"), ct);
    if (!segmentType.isEmpty())
        o.insert(QStringLiteral("segmentType"), segmentType);
    return venueLine("mcm", o);
}

// A Betfair-like TLS line server: greets every connection with a connection message, hands
// each request line to `onRequest` (the connection's number from 1, the request) and writes
// the lines it returns. Requests are kept.
class BetfairLineServer : public QObject {
public:
    using OnRequest = std::function<QList<QByteArray>(int connection, const QJsonObject &request)>;

    explicit BetfairLineServer(OnRequest onRequest)
        : m_onRequest(std::move(onRequest))
    {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(QSslCertificate(replay::builtinCertificatePem()));
        tls.setPrivateKey(QSslKey(replay::builtinPrivateKeyPem(), QSsl::Rsa));
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_server.setSslConfiguration(tls);
        connect(&m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                const int n = ++connections;
                socket->setParent(this);
                m_latest = socket;
                socket->write(venueLine("connection",
                                        QJsonObject{{QStringLiteral("connectionId"), QStringLiteral("test-%1").arg(n)}})
                              + "\r\n");
                connect(socket, &QTcpSocket::readyRead, this, [this, socket, n] {
                    m_pending[socket] += socket->readAll();
                    QByteArray &buffer = m_pending[socket];
                    for (qsizetype end; (end = buffer.indexOf("\r\n")) >= 0;) {
                        const QJsonObject request = QJsonDocument::fromJson(buffer.left(end)).object();
                        buffer.remove(0, end + 2);
                        requests << request;
                        for (const QByteArray &reply : m_onRequest(n, request))
                            socket->write(reply + "\r\n");
                    }
                });
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    quint16 port() const { return m_server.serverPort(); }
    // Writes `text` to the latest connection.
    void send(const QByteArray &text)
    {
        if (m_latest)
            m_latest->write(text + "\r\n");
    }
    // The requests with this op.
    QList<QJsonObject> requestsOf(const QString &op) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &r : requests)
            if (r.value(QStringLiteral("op")).toString() == op)
                out << r;
        return out;
    }

    int connections = 0;
    QList<QJsonObject> requests;

private:
    QSslServer m_server;
    OnRequest m_onRequest;
    QPointer<QTcpSocket> m_latest;
    QHash<QTcpSocket *, QByteArray> m_pending;
};

// Answers authentication, subscriptions and heartbeats with SUCCESS (connectionsAvailable 9 on
// authentication), and a market subscription with one image message.
QList<QByteArray> answerAll(const QJsonObject &request)
{
    const QString op = request.value(QStringLiteral("op")).toString();
    const qint64 id = request.value(QStringLiteral("id")).toInteger();
    if (op == QLatin1String("authentication"))
        return {success(id, 9)};
    if (op == QLatin1String("marketSubscription"))
        return {success(id), mcm(QStringLiteral("SUB_IMAGE"), QString(), {{QStringLiteral("1.10"), 3}})};
    return {success(id)};
}

// An HTTP peer on 127.0.0.1 standing in for the keep-alive endpoint: answers every request
// with `body` (200) and keeps each request's method, path and headers.
class KeepAlivePeer : public QObject {
public:
    struct Request {
        QByteArray method;
        QByteArray path;
        QHash<QByteArray, QByteArray> headers; // names in lower case
    };
    KeepAlivePeer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onRead(socket); });
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/api/keepAlive").arg(m_server.serverPort())); }

    QByteArray body;
    QList<Request> requests;

private:
    void onRead(QTcpSocket *socket)
    {
        QByteArray &buffer = m_pending[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        buffer.clear();
        Request r;
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        r.method = first.value(0);
        r.path = first.value(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines.at(i).indexOf(':');
            if (colon > 0)
                r.headers.insert(lines.at(i).left(colon).trimmed().toLower(), lines.at(i).mid(colon + 1).trimmed());
        }
        requests << r;
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                      + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_pending;
};

// The report's "betfair" object of the stream (docs/report.md).
QJsonObject reportOf(const StreamSnapshot &s)
{
    return app::buildReport({s}, 1.0)
        .value(QStringLiteral("streams"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("betfair"))
        .toObject();
}

QByteArray keepAliveAnswer(const char *status, const char *error)
{
    // The endpoint's answer carries the session token: it must never be kept or shown.
    return line(QJsonObject{{QStringLiteral("token"), QString::fromLatin1(kDepthSession)},
                            {QStringLiteral("product"), QString::fromLatin1(kDepthAppKey)},
                            {QStringLiteral("status"), QString::fromLatin1(status)},
                            {QStringLiteral("error"), QString::fromLatin1(error)}});
}

} // namespace

class TestBetfairDepth : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void errorActions_data();
    void errorActions();
    void statusErrorCodes_data();
    void statusErrorCodes();
    void keepAliveExtendsTheSession();
    void segmentedImagesArriveWhole();

private:
    StreamConfig betfair(quint16 port) const;
    QTemporaryDir m_dir;
    QString m_caFile;
};

void TestBetfairDepth::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_caFile = m_dir.filePath(QStringLiteral("ca.pem"));
    QFile f(m_caFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(replay::builtinCertificatePem());
    qputenv("STREAMSCOPE_DEPTH_APP_KEY", kDepthAppKey);
    qputenv("STREAMSCOPE_DEPTH_SESSION", kDepthSession);
}

StreamConfig TestBetfairDepth::betfair(quint16 port) const
{
    StreamConfig c;
    c.name = QStringLiteral("bf");
    c.venue = Venue("betfair");
    c.url = QUrl(QStringLiteral("tls://127.0.0.1:%1").arg(port));
    c.appKey = QStringLiteral("env:STREAMSCOPE_DEPTH_APP_KEY");
    c.session = QStringLiteral("env:STREAMSCOPE_DEPTH_SESSION");
    c.marketSubscription =
        QJsonObject{{QStringLiteral("marketFilter"),
                     QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.10")}}}}};
    c.caFile = m_caFile;
    c.heartbeatMs = 30000; // no stale alarm within a test
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    return c;
}

void TestBetfairDepth::errorActions_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("authentication");
    QTest::addColumn<bool>("connectionClosed");
    QTest::addColumn<bool>("keptAlive");
    QTest::addColumn<int>("action");
    using A = BetfairVenue::ErrorAction;
    const auto row = [](const char *name, const char *code, bool auth, bool closed, bool kept, A action) {
        QTest::newRow(name) << QString::fromLatin1(code) << auth << closed << kept << int(action);
    };
    row("NO_APP_KEY", "NO_APP_KEY", true, true, false, A::Fatal);
    row("INVALID_APP_KEY", "INVALID_APP_KEY", true, true, true, A::Fatal);
    row("NOT_AUTHORIZED", "NOT_AUTHORIZED", false, true, false, A::Fatal);
    row("NO_SESSION", "NO_SESSION", true, true, true, A::Fatal);
    row("INVALID_SESSION_INFORMATION, no keep-alive", "INVALID_SESSION_INFORMATION", true, true, false, A::Fatal);
    row("INVALID_SESSION_INFORMATION, kept alive", "INVALID_SESSION_INFORMATION", true, true, true, A::Retry);
    row("MAX_CONNECTION_LIMIT_EXCEEDED", "MAX_CONNECTION_LIMIT_EXCEEDED", true, true, false, A::Fatal);
    row("SUBSCRIPTION_LIMIT_EXCEEDED", "SUBSCRIPTION_LIMIT_EXCEEDED", false, true, false, A::Fatal);
    row("INVALID_INPUT", "INVALID_INPUT", false, false, false, A::Fatal);
    row("INVALID_REQUEST", "INVALID_REQUEST", false, true, false, A::Fatal);
    row("TIMEOUT", "TIMEOUT", false, true, false, A::Retry);
    row("TIMEOUT on authentication", "TIMEOUT", true, true, false, A::Retry);
    row("TOO_MANY_REQUESTS, connection kept", "TOO_MANY_REQUESTS", false, false, false, A::Retry);
    row("UNEXPECTED_ERROR", "UNEXPECTED_ERROR", false, true, false, A::Retry);
    row("CONNECTION_FAILED", "CONNECTION_FAILED", false, true, false, A::Retry);
    row("INVALID_CLOCK", "INVALID_CLOCK", false, true, false, A::RetryFresh);
    row("unknown on authentication", "SOMETHING_NEW", true, false, false, A::Fatal);
    row("unknown, connection closed", "SOMETHING_NEW", false, true, false, A::Retry);
    row("unknown, connection kept", "SOMETHING_NEW", false, false, false, A::Record);
}

void TestBetfairDepth::errorActions()
{
    QFETCH(QString, code);
    QFETCH(bool, authentication);
    QFETCH(bool, connectionClosed);
    QFETCH(bool, keptAlive);
    QFETCH(int, action);
    QCOMPARE(int(BetfairVenue::errorAction(code, authentication, connectionClosed, keptAlive)), action);
}

void TestBetfairDepth::statusErrorCodes_data()
{
    QTest::addColumn<QString>("op"); // the request the first connection's FAILURE answers
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("connectionClosed");
    QTest::addColumn<bool>("fatal");
    const auto row = [](const char *op, const char *code, bool closed, bool fatal) {
        QTest::addRow("%s to %s", code, op) << QString::fromLatin1(op) << QString::fromLatin1(code) << closed << fatal;
    };
    // The fatal ones on a subscription with the connection closed: before they were sorted,
    // such a FAILURE was reconnected. The retryable ones with the connection kept: before, it
    // was only recorded.
    row("marketSubscription", "NO_APP_KEY", true, true);
    row("marketSubscription", "INVALID_APP_KEY", true, true);
    row("marketSubscription", "NOT_AUTHORIZED", true, true);
    row("marketSubscription", "INVALID_SESSION_INFORMATION", true, true);
    row("marketSubscription", "MAX_CONNECTION_LIMIT_EXCEEDED", true, true);
    row("marketSubscription", "SUBSCRIPTION_LIMIT_EXCEEDED", true, true);
    row("marketSubscription", "TIMEOUT", false, false);
    row("marketSubscription", "TOO_MANY_REQUESTS", false, false);
    row("marketSubscription", "UNEXPECTED_ERROR", false, false);
    row("marketSubscription", "CONNECTION_FAILED", false, false);
    row("authentication", "TIMEOUT", true, false); // before: any refused authentication was Failed
}

void TestBetfairDepth::statusErrorCodes()
{
    QFETCH(QString, op);
    QFETCH(QString, code);
    QFETCH(bool, connectionClosed);
    QFETCH(bool, fatal);
    const QString text = QStringLiteral("refused\x1b[2J by the venue");
    bool refused = false; // the first connection answers nothing after its FAILURE
    BetfairLineServer server([&](int connection, const QJsonObject &request) -> QList<QByteArray> {
        if (connection == 1 && refused)
            return {};
        if (connection == 1 && request.value(QStringLiteral("op")).toString() == op) {
            refused = true;
            return {failure(request.value(QStringLiteral("id")).toInteger(), code, text, connectionClosed)};
        }
        return answerAll(request);
    });
    QVERIFY(server.listen());
    Engine engine;
    const StreamId id = engine.addStream(betfair(server.port()));
    if (fatal) {
        QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Failed, scaledMs(20000));
        QTest::qWait(scaledMs(400)); // a retry would have come by now (backoff 50-200 ms)
        const StreamSnapshot s = snap(engine, id);
        QCOMPARE(s.state, StreamState::Failed);
        QCOMPARE(server.connections, 1);
        QCOMPARE(s.reconnects, quint64(0));
        QCOMPARE(s.venueErrorCode, code);
        QVERIFY2(s.stateReason.contains(code), qPrintable(s.stateReason));
        QVERIFY2(s.stateReason.contains(QLatin1String("refused\\x1b[2J by the venue")), qPrintable(s.stateReason));
        QVERIFY(!s.stateReason.contains(QChar(0x1b)));
        QVERIFY2(s.stateReason.contains(QLatin1String("not retried")), qPrintable(s.stateReason));
        QCOMPARE(s.connectionsAvailable, op == QLatin1String("authentication") ? -1 : 9);
        return;
    }
    QTRY_COMPARE_WITH_TIMEOUT(server.connections, 2, scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Live, scaledMs(20000));
    const StreamSnapshot s = snap(engine, id);
    QCOMPARE(s.reconnects, quint64(1));
    QCOMPARE(s.venueErrorCode, code);
    QCOMPARE(s.connectionsAvailable, 9);
    QCOMPARE(server.requestsOf(QStringLiteral("authentication")).size(), 2);
    QCOMPARE(s.images, quint64(1)); // the second connection's
    QVERIFY(s.initialImageMs >= 0); // a one-message image: timed at its arrival
}

void TestBetfairDepth::keepAliveExtendsTheSession()
{
    KeepAlivePeer peer;
    QVERIFY(peer.listen());
    peer.body = keepAliveAnswer("SUCCESS", "");
    BetfairLineServer server([](int, const QJsonObject &request) { return answerAll(request); });
    QVERIFY(server.listen());
    Engine engine;
    QStringList events;
    connect(&engine, &Engine::eventOccurred, this, [&](const StreamEvent &e) { events << e.text; });
    StreamConfig c = betfair(server.port());
    c.keepAliveUrl = peer.url();
    c.keepAliveS = 1;
    const StreamId id = engine.addStream(c);
    QTRY_VERIFY_WITH_TIMEOUT(snap(engine, id).keepAlive.succeeded >= 2, scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Live, scaledMs(20000));
    StreamSnapshot s = snap(engine, id);
    QVERIFY(s.keepAlive.configured);
    QCOMPARE(s.keepAlive.lastStatus, QStringLiteral("SUCCESS"));
    QCOMPARE(s.keepAlive.failed, quint64(0));
    QCOMPARE(s.keepAlive.errors, quint64(0));
    QVERIFY(peer.requests.size() >= 2);
    for (const KeepAlivePeer::Request &r : std::as_const(peer.requests)) {
        QCOMPARE(r.method, QByteArray("GET"));
        QCOMPARE(r.path, QByteArray("/api/keepAlive"));
        QCOMPARE(r.headers.value("x-authentication"), kDepthSession);
        QCOMPARE(r.headers.value("x-application"), kDepthAppKey);
        QCOMPARE(r.headers.value("accept"), QByteArray("application/json"));
    }

    // The session is kept alive: the venue's INVALID_SESSION_INFORMATION is retried.
    server.send(failure(-1, QStringLiteral("INVALID_SESSION_INFORMATION"), QStringLiteral("session expired"), true));
    QTRY_COMPARE_WITH_TIMEOUT(server.connections, 2, scaledMs(20000));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Live, scaledMs(20000));
    QCOMPARE(snap(engine, id).reconnects, quint64(1));

    // The endpoint says FAIL: the session is no longer extended, and the same refusal stops
    // the stream.
    peer.body = keepAliveAnswer("FAIL", "NO_SESSION");
    QTRY_VERIFY_WITH_TIMEOUT(snap(engine, id).keepAlive.failed >= 1, scaledMs(20000));
    s = snap(engine, id);
    QCOMPARE(s.keepAlive.lastStatus, QStringLiteral("FAIL"));
    QCOMPARE(s.keepAlive.lastError, QStringLiteral("NO_SESSION"));
    server.send(failure(-1, QStringLiteral("INVALID_SESSION_INFORMATION"), QStringLiteral("session expired"), true));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).state, StreamState::Failed, scaledMs(20000));
    QTest::qWait(scaledMs(400)); // a retry would have come by now
    s = snap(engine, id);
    QCOMPARE(s.state, StreamState::Failed);
    QCOMPARE(server.connections, 2);
    QVERIFY2(s.stateReason.contains(QLatin1String("INVALID_SESSION_INFORMATION")), qPrintable(s.stateReason));
    // The token the endpoint answered with (the session) is shown nowhere.
    for (const QString &t : std::as_const(events))
        QVERIFY2(!t.contains(QLatin1String(kDepthSession)) && !t.contains(QLatin1String(kDepthAppKey)), qPrintable(t));
    QVERIFY(!s.keepAlive.lastError.contains(QLatin1String(kDepthSession)));
    QVERIFY(!s.stateReason.contains(QLatin1String(kDepthSession)));
    const QJsonObject keepAlive = reportOf(s).value(QStringLiteral("keep_alive")).toObject();
    QVERIFY(keepAlive.value(QStringLiteral("succeeded")).toInteger() >= 2);
    QVERIFY(keepAlive.value(QStringLiteral("failed")).toInteger() >= 1);
    QCOMPARE(keepAlive.value(QStringLiteral("errors")).toInteger(), qint64(0));
    QCOMPARE(keepAlive.value(QStringLiteral("last_status")).toString(), QStringLiteral("FAIL"));
    QCOMPARE(keepAlive.value(QStringLiteral("last_error")).toString(), QStringLiteral("NO_SESSION"));
}

void TestBetfairDepth::segmentedImagesArriveWhole()
{
    // The image comes in four segments, the last 600 ms after the first: its time is to the
    // last. Market 1.1 is in it three times (versions 5, 7, 6): 7 is kept, two duplicates.
    BetfairLineServer server([](int, const QJsonObject &request) -> QList<QByteArray> {
        const QString op = request.value(QStringLiteral("op")).toString();
        const qint64 id = request.value(QStringLiteral("id")).toInteger();
        if (op == QLatin1String("authentication"))
            return {success(id, 9)};
        if (op == QLatin1String("marketSubscription"))
            return {success(id),
                    mcm(QStringLiteral("SUB_IMAGE"), QStringLiteral("SEG_START"),
                        {{QStringLiteral("1.1"), 5}, {QStringLiteral("1.2"), 1}})};
        return {success(id)};
    });
    QVERIFY(server.listen());
    Engine engine;
    QStringList events;
    connect(&engine, &Engine::eventOccurred, this, [&](const StreamEvent &e) { events << e.text; });
    const StreamId id = engine.addStream(betfair(server.port()));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(1), scaledMs(20000));
    QTest::qWait(300);
    QCOMPARE(snap(engine, id).initialImageMs, qint64(-1)); // not complete yet
    // Apart, so that each duplicate's event gets through the event log's limit (one of a kind
    // every 100 ms; the counters are exact regardless).
    server.send(mcm(QString(), QStringLiteral("SEG"), {{QStringLiteral("1.1"), 7}}));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(2), scaledMs(20000));
    QTest::qWait(150);
    server.send(mcm(QString(), QStringLiteral("SEG"), {{QStringLiteral("1.1"), 6}}));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(3), scaledMs(20000));
    QTest::qWait(150);
    server.send(mcm(QString(), QStringLiteral("SEG_END"), {{QStringLiteral("1.3"), 2}}));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(4), scaledMs(20000));
    StreamSnapshot s = snap(engine, id);
    QVERIFY2(s.initialImageMs >= 600, qPrintable(QString::number(s.initialImageMs)));
    QCOMPARE(s.images, quint64(1));
    QCOMPARE(s.imageMarkets, 3);
    QCOMPARE(s.duplicateMarkets, quint64(2));
    QCOMPARE(s.incompleteImages, quint64(0));
    QCOMPARE(s.updates, quint64(1)); // the segmented image is one update
    // Events come through the facade's queue: they may trail the snapshot.
    QTRY_VERIFY2_WITH_TIMEOUT(
        events.contains(QStringLiteral("market 1.1 twice in one image (versions 5 and 7): version 7 kept"))
            && events.contains(QStringLiteral("market 1.1 twice in one image (versions 7 and 6): version 7 kept")),
        qPrintable(events.join(QLatin1Char('\n'))), scaledMs(20000));

    // Broken segmented changes: an image interrupted by a delta, a SEG_START before the open
    // one's SEG_END, a SEG whose SEG_START never came.
    server.send(mcm(QString(), QString(), {{QStringLiteral("1.1"), -1}}));
    server.send(mcm(QStringLiteral("SUB_IMAGE"), QStringLiteral("SEG_START"), {{QStringLiteral("2.1"), 1}}));
    server.send(mcm(QString(), QString(), {{QStringLiteral("2.1"), -1}})); // incomplete 1
    server.send(mcm(QString(), QStringLiteral("SEG_START"), {{QStringLiteral("2.1"), -1}}));
    server.send(mcm(QString(), QStringLiteral("SEG_START"), {{QStringLiteral("2.1"), -1}})); // incomplete 2
    server.send(mcm(QString(), QStringLiteral("SEG_END"), {{QStringLiteral("2.1"), -1}}));
    server.send(mcm(QString(), QStringLiteral("SEG"), {{QStringLiteral("2.1"), -1}})); // incomplete 3
    server.send(mcm(QString(), QStringLiteral("SEG_END"), {{QStringLiteral("2.1"), -1}}));
    server.send(mcm(QString(), QString(), {{QStringLiteral("2.1"), -1}}));
    QTRY_COMPARE_WITH_TIMEOUT(snap(engine, id).dataMessages, quint64(13), scaledMs(20000));
    s = snap(engine, id);
    QCOMPARE(s.incompleteImages, quint64(3));
    QCOMPARE(s.images, quint64(2));
    QCOMPARE(s.imageMarkets, 3); // the interrupted image's markets are not taken
    QCOMPARE(s.duplicateMarkets, quint64(2));
    QCOMPARE(s.segments, quint64(10));
    QVERIFY(s.initialImageMs >= 600); // the initial image's, not the interrupted one's
    QCOMPARE(s.reconnects, quint64(0));
    QCOMPARE(s.parseErrors, quint64(0));
    const QJsonObject bf = reportOf(s);
    QCOMPARE(bf.value(QStringLiteral("incomplete_images")).toInteger(), qint64(3));
    QCOMPARE(bf.value(QStringLiteral("duplicate_markets")).toInteger(), qint64(2));
    QCOMPARE(bf.value(QStringLiteral("image_markets")).toInteger(), qint64(3));
    QCOMPARE(bf.value(QStringLiteral("initial_image_ms")).toInteger(), s.initialImageMs);
    QVERIFY(!bf.contains(QStringLiteral("keep_alive"))); // none configured
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBetfairDepth)
#include "tst_betfairdepth.moc"
