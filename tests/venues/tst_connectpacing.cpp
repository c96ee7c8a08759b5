// Connection attempts paced per venue across the engine (docs/venues.md, "Venues side by
// side"): two OKX streams on two workers, each split over six connections, start at once
// against a websocket server of this test's own on 127.0.0.1 that notes when each connection
// arrives. OKX allows 3 connection attempts a second per IP address: the twelve arrive three
// at a time, a window apart, and the streams say why they wait.

#include "../common/TestRegistry.h"
#include "VenueTestSupport.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <algorithm>
#include <vector>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

// Notes the time each TCP connection arrives, then hands it to a websocket server that answers
// OKX's subscribe requests.
class CountingOkxServer : public QObject {
public:
    CountingOkxServer()
        : m_ws(QStringLiteral("okx-like"), QWebSocketServer::NonSecureMode)
    {
        m_clock.start();
        connect(&m_tcp, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_tcp.nextPendingConnection()) {
                arrivalsMs.push_back(m_clock.elapsed());
                m_ws.handleConnection(socket);
            }
        });
        connect(&m_ws, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket *socket = m_ws.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QWebSocket::textMessageReceived, this, [socket](const QString &text) {
                    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
                    // OKX writes "event" first (QJsonDocument would sort the keys).
                    for (const QJsonValue &arg : o.value(QStringLiteral("args")).toArray())
                        socket->sendTextMessage(
                            QStringLiteral(R"({"event":"subscribe","arg":%1})")
                                .arg(QString::fromUtf8(QJsonDocument(arg.toObject()).toJson(QJsonDocument::Compact))));
                });
            }
        });
    }
    bool listen() { return m_tcp.listen(QHostAddress::LocalHost); }
    QUrl url() const { return QUrl(QStringLiteral("ws://127.0.0.1:%1/ws/v5/public").arg(m_tcp.serverPort())); }

    std::vector<qint64> arrivalsMs;
    qint64 nowMs() const { return m_clock.elapsed(); }

private:
    QElapsedTimer m_clock;
    QTcpServer m_tcp;
    QWebSocketServer m_ws;
};

// The most arrivals within any half-open span of `spanMs`.
int mostWithin(std::vector<qint64> times, qint64 spanMs)
{
    std::sort(times.begin(), times.end());
    int most = 0;
    std::size_t from = 0;
    for (std::size_t to = 0; to < times.size(); ++to) {
        while (times[to] - times[from] >= spanMs)
            ++from;
        most = std::max(most, int(to - from + 1));
    }
    return most;
}

} // namespace

class TestConnectPacing : public QObject {
    Q_OBJECT
private slots:
    void okxConnectionsPacedAcrossStreams();
};

void TestConnectPacing::okxConnectionsPacedAcrossStreams()
{
    CountingOkxServer server;
    QVERIFY(server.listen());
    quint16 closedPort = 0; // a port that was just free: nothing listens there
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        closedPort = probe.serverPort();
    }
    QList<StreamEvent> events; // before the engine, which may publish while it stops
    Engine engine(Engine::Options{.workerCount = 2});
    connect(&engine, &Engine::eventOccurred, this, [&events](const StreamEvent &e) { events << e; });
    constexpr int kStreams = 2;
    constexpr int kShards = 6;
    std::vector<StreamId> ids;
    const qint64 addedMs = server.nowMs();
    for (int s = 0; s < kStreams; ++s) {
        QStringList pairs;
        for (int i = 0; i < kShards; ++i)
            pairs << QStringLiteral("trades:C%1%2-USDT").arg(s).arg(i);
        StreamConfig c = channelStream("okx", server.url(), pairs);
        c.name = QStringLiteral("okx-%1").arg(s);
        c.maxStreamsPerConnection = 1; // one connection a pair
        // The server time is asked elsewhere (a port nothing serves): only the streams'
        // connections arrive at the server.
        c.restUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(closedPort));
        ids.push_back(engine.addStream(c));
    }
    constexpr int kConnections = kStreams * kShards;
    QTRY_COMPARE_WITH_TIMEOUT(int(server.arrivalsMs.size()), kConnections, scaledMs(30000));
    const std::vector<qint64> &t = server.arrivalsMs;
    QString arrivals;
    for (const qint64 ms : t)
        arrivals += QString::number(ms - t.front()) + QLatin1Char(' ');
    qInfo("arrivals (ms after the first): %s", qPrintable(arrivals));
    // Three at a time, 1.1 s apart: never four within half a second (the rest of the window is
    // left to the scheduling of a busy machine), and the twelve take three windows at least from
    // when the streams were added (not from the first arrival, which a busy machine may note
    // late: a connection arrives after its slot, never before).
    QVERIFY2(mostWithin(t, 500) <= 3, qPrintable(arrivals));
    QVERIFY2(*std::max_element(t.begin(), t.end()) - addedMs >= 3000, qPrintable(arrivals));
    for (const StreamId id : ids)
        QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    // The waits are said, with the venue's rule.
    QVERIFY(std::any_of(events.cbegin(), events.cend(), [](const StreamEvent &e) {
        return e.kind == EventKind::Info && e.text.contains(QLatin1String("wait for a connection slot"))
            && e.text.contains(QLatin1String("OKX allows 3 connection attempts a second per IP address"));
    }));
    QCOMPARE(int(server.arrivalsMs.size()), kConnections); // no attempt beyond them
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestConnectPacing)
#include "tst_connectpacing.moc"
