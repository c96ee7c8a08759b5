// OKX's notice 64008 ("the connection will soon be closed for a service upgrade") answered by a
// make-before-break rollover (docs/venues.md, "OKX"): a websocket server of this test's own on
// 127.0.0.1 publishes one numbered trade stream to every subscribed connection, sends the
// notice on the first connection, keeps publishing, and closes that connection 100 trades
// later, as OKX does. The stream opens and subscribes a replacement when the notice comes, the
// overlap is de-duplicated by trade id, and every trade is counted exactly once: no reconnect,
// no trade lost, none counted twice.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>

#include <algorithm>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

constexpr int kTrades = 400;
constexpr int kNoticeAt = 100;   // the notice follows this trade, on the first connection
constexpr int kCloseAfter = 100; // that connection is closed this many trades later

// One market's trades, published to every subscribed connection: trade n goes to all of them
// at once, as a venue's fan-out does.
class OkxUpgradeServer : public QObject {
public:
    OkxUpgradeServer()
        : m_server(QStringLiteral("okx-like"), QWebSocketServer::NonSecureMode)
    {
        connect(&m_server, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                sockets << socket;
                connect(socket, &QWebSocket::textMessageReceived, this, [this, socket](const QString &text) {
                    if (text == QLatin1String("ping")) {
                        socket->sendTextMessage(QStringLiteral("pong"));
                        return;
                    }
                    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
                    if (o.value(QStringLiteral("op")).toString() != QLatin1String("subscribe"))
                        return;
                    // OKX writes "event" first (QJsonDocument would sort the keys).
                    for (const QJsonValue &arg : o.value(QStringLiteral("args")).toArray())
                        socket->sendTextMessage(
                            QStringLiteral(R"({"event":"subscribe","arg":%1,"connId":"c1"})")
                                .arg(QString::fromUtf8(QJsonDocument(arg.toObject()).toJson(QJsonDocument::Compact))));
                    subscribed << socket;
                    if (!m_timer.isActive())
                        m_timer.start();
                });
            }
        });
        m_timer.setInterval(10);
        connect(&m_timer, &QTimer::timeout, this, &OkxUpgradeServer::publish);
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl url() const { return QUrl(QStringLiteral("ws://127.0.0.1:%1/ws/v5/public").arg(m_server.serverPort())); }

    QList<QPointer<QWebSocket>> sockets;
    QList<QPointer<QWebSocket>> subscribed;
    int published = 0;

private:
    void publish()
    {
        if (published == kTrades) {
            m_timer.stop();
            return;
        }
        ++published;
        const QString trade = QStringLiteral(R"({"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":)"
                                             R"("BTC-USDT","tradeId":"%1","px":"42219.9","sz":"0.1","side":"buy",)"
                                             R"("ts":"%2","count":"1"}]})")
                                  .arg(published)
                                  .arg(QDateTime::currentMSecsSinceEpoch());
        for (const QPointer<QWebSocket> &s : std::as_const(subscribed))
            if (s && s->state() == QAbstractSocket::ConnectedState)
                s->sendTextMessage(trade);
        QWebSocket *first = subscribed.value(0);
        if (published == kNoticeAt && first)
            first->sendTextMessage(QStringLiteral(
                R"({"event":"notice","code":"64008","msg":"The connection will soon be closed for a service )"
                R"(upgrade. Please reconnect.","connId":"c1"})"));
        if (published == kNoticeAt + kCloseAfter && first)
            first->close(QWebSocketProtocol::CloseCodeGoingAway, QStringLiteral("service upgrade"));
    }

    QWebSocketServer m_server;
    QTimer m_timer;
};

} // namespace

class TestOkxRollover : public QObject {
    Q_OBJECT
private slots:
    void upgradeNoticeRollsOverWithoutLoss();
};

void TestOkxRollover::upgradeNoticeRollsOverWithoutLoss()
{
    OkxUpgradeServer server;
    QVERIFY(server.listen());
    QList<StreamEvent> events; // before the engine, which may publish while it stops
    Engine engine;
    connect(&engine, &Engine::eventOccurred, this, [&events](const StreamEvent &e) { events << e; });
    StreamConfig c = channelStream("okx", server.url(), {QStringLiteral("trades:BTC-USDT")});
    c.pingIntervalMs = 25000; // no keep-alive within the run
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(server.published, kTrades, scaledMs(30000));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).dataMessages, quint64(kTrades), scaledMs(10000));
    const StreamSnapshot s = engine.snapshot(id);
    QCOMPARE(s.dataMessages, quint64(kTrades)); // every trade once
    QCOMPARE(s.venueNotices, quint64(1));
    QVERIFY2(s.venueNotice.startsWith(QStringLiteral("64008: The connection will soon be closed")),
             qPrintable(s.venueNotice));
    QCOMPARE(s.rollovers, quint64(1));
    QCOMPARE(s.reconnects, quint64(0));
    QVERIFY(s.duplicates > 0); // both connections delivered the overlap
    QCOMPARE(server.sockets.size(), 2);
    QCOMPARE(s.state, StreamState::Live);
    QVERIFY(std::any_of(events.cbegin(), events.cend(), [](const StreamEvent &e) {
        return e.kind == EventKind::Info && e.text.contains(QLatin1String("rollover of connection 1 started"))
            && e.text.contains(QLatin1String("64008"));
    }));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestOkxRollover)
#include "tst_okxrollover.moc"
