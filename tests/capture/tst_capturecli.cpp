// Recording as users run it: `streamscope --headless --record DIR` (the report's record object,
// the /metrics counters), `streamscope-replay --file` serving what it wrote, a recording
// killed with -9 (readable up to its last flushed block, at most the last second lost), and a
// full disk (a file-size limit in the child): a clear error, and the stream counts exactly.
#include "../common/CaptureFiles.h"
#include "../common/MetricsScrape.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "CaptureFile.h"
#include "ReplayServerThread.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/resource.h>
#endif

using namespace streamscope::replay;
using streamscope::testing::messagesOf;
using streamscope::testing::onlyFile;
using streamscope::testing::scaledMs;
using streamscope::testing::scrapeMetrics;
using streamscope::testing::timeFactor;

namespace {

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString seconds(int s)
{
    return QString::number(s * std::min(timeFactor(), 5));
}

} // namespace

class TestCaptureCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        ReplayOptions options;
        options.scenario = QStringLiteral("small_aggtrade");
        m_port = m_replay.start(options);
        QVERIFY2(m_port, qPrintable(m_replay.errorString()));
    }

    void recordFlagReportAndMetrics()
    {
        const QString workspace = writeWorkspace(
            QStringLiteral("ws.json"), QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?count=500").arg(m_port));
        const QString dir = m_dir.filePath(QStringLiteral("first"));
        const QString report = m_dir.filePath(QStringLiteral("first.json"));
        QProcess p;
        p.start(QStringLiteral(STREAMSCOPE_BIN),
                {QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace, QStringLiteral("--record"),
                 dir, QStringLiteral("--report"), report, QStringLiteral("--metrics-port"), QStringLiteral("0"),
                 QStringLiteral("--duration"), QStringLiteral("120")});
        QVERIFY(p.waitForReadyRead(scaledMs(10000)));
        const QString first = QString::fromUtf8(p.readLine()).trimmed();
        QVERIFY2(first.startsWith(QLatin1String("metrics: http://127.0.0.1:")), qPrintable(first));
        const quint16 metricsPort = first.section(QLatin1Char(':'), 3).section(QLatin1Char('/'), 0, 0).toUShort();
        QVERIFY(metricsPort);
        QTRY_VERIFY_WITH_TIMEOUT(
            scrapeMetrics(metricsPort).contains("streamscope_recorded_messages_total{stream=\"s\"} 500\n"),
            scaledMs(10000));
        QVERIFY(scrapeMetrics(metricsPort).contains("streamscope_record_dropped_total{stream=\"s\"} 0\n"));
        p.terminate(); // SIGTERM: the report is written, the capture closed
        QVERIFY(p.waitForFinished(scaledMs(30000)));
        QCOMPARE(p.exitCode(), 0);

        const QJsonObject s = readJson(report).value(QStringLiteral("streams")).toArray().at(0).toObject();
        QCOMPARE(s.value(QStringLiteral("messages")).toInteger(), 500);
        const QJsonObject record = s.value(QStringLiteral("record")).toObject();
        QCOMPARE(record.value(QStringLiteral("messages")).toInteger(), 500);
        QCOMPARE(record.value(QStringLiteral("dropped")).toInteger(), 0);
        QCOMPARE(record.value(QStringLiteral("error")).toString(), QString());
        const QString file = record.value(QStringLiteral("file")).toString();
        QCOMPARE(file, onlyFile(dir));
        QVERIFY(file.endsWith(QLatin1String(".ndjson.zst")));
        QVERIFY(record.value(QStringLiteral("bytes_written")).toInteger() > 0);
        CaptureFile capture;
        QVERIFY2(capture.load(file), qPrintable(capture.errorString()));
        QCOMPARE(messagesOf(capture).size(), 500);
        QCOMPARE(capture.stream(), QStringLiteral("s"));
        m_firstCapture = file;
    }

    // streamscope-replay --file serves the capture; recording it gives the same messages.
    void replayExecutableServesTheCapture()
    {
        QVERIFY(!m_firstCapture.isEmpty());
        QProcess replay;
        replay.start(QStringLiteral(REPLAY_BIN),
                     {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--file"), m_firstCapture,
                      QStringLiteral("--speed"), QStringLiteral("max")});
        QVERIFY(replay.waitForReadyRead(scaledMs(10000)));
        const QString line = QString::fromUtf8(replay.readLine()).trimmed();
        QVERIFY2(line.startsWith(QLatin1String("port ")), qPrintable(line));
        const quint16 port = line.mid(5).toUShort();
        const QString dir = m_dir.filePath(QStringLiteral("second"));
        const QString report = m_dir.filePath(QStringLiteral("second.json"));
        const QString workspace =
            writeWorkspace(QStringLiteral("replayed.json"), QStringLiteral("ws://127.0.0.1:%1/").arg(port));
        QProcess p;
        p.start(QStringLiteral(STREAMSCOPE_BIN),
                {QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace, QStringLiteral("--record"),
                 dir, QStringLiteral("--report"), report, QStringLiteral("--duration"), QStringLiteral("120")});
        // Until the capture being written holds all 500 (read as it is: a frame not yet ended).
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                CaptureFile partial;
                return !onlyFile(dir).isEmpty() && partial.load(onlyFile(dir)) && messagesOf(partial).size() == 500;
            }(),
            scaledMs(20000));
        p.terminate();
        QVERIFY(p.waitForFinished(scaledMs(30000)));
        QCOMPARE(p.exitCode(), 0);
        replay.terminate();
        replay.waitForFinished(5000);
        CaptureFile a;
        CaptureFile b;
        QVERIFY(a.load(m_firstCapture));
        QVERIFY2(b.load(onlyFile(dir)), qPrintable(b.errorString()));
        QCOMPARE(messagesOf(b), messagesOf(a));
    }

    void badArguments()
    {
        QProcess p;
        p.start(QStringLiteral(STREAMSCOPE_BIN), {QStringLiteral("--record"), m_dir.path()});
        QVERIFY(p.waitForFinished(scaledMs(10000)));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--record works with --headless only"));
        QProcess r;
        r.start(QStringLiteral(REPLAY_BIN),
                {QStringLiteral("--file"), m_dir.filePath(QStringLiteral("missing.ndjson"))});
        QVERIFY(r.waitForFinished(scaledMs(10000)));
        QCOMPARE(r.exitCode(), 2);
        QVERIFY(r.readAllStandardError().contains("missing.ndjson"));
    }

#ifdef Q_OS_UNIX
    void killNineLosesAtMostTheLastSecond()
    {
        const QString workspace =
            writeWorkspace(QStringLiteral("paced.json"),
                           QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?rate=2000&loop=1").arg(m_port));
        const QString dir = m_dir.filePath(QStringLiteral("killed"));
        QProcess p;
        p.start(
            QStringLiteral(STREAMSCOPE_BIN),
            {QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace, QStringLiteral("--record"), dir});
        QVERIFY(p.waitForStarted());
        // Recording for a while: the file holds more than its first line.
        QTRY_VERIFY_WITH_TIMEOUT(!onlyFile(dir).isEmpty() && QFileInfo(onlyFile(dir)).size() > 20000, scaledMs(20000));
        QTest::qWait(1200);
        const qint64 killedUs = QDateTime::currentMSecsSinceEpoch() * 1000;
        p.kill(); // SIGKILL
        QVERIFY(p.waitForFinished(scaledMs(10000)));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);

        QFile f(onlyFile(dir));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text;
        bool truncated = false;
        QString error;
        QVERIFY2(CaptureFile::decompress(f.readAll(), &text, &truncated, &error), qPrintable(error));
        QVERIFY(truncated); // the frame was never ended
        CaptureFile capture;
        QVERIFY2(capture.parse(text), qPrintable(capture.errorString()));
        const QList<QByteArray> messages = messagesOf(capture);
        QVERIFY(messages.size() > 1000);
        for (const QByteArray &m : messages)
            QVERIFY(m.startsWith(R"({"stream":"btcusdt@aggTrade")") && m.endsWith("}"));
        const qint64 lastUs = capture.entries().last().timeUs;
        QVERIFY2(killedUs - lastUs <= 1'000'000LL * timeFactor(),
                 qPrintable(QStringLiteral("the last recorded message came %1 ms before the kill")
                                .arg((killedUs - lastUs) / 1000)));
    }

    // A full disk: the child may write files of at most 1 MiB (RLIMIT_FSIZE; SIGXFSZ ignored,
    // so a write past it fails with EFBIG as on a full disk).
    void fullDiskKeepsCounting()
    {
        const QString workspace = writeWorkspace(
            QStringLiteral("full.json"), QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?count=20000").arg(m_port),
            QStringLiteral(R"(, "record": {"compress": false})"));
        const QString dir = m_dir.filePath(QStringLiteral("full"));
        const QString report = m_dir.filePath(QStringLiteral("full-report.json"));
        QProcess p;
        p.setChildProcessModifier([] {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{1024 * 1024, 1024 * 1024};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        p.start(QStringLiteral(STREAMSCOPE_BIN),
                {QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace, QStringLiteral("--record"),
                 dir, QStringLiteral("--report"), report, QStringLiteral("--duration"), seconds(2)});
        QVERIFY(p.waitForFinished(scaledMs(30000)));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject s = readJson(report).value(QStringLiteral("streams")).toArray().at(0).toObject();
        QCOMPARE(s.value(QStringLiteral("messages")).toInteger(), 20000);
        QCOMPARE(s.value(QStringLiteral("data_messages")).toInteger(), 20000);
        const QJsonObject record = s.value(QStringLiteral("record")).toObject();
        QVERIFY2(record.value(QStringLiteral("error")).toString().contains(QLatin1String("File too large")),
                 qPrintable(record.value(QStringLiteral("error")).toString()));
        QVERIFY(record.value(QStringLiteral("errors")).toInteger() >= 1);
        const qint64 recorded = record.value(QStringLiteral("messages")).toInteger();
        const qint64 dropped = record.value(QStringLiteral("dropped")).toInteger();
        QVERIFY(recorded > 0);
        QVERIFY(dropped > 0);
        QCOMPARE(recorded + dropped, 20000);
        // What it says it recorded is in the files, whole.
        qint64 inFiles = 0;
        for (const QString &name : QDir(dir).entryList(QDir::Files)) {
            CaptureFile capture;
            QVERIFY2(capture.load(QDir(dir).filePath(name)), qPrintable(capture.errorString()));
            inFiles += messagesOf(capture).size();
        }
        QVERIFY(inFiles >= recorded);
    }
#endif

private:
    QString writeWorkspace(const QString &name, const QString &url, const QString &extra = QString())
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(QStringLiteral(R"({"version": 1, "streams": [{"name": "s", "venue": "binance", "url": "%1"%2}]})")
                    .arg(url, extra)
                    .toUtf8());
        return path;
    }

    QTemporaryDir m_dir;
    ReplayServerThread m_replay;
    quint16 m_port = 0;
    QString m_firstCapture;
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestCaptureCli)
#include "tst_capturecli.moc"
