// An agent's stream in the window, against a fake agent on loopback whose answers are fixed:
// the Details pane's figures are the agent's (its rate over its own run, its clock offset),
// View → Corrected latency applies to it, and the inspector names it and says why it has
// no messages to show.

#include "../common/TestRegistry.h"
#include "DepthLadder.h"
#include "Engine.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "RemoteAgent.h"
#include "StreamDetails.h"
#include "StreamTableModel.h"

#include "../common/TimeFactor.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QAction>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QTest>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableView>

#include <cmath>

using namespace streamscope;
using namespace streamscope::ui;
using streamscope::testing::scaledMs;

namespace {

constexpr double kAgentRate = 399.0; // msgs/s, since the agent started

// GET /api/v1/streams of an agent that started 100 s before its first answer and has one
// stream at kAgentRate msgs/s, whose venue clock is 0.521 ms ahead (corrected latency ~1 ms, raw
// latencies all negative). Each answer is one second further on.
class FakeAgent : public QObject {
public:
    FakeAgent()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    m_request += socket->readAll();
                    if (!m_request.contains("\r\n\r\n"))
                        return;
                    m_request.clear();
                    const QByteArray body = answer();
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                  "Content-Length: "
                                  + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }

private:
    QByteArray answer()
    {
        const double durationS = 100.0 + m_answers++;
        const qint64 messages = qint64(kAgentRate * durationS);
        const qint64 samples = messages;
        // One [bucket, count] pair. (Braces around a lone QJsonArray would copy it with clang.)
        QJsonArray corrected;
        corrected.append(QJsonArray{LatencyBuckets::index(1000), samples});
        const QJsonObject stream{{QStringLiteral("name"), QStringLiteral("clock-off")},
                                 {QStringLiteral("venue"), QStringLiteral("binance")},
                                 {QStringLiteral("mode"), QStringLiteral("parsed")},
                                 {QStringLiteral("state"), QStringLiteral("live")},
                                 {QStringLiteral("url"), QStringLiteral("ws://127.0.0.1:1/x")},
                                 {QStringLiteral("messages"), messages},
                                 {QStringLiteral("data_messages"), messages},
                                 {QStringLiteral("bytes"), messages * 100},
                                 {QStringLiteral("rate_msgs_per_s"), kAgentRate},
                                 {QStringLiteral("latency_ms"),
                                  QJsonObject{{QStringLiteral("count"), 0},
                                              {QStringLiteral("negative"), samples},
                                              {QStringLiteral("invalid"), 0}}},
                                 {QStringLiteral("clock_offset_ms"), 0.521},
                                 {QStringLiteral("books"),
                                  QJsonArray{QJsonObject{{QStringLiteral("instrument"), QStringLiteral("BTCUSDT")},
                                                         {QStringLiteral("state"), QStringLiteral("crossed")},
                                                         {QStringLiteral("crossed_episodes"), 2},
                                                         {QStringLiteral("audits"), 4},
                                                         {QStringLiteral("last_audit_match_ratio"), 0.75},
                                                         {QStringLiteral("min_audit_match_ratio"), 0.5},
                                                         {QStringLiteral("stale_levels"), 3}},
                                             QJsonObject{{QStringLiteral("instrument"), QStringLiteral("ETHUSDT")},
                                                         {QStringLiteral("state"), QStringLiteral("synced")}}}},
                                 {QStringLiteral("clock_offset_uncertainty_ms"), 0.2},
                                 {QStringLiteral("clock_offset_source"), QStringLiteral("server_time")},
                                 {QStringLiteral("latency_floor_ms"), -0.4},
                                 {QStringLiteral("clock_note"), QStringLiteral("clock behind the venue by ~0.5 ms")},
                                 {QStringLiteral("latency_corrected_ms"),
                                  QJsonObject{{QStringLiteral("count"), samples}, {QStringLiteral("negative"), 0}}},
                                 {QStringLiteral("live"),
                                  QJsonObject{{QStringLiteral("last_message_age_ms"), 1},
                                              {QStringLiteral("latency_buckets"), QJsonArray()},
                                              {QStringLiteral("latency_corrected_buckets"), corrected},
                                              {QStringLiteral("latency_corrected_sum_us"), samples * 1000},
                                              {QStringLiteral("latency_corrected_max_us"), 1100}}}};
        return QJsonDocument(QJsonObject{{QStringLiteral("version"), 1},
                                         {QStringLiteral("duration_s"), durationS},
                                         {QStringLiteral("streams"), QJsonArray{stream}}})
            .toJson(QJsonDocument::Compact);
    }

    QTcpServer m_server;
    QByteArray m_request;
    int m_answers = 0;
};

} // namespace

class tst_AgentRows : public QObject {
    Q_OBJECT
private slots:
    void figuresAreTheAgents();
};

void tst_AgentRows::figuresAreTheAgents()
{
    FakeAgent agent;
    QVERIFY(agent.url().port() > 0);
    Engine engine;
    MainWindow w(&engine);
    w.setWorkspace(Workspace(), QString());
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.connectAgent(QStringLiteral("alpha"), agent.url());
    QTRY_COMPARE_WITH_TIMEOUT(w.streamModel()->rowCount(), 1, scaledMs(15000));
    const StreamId id = w.streamModel()->rows().first().snap.id;
    QVERIFY(isRemoteStream(id));
    w.detailsDock()->show();
    w.detailsDock()->raise();
    w.selectStream(id);

    // Details: the rate over the agent's run (its duration_s), not over the time this window
    // has watched it; the agent's clock offset and corrected latency.
    QTRY_COMPARE_WITH_TIMEOUT(w.details()->valueAt(QStringLiteral("rate_msgs_per_s")), QStringLiteral("399"),
                              scaledMs(15000));
    QCOMPARE(w.details()->valueAt(QStringLiteral("clock_offset_ms")), QStringLiteral("0.521"));
    QCOMPARE(w.details()->valueAt(QStringLiteral("clock_offset_source")), QStringLiteral("server_time"));
    QVERIFY2(w.details()->valueAt(QStringLiteral("latency_corrected_ms/p50")).startsWith(QLatin1String("1")),
             qPrintable(w.details()->valueAt(QStringLiteral("latency_corrected_ms/p50"))));
    QCOMPARE(w.details()->valueAt(QStringLiteral("clock_note")), QStringLiteral("clock behind the venue by ~0.5 ms"));

    // View → Corrected latency: the table's p50 is the corrected one (raw, every latency is
    // negative, so there is none).
    const StreamTableModel::Row *row = w.streamModel()->row(id);
    QVERIFY(row && std::isnan(row->p50Ms));
    auto *corrected = w.findChild<QAction *>(QStringLiteral("correctedLatency"));
    QVERIFY(corrected);
    corrected->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(w.streamModel()->row(id)->latencyCorrected, scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(std::abs(w.streamModel()->row(id)->p50Ms - 1.0) < 0.1, scaledMs(30000));

    // The agent's order books: the Book column and Details as for a local stream; the Order book
    // pane says why it shows no ladder.
    QCOMPARE(w.streamModel()->index(w.streamModel()->rowOf(id), StreamTableModel::ColBook).data().toString(),
             QStringLiteral("crossed 1"));
    QVERIFY2(w.details()->booksText().startsWith(QLatin1String("Order books: synced 1 of 2, crossed 1")),
             qPrintable(w.details()->booksText()));
    QVERIFY2(w.details()->booksText().contains(
                 QLatin1String("last audit 75.0 % of the top levels match (lowest 50.0 %), 3 stale levels")),
             qPrintable(w.details()->booksText()));
    QVERIFY2(w.ladder()->note().contains(QLatin1String("agent's order books stay on its machine")),
             qPrintable(w.ladder()->note()));

    // The inspector names the stream, as its dock does, and says why it shows nothing.
    const QLabel *title = w.inspector()->findChild<QLabel *>(QStringLiteral("inspectorTitle"));
    const QLabel *note = w.inspector()->findChild<QLabel *>(QStringLiteral("inspectorNote"));
    QVERIFY(title && note);
    QCOMPARE(title->text(), QStringLiteral("clock-off @ alpha"));
    QVERIFY2(note->text().contains(QLatin1String("agent's messages stay on its machine")), qPrintable(note->text()));
}

STREAMSCOPE_TEST_MAIN(tst_AgentRows)
#include "tst_agentrows.moc"
