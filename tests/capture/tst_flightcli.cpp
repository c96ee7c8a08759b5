// The flight recorder as users run it headless: `streamscope --headless --flight-recorder DIR`
// with an alert rule: the alert's line names the file it saved, /metrics and the report count
// it, the file decompresses with zstd and holds the stream's messages, and streamscope-replay
// serves it. Without --headless the flag is refused.
#include "../common/MetricsScrape.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "CaptureFile.h"
#include "ReplayServerThread.h"

#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

using namespace streamscope::replay;
using streamscope::testing::scaledMs;
using streamscope::testing::scrapeMetrics;

class TestFlightCli : public QObject {
    Q_OBJECT
private slots:
    void alertSavesTheFlightRecorder()
    {
        QTemporaryDir dir;
        ReplayOptions options;
        const quint16 replayPort = m_replay.start(options);
        QVERIFY2(replayPort, qPrintable(m_replay.errorString()));
        const QString workspace = dir.filePath(QStringLiteral("ws.json"));
        {
            QFile f(workspace);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QJsonObject ws{
                {QStringLiteral("version"), 1},
                {QStringLiteral("flight_recorder"), QJsonObject{{QStringLiteral("minutes"), 1}}},
                {QStringLiteral("alerts"),
                 QJsonArray{
                     QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")}, {QStringLiteral("silent_s"), 1}}}},
                {QStringLiteral("streams"),
                 QJsonArray{
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("s")},
                                 {QStringLiteral("venue"), QStringLiteral("binance")},
                                 {QStringLiteral("url"),
                                  QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?count=500").arg(replayPort)}}}}};
            f.write(QJsonDocument(ws).toJson());
        }
        const QString flightDir = dir.filePath(QStringLiteral("flight"));
        const QString report = dir.filePath(QStringLiteral("report.json"));
        QProcess p;
        p.start(QStringLiteral(STREAMSCOPE_BIN),
                {QStringLiteral("--headless"), QStringLiteral("--quiet"), QStringLiteral("--workspace"), workspace,
                 QStringLiteral("--flight-recorder"), flightDir, QStringLiteral("--report"), report,
                 QStringLiteral("--metrics-port"), QStringLiteral("0"), QStringLiteral("--duration"),
                 QStringLiteral("120")});
        QVERIFY(p.waitForReadyRead(scaledMs(10000)));
        const QString first = QString::fromUtf8(p.readLine()).trimmed();
        QVERIFY2(first.startsWith(QLatin1String("metrics: http://127.0.0.1:")), qPrintable(first));
        const quint16 metricsPort = first.section(QLatin1Char(':'), 3).section(QLatin1Char('/'), 0, 0).toUShort();

        // stderr: "alert: stream s: raised: silent for 1.0 s; flight recorder saving to PATH"
        QByteArray errors;
        const QByteArray marker = "; flight recorder saving to ";
        QTRY_VERIFY_WITH_TIMEOUT((errors += p.readAllStandardError()).contains(marker), scaledMs(20000));
        QString line;
        for (const QByteArray &l : errors.split('\n'))
            if (l.contains(marker))
                line = QString::fromUtf8(l);
        QVERIFY2(line.startsWith(QLatin1String("alert: stream s: raised: silent for")), qPrintable(line));
        const QString file = line.mid(line.indexOf(QString::fromLatin1(marker)) + marker.size());
        QVERIFY2(file.startsWith(flightDir + QStringLiteral("/s-flight-")), qPrintable(file));
        QTRY_VERIFY_WITH_TIMEOUT(
            scrapeMetrics(metricsPort).contains("streamscope_flight_saved_files_total{stream=\"s\"} 1\n"),
            scaledMs(10000));
        const QByteArray metrics = scrapeMetrics(metricsPort);
        QVERIFY(metrics.contains("streamscope_flight_memory_cap_bytes 268435456\n"));
        QVERIFY(metrics.contains("streamscope_flight_evicted_cap_messages_total{stream=\"s\"} 0\n"));
        p.terminate();
        QVERIFY(p.waitForFinished(scaledMs(30000)));
        QCOMPARE(p.exitCode(), 0);

        const QJsonObject r = [&] {
            QFile f(report);
            return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
        }();
        const QJsonObject s = r.value(QStringLiteral("streams"))
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value(QStringLiteral("flight_recorder"))
                                  .toObject();
        QCOMPARE(s.value(QStringLiteral("saved_files")).toInteger(), 1);
        QCOMPARE(s.value(QStringLiteral("last_file")).toString(), file);
        QCOMPARE(s.value(QStringLiteral("messages_held")).toInteger(), 500);
        QCOMPARE(r.value(QStringLiteral("flight_recorder")).toObject().value(QStringLiteral("minutes")).toDouble(),
                 1.0);

        // The file: zstd frames one after another, a capture like any other.
        CaptureFile capture;
        QVERIFY2(capture.load(file), qPrintable(capture.errorString()));
        int messages = 0;
        for (const CaptureFile::Entry &e : capture.entries())
            messages += e.kind == CaptureFile::Kind::Event ? 0 : 1;
        QCOMPARE(messages, 500);
        QCOMPARE(capture.stream(), QStringLiteral("s"));
        const QString zstd = QStandardPaths::findExecutable(QStringLiteral("zstd"));
        if (!zstd.isEmpty()) {
            QProcess z;
            z.start(zstd, {QStringLiteral("-dc"), file});
            QVERIFY(z.waitForFinished(scaledMs(10000)));
            QCOMPARE(z.exitCode(), 0);
            const QList<QByteArray> lines = z.readAllStandardOutput().split('\n');
            QCOMPARE(lines.size(), 500 + 2 + 1); // the capture line, "connected", the messages, the last '\n'
            QVERIFY(lines.first().contains("#{\"event\":\"capture\""));
        }

        // streamscope-replay serves it.
        QProcess replay;
        replay.start(QStringLiteral(REPLAY_BIN),
                     {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--file"), file,
                      QStringLiteral("--speed"), QStringLiteral("max")});
        QVERIFY(replay.waitForReadyRead(scaledMs(10000)));
        QVERIFY(replay.readLine().startsWith("port "));
        replay.kill();
        replay.waitForFinished();
    }

    void refusedWithoutHeadless()
    {
        QTemporaryDir dir;
        QProcess p;
        p.start(QStringLiteral(STREAMSCOPE_BIN), {QStringLiteral("--flight-recorder"), dir.path()});
        QVERIFY(p.waitForFinished(scaledMs(10000)));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--flight-recorder works with --headless only"));
    }

private:
    ReplayServerThread m_replay;
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestFlightCli)
#include "tst_flightcli.moc"
