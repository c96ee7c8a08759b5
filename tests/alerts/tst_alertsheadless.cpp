// `streamscope --headless` evaluates the workspace's alert rules and sends them: a stream of
// the replay server that goes quiet for 4 s raises one silence alert and one recovery at a
// loopback webhook, shown on stderr, in /metrics and in the report. Prints the latency from
// the moment the condition became true (the payload's "since": the last data message plus
// silent_s) to the webhook's arrival.

#include "../common/TestRegistry.h"
#include "HttpRecorder.h"

#include "../common/TimeFactor.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QtTest>

using streamscope::testing::scaledMs;

class tst_AlertsHeadless : public QObject {
    Q_OBJECT
private slots:
    void silenceRaisesAndRecoversAtTheWebhook();
    void keychainReferenceIsAnError();
};

namespace {
QByteArray fetch(const QUrl &url)
{
    QNetworkAccessManager nam;
    QNetworkReply *reply = nam.get(QNetworkRequest(url));
    QSignalSpy done(reply, &QNetworkReply::finished);
    done.wait(scaledMs(5000));
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}
} // namespace

void tst_AlertsHeadless::silenceRaisesAndRecoversAtTheWebhook()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    QProcess replay;
    replay.start(QStringLiteral(REPLAY_BIN), {QStringLiteral("--port"), QStringLiteral("0")});
    QVERIFY(replay.waitForReadyRead(scaledMs(10000)));
    const QString portLine = QString::fromUtf8(replay.readLine()).trimmed();
    QVERIFY2(portLine.startsWith(QStringLiteral("port ")), qPrintable(portLine));
    const QString replayPort = portLine.mid(5);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QJsonObject ws{
        {QStringLiteral("version"), 1},
        {QStringLiteral("streams"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("quiet")},
                                {QStringLiteral("venue"), QStringLiteral("generic")},
                                // 40 messages at 20/s, 4 s of silence, then data again.
                                {QStringLiteral("url"),
                                 QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?rate=20&loop=1&misbehave=silent"
                                                "&after=40&silent_ms=4000")
                                     .arg(replayPort)}}}},
        {QStringLiteral("alerts"),
         QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("quiet")},
                                {QStringLiteral("silent_s"), 1},
                                {QStringLiteral("clear_after_s"), 1}}}},
        {QStringLiteral("notify"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("webhook")},
                                {QStringLiteral("url"), recorder.url(QStringLiteral("/hook"))}}}}};
    const QString wsPath = dir.filePath(QStringLiteral("ws.json"));
    const QString reportPath = dir.filePath(QStringLiteral("report.json"));
    {
        QFile f(wsPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(ws).toJson());
    }
    QProcess app;
    app.start(QStringLiteral(STREAMSCOPE_BIN),
              {QStringLiteral("--headless"), QStringLiteral("--workspace"), wsPath, QStringLiteral("--duration"),
               QStringLiteral("10"), QStringLiteral("--report"), reportPath, QStringLiteral("--metrics-port"),
               QStringLiteral("0"), QStringLiteral("--quiet")}); // alerts run without the live lines too
    QVERIFY(app.waitForStarted());
    QString metricsUrl;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const QString out = QString::fromUtf8(app.peek(4096));
            const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("metrics: (http://\\S+)")).match(out);
            metricsUrl = m.captured(1);
            return !metricsUrl.isEmpty();
        }(),
        scaledMs(10000));

    QTRY_VERIFY_WITH_TIMEOUT(recorder.count() >= 1, scaledMs(15000));
    const HttpRecorder::Request first = recorder.requests().first();
    const QJsonObject alert = QJsonDocument::fromJson(first.body).object();
    QCOMPARE(alert.value(QStringLiteral("event")).toString(), QStringLiteral("raised"));
    QCOMPARE(alert.value(QStringLiteral("stream")).toString(), QStringLiteral("quiet"));
    QCOMPARE(alert.value(QStringLiteral("condition")).toString(), QStringLiteral("silent_s"));
    const qint64 sinceMs =
        QDateTime::fromString(alert.value(QStringLiteral("since")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
    QVERIFY(sinceMs > 0);
    qInfo("alert delivery latency: %lld ms from the condition becoming true (last data message + silent_s) to the "
          "webhook receiving the alert",
          first.receivedMs - sinceMs);
    const qint64 raisedMs =
        QDateTime::fromString(alert.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
    qInfo("of which %lld ms waiting for the once-a-second evaluation and %lld ms from the alert being raised to the "
          "webhook receiving it",
          raisedMs - sinceMs, first.receivedMs - raisedMs);

    const QByteArray metrics = fetch(QUrl(metricsUrl));
    QVERIFY2(metrics.contains("streamscope_alerts_raised_total{stream=\"quiet\"} 1\n"), metrics.constData());
    QVERIFY(metrics.contains("streamscope_notify_sent_total{destination=\"webhook-0\"} 1\n"));
    QVERIFY(metrics.contains("streamscope_notify_failures_total{destination=\"webhook-0\"} 0\n"));
    QVERIFY(metrics.endsWith("# EOF\n"));

    QTRY_VERIFY_WITH_TIMEOUT(recorder.count() >= 2, scaledMs(15000));
    const QJsonObject recovery = QJsonDocument::fromJson(recorder.requests()[1].body).object();
    QCOMPARE(recovery.value(QStringLiteral("event")).toString(), QStringLiteral("cleared"));
    qInfo("recovery received %lld ms after the alert (4 s of silence in all, clear_after_s = 1)",
          recorder.requests()[1].receivedMs - first.receivedMs);

    QVERIFY(app.waitForFinished(scaledMs(30000)));
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(recorder.count(), 2);
    const QString err = QString::fromUtf8(app.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("alert: stream quiet: raised: silent for")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("alert: stream quiet: cleared: silent for")), qPrintable(err));
    QFile f(reportPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject report = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonObject stream = report.value(QStringLiteral("streams")).toArray().at(0).toObject();
    QCOMPARE(stream.value(QStringLiteral("alerts_raised")).toInt(), 1);
    QCOMPARE(stream.value(QStringLiteral("alerts_active")).toArray().size(), 0);
    QCOMPARE(report.value(QStringLiteral("alerts")).toObject().value(QStringLiteral("raised")).toInt(), 1);
    QCOMPARE(report.value(QStringLiteral("notify")).toArray().at(0).toObject().value(QStringLiteral("sent")).toInt(),
             2);
    replay.terminate();
    replay.waitForFinished();
}

void tst_AlertsHeadless::keychainReferenceIsAnError()
{
    QTemporaryDir dir;
    const QString wsPath = dir.filePath(QStringLiteral("ws.json"));
    QFile f(wsPath);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        QJsonDocument(QJsonObject{{QStringLiteral("version"), 1},
                                  {QStringLiteral("streams"), QJsonArray()},
                                  {QStringLiteral("notify"),
                                   QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("slack")},
                                                          {QStringLiteral("url"), QStringLiteral("keychain:slack")}}}}})
            .toJson());
    f.close();
    QProcess app;
    app.start(QStringLiteral(STREAMSCOPE_BIN),
              {QStringLiteral("--headless"), QStringLiteral("--workspace"), wsPath, QStringLiteral("--duration"),
               QStringLiteral("1")});
    QVERIFY(app.waitForFinished(scaledMs(20000)));
    QCOMPARE(app.exitCode(), 2);
    const QString err = QString::fromUtf8(app.readAllStandardError());
    QVERIFY2(err.contains(wsPath
                          + QStringLiteral(": notify[0].url: expected an \"env:NAME\" reference: the keychain "
                                           "is available only in the desktop app, not in headless mode")),
             qPrintable(err));
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_AlertsHeadless)
#include "tst_alertsheadless.moc"
