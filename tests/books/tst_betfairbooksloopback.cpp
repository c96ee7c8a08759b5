// Betfair's price ladders end to end (docs/books.md, "Betfair's rules"): the real engine against a
// Betfair-like stream written in this test, CRLF-delimited JSON over TLS (a QSslServer on
// 127.0.0.1 with the replay server's built-in certificate). It answers the authentication and the
// market subscription, sends a SUB_IMAGE of one market with two runners, then deltas. The
// report's books show both runners' ladders synced; a delta whose market version went back is
// flagged (both books resync, last_resync_reason says why), the engine sends the market
// subscription again without clk, and the image it gets syncs the books again on the same
// connection.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "BookTestSupport.h"

#include "BuiltinCertificate.h"
#include "Engine.h"
#include "Report.h"
#include "StreamSnapshot.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QPointer>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslServer>
#include <QtNetwork/QSslSocket>

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

constexpr const char *kMarket = "1.23456789";

// A Betfair-like stream: the connection message, status answers, one market's image at the
// version it is set to on every market subscription, and whatever the test sends.
class LadderServer {
public:
    bool listen()
    {
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificate(QSslCertificate(replay::builtinCertificatePem(), QSsl::Pem));
        config.setPrivateKey(QSslKey(replay::builtinPrivateKeyPem(), QSsl::Rsa, QSsl::Pem));
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_server.setSslConfiguration(config);
        QObject::connect(&m_server, &QTcpServer::pendingConnectionAvailable, &m_context, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                s->setParent(&m_context);
                m_sockets.append(s);
                QObject::connect(s, &QTcpSocket::readyRead, &m_context, [this, s] { onReadable(s); });
                write(s, R"({"op":"connection","connectionId":"ladders-001"})");
            }
        });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_server.serverPort(); }
    const QStringList &subscriptions() const { return m_subscriptions; }
    int connections() const { return int(m_sockets.size()); }
    int version = 3;

    void sendAll(const QByteArray &line)
    {
        for (QTcpSocket *s : std::as_const(m_sockets))
            if (s)
                write(s, line);
    }
    // A market change message of `mc`, after `head` ("\"ct\":\"SUB_IMAGE\",").
    QByteArray mcm(const QByteArray &head, const QByteArray &mc)
    {
        ++m_clk;
        return R"({"op":"mcm","id":2,"clk":"C)" + QByteArray::number(m_clk) + R"(","pt":)"
            + QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + ',' + head + R"("mc":[)" + mc + "]}";
    }
    QByteArray image() const
    {
        return R"({"id":")" + QByteArray(kMarket) + R"(","img":true,"marketDefinition":{"status":"OPEN","version":)"
            + QByteArray::number(version)
            + R"(},"rc":[{"id":47972,"atb":[[2.5,120.0],[2.48,50]],"atl":[[2.52,80.5]]},)"
              R"({"id":47973,"hc":-1.5,"atb":[[4.1,5]],"atl":[[4.2,7.25],[4.3,1]]}]})";
    }

private:
    static void write(QTcpSocket *s, const QByteArray &line) { s->write(line + "\r\n"); }
    void onReadable(QTcpSocket *s)
    {
        while (s->canReadLine()) {
            const QJsonObject request = QJsonDocument::fromJson(s->readLine().trimmed()).object();
            const QString op = request.value(QStringLiteral("op")).toString();
            const QByteArray id = QByteArray::number(request.value(QStringLiteral("id")).toInteger());
            write(s, R"({"op":"status","id":)" + id + R"(,"statusCode":"SUCCESS","connectionClosed":false})");
            if (op == QLatin1String("marketSubscription")) {
                m_subscriptions << QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Compact));
                write(s, mcm(R"("initialClk":"I1","conflateMs":0,"heartbeatMs":5000,"ct":"SUB_IMAGE",)", image()));
            }
        }
    }

    QObject m_context;
    QSslServer m_server;
    QList<QPointer<QTcpSocket>> m_sockets;
    QStringList m_subscriptions;
    qint64 m_clk = 0;
};

// The report's books entries by instrument.
QHash<QString, QJsonObject> reportBooks(const Engine &engine)
{
    QHash<QString, QJsonObject> out;
    const QJsonObject report = app::buildReport(engine.snapshot(true), 1.0);
    for (const QJsonValue &v :
         report.value(QStringLiteral("streams")).toArray().at(0).toObject().value(QStringLiteral("books")).toArray())
        out.insert(v.toObject().value(QStringLiteral("instrument")).toString(), v.toObject());
    return out;
}

} // namespace

class TestBetfairBooksLoopback : public QObject {
    Q_OBJECT
private slots:
    void laddersSyncAndAVersionGoingBackIsFlagged();
};

void TestBetfairBooksLoopback::laddersSyncAndAVersionGoingBackIsFlagged()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
    {
        QFile f(caFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(replay::builtinCertificatePem());
    }
    qputenv("STREAMSCOPE_LADDERS_APP_KEY", "loopback-app-key");
    qputenv("STREAMSCOPE_LADDERS_SESSION", "loopback-session");
    LadderServer venue;
    QVERIFY(venue.listen());

    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("bf-ladders");
    c.venue = Venue("betfair");
    c.url = QUrl(QStringLiteral("tls://127.0.0.1:%1").arg(venue.port()));
    c.caFile = caFile;
    c.appKey = QStringLiteral("env:STREAMSCOPE_LADDERS_APP_KEY");
    c.session = QStringLiteral("env:STREAMSCOPE_LADDERS_SESSION");
    c.marketSubscription =
        QJsonObject{{QStringLiteral("marketFilter"),
                     QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QLatin1String(kMarket)}}}},
                    {QStringLiteral("marketDataFilter"),
                     QJsonObject{{QStringLiteral("fields"),
                                  QJsonArray{QStringLiteral("EX_ALL_OFFERS"), QStringLiteral("EX_MARKET_DEF")}}}}};
    const StreamId id = engine.addStream(c);
    const QString first = QStringLiteral("1.23456789/47972");
    const QString second = QStringLiteral("1.23456789/47973/-1.5");

    // The image: both runners' ladders synced.
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, first).state, BookState::Synced, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, second).state, BookState::Synced, scaledMs(10000));
    QHash<QString, QJsonObject> books = reportBooks(engine);
    QCOMPARE(books.size(), 2);
    QCOMPARE(books.value(first).value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
    QCOMPARE(books.value(first).value(QStringLiteral("bid_levels")).toInt(), 2);
    QCOMPARE(books.value(first).value(QStringLiteral("ask_levels")).toInt(), 1);
    QCOMPARE(books.value(second).value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
    QCOMPARE(books.value(second).value(QStringLiteral("ask_levels")).toInt(), 2);

    // A delta adds a back level.
    venue.sendAll(venue.mcm({}, R"({"id":"1.23456789","rc":[{"id":47972,"atb":[[2.46,3]]}]})"));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, first).bidLevels, 3, scaledMs(10000));

    // The market's version goes back: flagged, and recovered by a fresh subscription's image.
    venue.sendAll(venue.mcm({}, R"({"id":"1.23456789","marketDefinition":{"version":2},"rc":[]})"));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, first).resyncs, quint64(1), scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(venue.subscriptions().size(), 2, scaledMs(10000));
    QVERIFY2(!venue.subscriptions().at(1).contains(QLatin1String("clk")), qPrintable(venue.subscriptions().at(1)));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, first).state, BookState::Synced, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bookOf(engine, id, second).state, BookState::Synced, scaledMs(10000));
    books = reportBooks(engine);
    for (const QString &runner : {first, second}) {
        const QJsonObject b = books.value(runner);
        QCOMPARE(b.value(QStringLiteral("resyncs")).toInt(), 1);
        QCOMPARE(b.value(QStringLiteral("last_resync_reason")).toString(),
                 QStringLiteral("market 1.23456789: version 2 after 3"));
        QCOMPARE(b.value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
    }
    QCOMPARE(books.value(first).value(QStringLiteral("bid_levels")).toInt(), 2); // the new image's
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    QCOMPARE(venue.connections(), 1);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBetfairBooksLoopback)
#include "tst_betfairbooksloopback.moc"
