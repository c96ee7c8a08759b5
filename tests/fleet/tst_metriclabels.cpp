// Label cardinality of /metrics: every label value is a workspace stream name or one of a
// fixed set, whatever a venue sends. A hostile Binance-like server answers a websocket-API
// request with rate limits of made-up types and intervals, a control character, duplicates
// and hundreds of entries; only Binance's documented values reach /metrics, each once.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"

#include "Engine.h"
#include "MetricsServer.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

using namespace streamscope;
using streamscope::app::MetricsServer;
using streamscope::testing::scaledMs;

namespace {

QJsonObject limit(const QString &type, const QString &interval, int intervalNum, int count)
{
    return QJsonObject{{QStringLiteral("rateLimitType"), type},
                       {QStringLiteral("interval"), interval},
                       {QStringLiteral("intervalNum"), intervalNum},
                       {QStringLiteral("limit"), 6000},
                       {QStringLiteral("count"), count}};
}

} // namespace

class TestMetricLabels : public QObject {
    Q_OBJECT
private slots:
    void rateLimitLabelsAreBounded();
};

void TestMetricLabels::rateLimitLabelsAreBounded()
{
    QJsonArray limits{limit(QStringLiteral("REQUEST_WEIGHT"), QStringLiteral("MINUTE"), 1, 7),
                      limit(QStringLiteral("REQUEST_WEIGHT"), QStringLiteral("MINUTE"), 1, 8), // the same again
                      limit(QStringLiteral("ORDERS\n\"}evil"), QStringLiteral("MINUTE"), 1, 1),
                      limit(QStringLiteral("ORDERS"), QStringLiteral("FORTNIGHT"), 1, 1),
                      limit(QStringLiteral("ORDERS"), QStringLiteral("SECOND"), 0, 1),
                      limit(QStringLiteral("ORDERS"), QStringLiteral("SECOND"), -5, 1)};
    for (int i = 1; i <= 500; ++i) // a new series per value, if they were let through
        limits.append(limit(QStringLiteral("RAW_REQUESTS"), QStringLiteral("SECOND"), i, i));
    for (int i = 0; i < 100; ++i)
        limits.append(limit(QStringLiteral("TYPE_%1").arg(i), QStringLiteral("DAY"), 1, i));

    QWebSocketServer server(QStringLiteral("hostile"), QWebSocketServer::NonSecureMode);
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    connect(&server, &QWebSocketServer::newConnection, &server, [&server, &limits] {
        while (QWebSocket *s = server.nextPendingConnection()) {
            connect(s, &QWebSocket::disconnected, s, &QObject::deleteLater);
            connect(s, &QWebSocket::textMessageReceived, s, [s, &limits](const QString &text) {
                const QString id =
                    QJsonDocument::fromJson(text.toUtf8()).object().value(QStringLiteral("id")).toString();
                // Written by hand: the envelope's head ("id", "status", "result") comes first, as
                // Binance sends it; QJsonDocument would sort "rateLimits" before "result".
                const QByteArray answer = "{\"id\":\"" + id.toUtf8() + "\",\"status\":200,\"result\":{},\"rateLimits\":"
                    + QJsonDocument(limits).toJson(QJsonDocument::Compact) + '}';
                s->sendTextMessage(QString::fromUtf8(answer));
            });
        }
    });

    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("api");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/ws-api/v3").arg(server.serverPort()));
    const StreamId id = engine.addStream(c);
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).state, StreamState::Live, scaledMs(20000));
    QVERIFY(engine.sendMessage(
        id, QStringLiteral("{\"id\":\"a6f1e2d3-0000-4000-8000-000000000001\",\"method\":\"time\"}")));
    QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).results, quint64(1), scaledMs(20000));
    QCOMPARE(engine.snapshot(id).rateLimits.size(), limits.size()); // the engine keeps them all for display

    for (const auto format : {MetricsServer::Format::OpenMetrics, MetricsServer::Format::PrometheusText}) {
        const QByteArray text = MetricsServer::render(engine, format);
        QSet<QByteArray> used;
        for (const QByteArray &line : text.split('\n'))
            if (line.startsWith("streamscope_rate_limit_used{"))
                used.insert(line);
        QSet<QByteArray> expected{
            "streamscope_rate_limit_used{stream=\"api\",type=\"REQUEST_WEIGHT\",interval=\"1MINUTE\"} 7"};
        for (int i = 1; i <= 60; ++i)
            expected.insert(
                QByteArrayLiteral("streamscope_rate_limit_used{stream=\"api\",type=\"RAW_REQUESTS\",interval=\"")
                + QByteArray::number(i) + "SECOND\"} " + QByteArray::number(i));
        QCOMPARE(used, expected);
        QVERIFY(!text.contains("evil"));
        QVERIFY(!text.contains("FORTNIGHT"));
        QVERIFY(!text.contains("TYPE_"));
        QCOMPARE(text.count("streamscope_rate_limit{"), qsizetype(61));
    }
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestMetricLabels)
#include "tst_metriclabels.moc"
