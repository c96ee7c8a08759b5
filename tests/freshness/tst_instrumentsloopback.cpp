// Instruments that go quiet, end to end (docs/freshness.md): the real engine against a Binance
// combined stream of three instruments served by a websocket server written here, on 127.0.0.1.
// Each instrument trades every 100 ms; once the engine has learned their cadence, one stops while
// the connection and the other two go on. It is flagged stale by name (snapshot, report,
// /metrics), the others not; the alert rule instrument_stale of headless mode's alert service
// raises, naming it, and counts in alerts_raised; when it trades again it clears, and so does
// the alert.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"

#include "AlertMonitor.h"
#include "AlertService.h"
#include "Engine.h"
#include "MetricsServer.h"
#include "Report.h"
#include "StreamSnapshot.h"
#include "Workspace.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtNetwork/QHostAddress>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;
using Condition = alerts::AlertMonitor::Condition;

namespace {

const QStringList kSymbols{QStringLiteral("BTCUSDT"), QStringLiteral("ETHUSDT"), QStringLiteral("SOLUSDT")};

// A Binance-like combined aggTrade stream: every 100 ms one trade of each symbol not held.
class TradeVenue {
public:
    TradeVenue()
        : m_server(QStringLiteral("trades"), QWebSocketServer::NonSecureMode)
    {
        QObject::connect(&m_server, &QWebSocketServer::newConnection, &m_context, [this] {
            while (QWebSocket *s = m_server.nextPendingConnection()) {
                s->setParent(&m_context);
                m_sockets.append(s);
            }
        });
        m_timer.setInterval(100);
        QObject::connect(&m_timer, &QTimer::timeout, &m_context, [this] { sendTrades(); });
    }
    bool listen()
    {
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            return false;
        m_timer.start();
        return true;
    }
    QUrl url() const
    {
        QStringList names;
        for (const QString &s : kSymbols)
            names << s.toLower() + QStringLiteral("@aggTrade");
        return QUrl(QStringLiteral("ws://127.0.0.1:%1/stream?streams=%2")
                        .arg(m_server.serverPort())
                        .arg(names.join(QLatin1Char('/'))));
    }
    int connections() const
    {
        int n = 0;
        for (const QPointer<QWebSocket> &s : m_sockets)
            n += s && s->state() == QAbstractSocket::ConnectedState ? 1 : 0;
        return n;
    }
    void hold(const QString &symbol, bool held)
    {
        if (held)
            m_held.insert(symbol);
        else
            m_held.remove(symbol);
    }

private:
    void sendTrades()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (const QString &symbol : kSymbols) {
            if (m_held.contains(symbol))
                continue;
            const QString text =
                QStringLiteral(R"({"stream":"%1@aggTrade","data":{"e":"aggTrade","E":%2,"s":"%3","a":%4,)"
                               R"("p":"100.5","q":"0.1","f":1,"l":1,"T":%2,"m":false,"M":true}})")
                    .arg(symbol.toLower())
                    .arg(now)
                    .arg(symbol)
                    .arg(++m_tradeId);
            for (const QPointer<QWebSocket> &s : m_sockets)
                if (s && s->state() == QAbstractSocket::ConnectedState)
                    s->sendTextMessage(text);
        }
    }

    QObject m_context;
    QWebSocketServer m_server;
    QList<QPointer<QWebSocket>> m_sockets;
    QTimer m_timer;
    QSet<QString> m_held;
    qint64 m_tradeId = 0;
};

InstrumentStatus instrumentOf(const Engine &engine, StreamId id, const QString &name)
{
    for (const InstrumentStatus &s : engine.snapshot(id).instruments)
        if (s.instrument == name)
            return s;
    return {};
}

bool allLearned(const Engine &engine, StreamId id)
{
    const QVector<InstrumentStatus> list = engine.snapshot(id).instruments;
    return list.size() == kSymbols.size()
        && std::all_of(list.begin(), list.end(), [](const InstrumentStatus &s) { return s.usualGapMs > 0; });
}

QJsonObject reportedInstrument(const QJsonObject &report, const QString &name)
{
    const QJsonObject stream = report.value(QStringLiteral("streams")).toArray().at(0).toObject();
    for (const QJsonValue &v : stream.value(QStringLiteral("instruments")).toArray())
        if (v.toObject().value(QStringLiteral("instrument")).toString() == name)
            return v.toObject();
    return {};
}

} // namespace

class TestInstrumentsLoopback : public QObject {
    Q_OBJECT
private slots:
    void quietInstrumentIsFlaggedByName();
};

void TestInstrumentsLoopback::quietInstrumentIsFlaggedByName()
{
    TradeVenue venue;
    QVERIFY(venue.listen());
    Engine engine;
    StreamConfig c;
    c.name = QStringLiteral("trades");
    c.venue = Venue("binance");
    c.url = venue.url();
    c.pingIntervalMs = 0;
    const StreamId id = engine.addStream(c);

    // Headless mode's alert service, fed the engine's snapshots every 100 ms.
    Workspace ws;
    ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")},
                                       {QStringLiteral("instrument_stale"), true},
                                       {QStringLiteral("clear_after_s"), 1}}};
    alerts::AlertService service;
    QString error;
    QVERIFY2(service.configure(ws, false, &error), qPrintable(error));
    QList<alerts::AlertEvent> raised;
    QList<alerts::AlertEvent> cleared;
    connect(&service, &alerts::AlertService::alertRaised, &service,
            [&](StreamId, int condition, const alerts::AlertEvent &e) {
                if (condition == int(Condition::InstrumentStale))
                    raised.append(e);
            });
    connect(&service, &alerts::AlertService::alertCleared, &service,
            [&](StreamId, int condition, const alerts::AlertEvent &e) {
                if (condition == int(Condition::InstrumentStale))
                    cleared.append(e);
            });
    QElapsedTimer steady;
    steady.start();
    QTimer evaluate;
    evaluate.setInterval(100);
    connect(&evaluate, &QTimer::timeout, &service,
            [&] { service.evaluate(engine.snapshot(true), QDateTime::currentMSecsSinceEpoch(), steady.elapsed()); });
    evaluate.start();

    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
    // Ten gaps each, and then some: every instrument has learned its cadence.
    QTRY_VERIFY_WITH_TIMEOUT(allLearned(engine, id), scaledMs(20000));
    for (const QString &s : kSymbols)
        QVERIFY2(!instrumentOf(engine, id, s).stale, qPrintable(s));
    QCOMPARE(raised.size(), 0);

    // SOLUSDT stops; the connection and the other two go on.
    const quint64 solBefore = instrumentOf(engine, id, QStringLiteral("SOLUSDT")).messages;
    venue.hold(QStringLiteral("SOLUSDT"), true);
    QTRY_VERIFY_WITH_TIMEOUT(instrumentOf(engine, id, QStringLiteral("SOLUSDT")).stale, scaledMs(20000));
    QVERIFY(!instrumentOf(engine, id, QStringLiteral("BTCUSDT")).stale);
    QVERIFY(!instrumentOf(engine, id, QStringLiteral("ETHUSDT")).stale);
    QCOMPARE(instrumentOf(engine, id, QStringLiteral("SOLUSDT")).staleEpisodes, quint64(1));
    QVERIFY(instrumentOf(engine, id, QStringLiteral("SOLUSDT")).messages >= solBefore);
    QCOMPARE(engine.snapshot(id).state, StreamState::Live);

    // The report and /metrics name it.
    QJsonObject report = app::buildReport(engine.snapshot(true), 1.0);
    QJsonObject sol = reportedInstrument(report, QStringLiteral("SOLUSDT"));
    QCOMPARE(sol.value(QStringLiteral("stale")).toBool(), true);
    QCOMPARE(sol.value(QStringLiteral("stale_episodes")).toInteger(), 1);
    QVERIFY(sol.value(QStringLiteral("messages")).toInteger() > 0);
    QCOMPARE(reportedInstrument(report, QStringLiteral("BTCUSDT")).value(QStringLiteral("stale")).toBool(), false);
    const QByteArray metrics = app::MetricsServer::render(engine, app::MetricsServer::Format::PrometheusText);
    QVERIFY2(metrics.contains("streamscope_instrument_stale{stream=\"trades\",instrument=\"SOLUSDT\"} 1\n"),
             metrics.constData());
    QVERIFY(metrics.contains("streamscope_instrument_stale{stream=\"trades\",instrument=\"BTCUSDT\"} 0\n"));
    QVERIFY(metrics.contains("streamscope_instrument_stale{stream=\"trades\",instrument=\"ETHUSDT\"} 0\n"));

    // The alert names it, and counts in alerts_raised.
    QTRY_COMPARE_WITH_TIMEOUT(raised.size(), 1, scaledMs(10000));
    QVERIFY2(raised.first().text.contains(QLatin1String("SOLUSDT")), qPrintable(raised.first().text));
    QVERIFY(!raised.first().text.contains(QLatin1String("BTCUSDT")));
    QCOMPARE(raised.first().condition, QStringLiteral("instrument_stale"));
    service.addToReport(report);
    QCOMPARE(report.value(QStringLiteral("streams"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("alerts_raised"))
                 .toInteger(),
             1);

    // It trades again: no longer stale, and the alert clears a second later.
    venue.hold(QStringLiteral("SOLUSDT"), false);
    QTRY_VERIFY_WITH_TIMEOUT(!instrumentOf(engine, id, QStringLiteral("SOLUSDT")).stale, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(cleared.size(), 1, scaledMs(10000));
    QCOMPARE(raised.size(), 1);
    QCOMPARE(instrumentOf(engine, id, QStringLiteral("SOLUSDT")).staleEpisodes, quint64(1));
    report = app::buildReport(engine.snapshot(true), 1.0);
    QCOMPARE(reportedInstrument(report, QStringLiteral("SOLUSDT")).value(QStringLiteral("stale")).toBool(), false);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestInstrumentsLoopback)
#include "tst_instrumentsloopback.moc"
