// The clock's figures in the report and in /metrics: the names the checks rely on
// (docs/clock.md), null where nothing is known, and the host clock's state as the kernel has it.

#include "../common/TestRegistry.h"
#include "ClockReport.h"
#include "Report.h"
#include "Workspace.h"
#include "stats/StreamShared.h"
#include "venues/VenueHost.h"
#include "venues/binance/BinanceSpec.h"
#include "venues/binance/BinanceVenue.h"

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::app;

class TestClockReport : public QObject {
    Q_OBJECT
private slots:
    void hostClockStateIsSane();
    void reportHasHostClock();
    void unknownOffsetIsNull();
    void serverTimeOffsetIsReported();
    void correctedLatencyHasTheSameKeys();
    void metricsCarryTheFigures();
    void workspaceServerTimeUrl_data();
    void workspaceServerTimeUrl();
    void binanceServerTimeUrl_data();
    void binanceServerTimeUrl();

private:
    static StreamSnapshot snapshotOf(StreamShared &shared);
};

StreamSnapshot TestClockReport::snapshotOf(StreamShared &shared)
{
    StreamSnapshot s;
    shared.fillSnapshot(s, true);
    return s;
}

void TestClockReport::hostClockStateIsSane()
{
    const HostClockState h = HostClockState::read();
#ifdef Q_OS_LINUX
    QVERIFY(h.known());
    QVERIFY(h.estimatedErrorMs && *h.estimatedErrorMs >= 0);
    QVERIFY(h.maximumErrorMs && *h.maximumErrorMs >= 0);
#else
    QVERIFY(!h.known());
#endif
}

void TestClockReport::reportHasHostClock()
{
    const QJsonObject report = buildReport({}, 1.0);
    const QJsonObject host = report.value(QLatin1String("host_clock")).toObject();
    QVERIFY(host.contains(QLatin1String("synchronised")));
    QVERIFY(host.contains(QLatin1String("estimated_error_ms")));
    QVERIFY(host.contains(QLatin1String("maximum_error_ms")));
    const HostClockState h = HostClockState::read();
    if (h.known()) {
        QCOMPARE(host.value(QLatin1String("synchronised")).toBool(), *h.synchronised);
        QVERIFY(host.value(QLatin1String("estimated_error_ms")).toDouble() >= 0);
    } else {
        QVERIFY(host.value(QLatin1String("synchronised")).isNull());
    }
}

void TestClockReport::unknownOffsetIsNull()
{
    StreamShared shared(1, StreamConfig{});
    const QJsonObject report = buildReport({snapshotOf(shared)}, 1.0);
    const QJsonObject s = report.value(QLatin1String("streams")).toArray().at(0).toObject();
    for (const char *key :
         {"clock_offset_ms", "clock_offset_uncertainty_ms", "clock_offset_source", "latency_floor_ms"}) {
        QVERIFY2(s.contains(QLatin1String(key)), key);
        QVERIFY2(s.value(QLatin1String(key)).isNull(), key);
    }
    QCOMPARE(s.value(QLatin1String("latency_corrected_ms")).toObject().value(QLatin1String("count")).toInt(), 0);
    QVERIFY(!s.contains(QLatin1String("clock_note")));
    QVERIFY(!s.contains(QLatin1String("server_time")));
}

void TestClockReport::serverTimeOffsetIsReported()
{
    StreamShared shared(1, StreamConfig{});
    shared.clock.source.store(int(ClockOffsetSource::ServerTime));
    shared.clock.offsetUs.store(501250);
    shared.clock.uncertaintyUs.store(750);
    shared.clock.hasFloor.store(true);
    shared.clock.floorUs.store(-499000);
    shared.clock.serverTimeSamples.store(4);
    shared.clock.serverTimeErrors.store(1);
    shared.clock.setServerTimeUrl(RedactedUrl::of(QUrl(QStringLiteral("http://127.0.0.1:1/api/v3/time"))));
    shared.clock.setNote(QStringLiteral("clock behind the venue by ~501 ms (server time, ±0.8 ms)"));
    const QJsonObject s =
        buildReport({snapshotOf(shared)}, 1.0).value(QLatin1String("streams")).toArray().at(0).toObject();
    QCOMPARE(s.value(QLatin1String("clock_offset_ms")).toDouble(), 501.25);
    QCOMPARE(s.value(QLatin1String("clock_offset_uncertainty_ms")).toDouble(), 0.75);
    QCOMPARE(s.value(QLatin1String("clock_offset_source")).toString(), QStringLiteral("server_time"));
    QCOMPARE(s.value(QLatin1String("latency_floor_ms")).toDouble(), -499.0);
    QCOMPARE(s.value(QLatin1String("clock_note")).toString(),
             QStringLiteral("clock behind the venue by ~501 ms (server time, ±0.8 ms)"));
    const QJsonObject st = s.value(QLatin1String("server_time")).toObject();
    QCOMPARE(st.value(QLatin1String("samples")).toInt(), 4);
    QCOMPARE(st.value(QLatin1String("errors")).toInt(), 1);
    QCOMPARE(st.value(QLatin1String("url")).toString(), QStringLiteral("http://127.0.0.1:1/api/v3/time"));
}

void TestClockReport::correctedLatencyHasTheSameKeys()
{
    StreamShared shared(1, StreamConfig{});
    shared.latency.record(-500000 + 1200);
    shared.latencyCorrected.record(1200);
    const QJsonObject s =
        buildReport({snapshotOf(shared)}, 1.0).value(QLatin1String("streams")).toArray().at(0).toObject();
    const QJsonObject raw = s.value(QLatin1String("latency_ms")).toObject();
    const QJsonObject corrected = s.value(QLatin1String("latency_corrected_ms")).toObject();
    QCOMPARE(corrected.keys(), raw.keys());
    QCOMPARE(raw.value(QLatin1String("negative")).toInt(), 1);
    QCOMPARE(corrected.value(QLatin1String("count")).toInt(), 1);
    QVERIFY(qAbs(corrected.value(QLatin1String("p50")).toDouble() - 1.2) < 0.05);
}

void TestClockReport::metricsCarryTheFigures()
{
    StreamShared a(1, StreamConfig{});
    a.clock.source.store(int(ClockOffsetSource::ServerTime));
    a.clock.offsetUs.store(-500000);
    a.clock.uncertaintyUs.store(1000);
    StreamShared b(2, StreamConfig{});
    const QVector<StreamSnapshot> streams{snapshotOf(a), snapshotOf(b)};
    QByteArray out;
    HostClockState host;
    host.synchronised = true;
    host.estimatedErrorMs = 0.25;
    host.maximumErrorMs = 3.5;
    appendClockMetrics(out, streams, {"a", "b"}, host, false);
    QVERIFY(out.contains("streamscope_host_clock_synchronised 1\n"));
    QVERIFY(out.contains("streamscope_host_clock_estimated_error_seconds 0.00025\n"));
    QVERIFY(out.contains("streamscope_host_clock_maximum_error_seconds 0.0035\n"));
    QVERIFY(out.contains("streamscope_clock_offset_seconds{stream=\"a\"} -0.5\n"));
    QVERIFY(!out.contains("streamscope_clock_offset_seconds{stream=\"b\"}")); // unknown: no sample
    QVERIFY(out.contains("streamscope_clock_offset_uncertainty_seconds{stream=\"a\"} 0.001\n"));
    QVERIFY(out.contains("streamscope_clock_offset_source{stream=\"a\",source=\"server_time\"} 1\n"));
    QVERIFY(out.contains("streamscope_clock_offset_source{stream=\"b\",source=\"none\"} 1\n"));
    QVERIFY(out.contains("# TYPE streamscope_server_time_errors counter\n"));
    QVERIFY(out.contains("streamscope_server_time_errors_total{stream=\"b\"} 0\n"));
    QByteArray classic;
    appendClockMetrics(classic, streams, {"a", "b"}, HostClockState{}, true);
    QVERIFY(classic.contains("# TYPE streamscope_server_time_errors_total counter\n"));
    QVERIFY(classic.contains("streamscope_host_clock_synchronised NaN\n"));
}

void TestClockReport::workspaceServerTimeUrl_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error"); // empty: accepted
    QTest::newRow("http") << QStringLiteral("\"http://127.0.0.1:9000/api/v3/time\"") << QString();
    QTest::newRow("https") << QStringLiteral("\"https://api.example.com/api/v3/time\"") << QString();
    QTest::newRow("ws") << QStringLiteral("\"ws://127.0.0.1:9000/api/v3/time\"")
                        << QStringLiteral("w.json: streams[0].server_time_url: expected an http or https URL, found "
                                          "\"ws://127.0.0.1:9000/api/v3/time\"");
    QTest::newRow("no host") << QStringLiteral("\"http:///api/v3/time\"")
                             << QStringLiteral("w.json: streams[0].server_time_url: expected an http or https URL, "
                                               "found \"http:///api/v3/time\"");
    QTest::newRow("number") << QStringLiteral("5")
                            << QStringLiteral("w.json: streams[0].server_time_url: expected a string, found a number");
}

void TestClockReport::workspaceServerTimeUrl()
{
    QFETCH(QString, value);
    QFETCH(QString, error);
    const QByteArray json = "{\"version\":1,\"streams\":[{\"name\":\"a\",\"venue\":\"binance\","
                            "\"url\":\"ws://127.0.0.1:9000/ws/btcusdt@aggTrade\",\"server_time_url\":"
        + value.toUtf8() + "}]}";
    Workspace w;
    const Workspace::LoadResult r = Workspace::parse(json, QStringLiteral("w.json"), w);
    if (!error.isEmpty()) {
        QVERIFY(!r.ok);
        QCOMPARE(r.error, error);
        return;
    }
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.warnings.isEmpty());
    const QString url = value.mid(1, value.size() - 2);
    QCOMPARE(w.streams.at(0).serverTimeUrl, QUrl(url));
    // Saved back as it was read.
    QCOMPARE(Workspace::streamToJson(w.streams.at(0)).value(QLatin1String("server_time_url")).toString(), url);
}

void TestClockReport::binanceServerTimeUrl_data()
{
    QTest::addColumn<QString>("stream");
    QTest::addColumn<bool>("futures");
    QTest::addColumn<QString>("serverTime");
    QTest::newRow("spot") << QStringLiteral("wss://stream.binance.com:9443/ws/btcusdt@aggTrade") << false
                          << QStringLiteral("https://api.binance.com/api/v3/time");
    QTest::newRow("market data only") << QStringLiteral("wss://data-stream.binance.vision/stream?streams=a") << false
                                      << QStringLiteral("https://data-api.binance.vision/api/v3/time");
    QTest::newRow("futures") << QStringLiteral("wss://fstream.binance.com/ws/btcusdt@aggTrade") << false
                             << QStringLiteral("https://fapi.binance.com/fapi/v1/time");
    QTest::newRow("testnet wss") << QStringLiteral("wss://testnet.example.com:9443/ws") << false
                                 << QStringLiteral("https://testnet.example.com:9443/api/v3/time");
    QTest::newRow("replay ws") << QStringLiteral("ws://127.0.0.1:9000/small_aggtrade") << false
                               << QStringLiteral("http://127.0.0.1:9000/api/v3/time");
    QTest::newRow("replay ws, futures") << QStringLiteral("ws://127.0.0.1:9000/ws") << true
                                        << QStringLiteral("http://127.0.0.1:9000/fapi/v1/time");
}

void TestClockReport::binanceServerTimeUrl()
{
    QFETCH(QString, stream);
    QFETCH(bool, futures);
    QFETCH(QString, serverTime);
    struct NoHost final : InertVenueHost {
        StreamShared &shared() override { return *m_shared; }
        qint64 monotonicMs() const override { return 0; }
        qint64 wallMs() const override { return 0; }
        std::unique_ptr<StreamShared> m_shared = std::make_unique<StreamShared>(1, StreamConfig{});
    } host;
    StreamConfig c;
    c.venue = Venue("binance");
    c.url = QUrl(stream);
    c.futures = futures;
    BinanceVenue venue(c, host, binance::decodeSpec());
    QCOMPARE(venue.serverTimeUrl().toString(), serverTime);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestClockReport)
#include "tst_clockreport.moc"
