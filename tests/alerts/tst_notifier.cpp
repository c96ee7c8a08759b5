// Notifications against a loopback HTTP recorder: episodes through the headless alert service
// (one alert and one recovery per episode, nothing for a condition flapping inside the
// hysteresis), retries and permanent failures, the rate cap, the Slack and Telegram payloads,
// and secrets kept out of every text that is logged.

#include "../common/TestRegistry.h"
#include "AlertService.h"
#include "HttpRecorder.h"
#include "Notifier.h"

#include "../common/TimeFactor.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using namespace streamscope;
using namespace streamscope::alerts;
using streamscope::testing::scaledMs;

namespace {

Notifier::Timing fastTiming()
{
    Notifier::Timing t;
    t.firstRetryMs = 50;
    t.maxRetryAfterMs = 200;
    t.timeoutMs = 5000;
    t.rateWindowMs = 60000;
    return t;
}

NotifyTarget webhook(const HttpRecorder &r, const QString &path = QStringLiteral("/hook"))
{
    NotifyTarget t;
    t.type = NotifyTarget::Type::Webhook;
    t.url = r.url(path);
    return t;
}

AlertEvent raised(const QString &stream = QStringLiteral("s"))
{
    AlertEvent e;
    e.kind = AlertEvent::Kind::Raised;
    e.stream = stream;
    e.condition = QStringLiteral("silent_s");
    e.text = QStringLiteral("silent for 2.0 s");
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.sinceMs = e.timeMs - 1000;
    return e;
}

QJsonObject json(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

// A live stream's snapshot at `nowMs`, its last data message at `lastDataMs`.
StreamSnapshot snapshot(qint64 nowMs, qint64 lastDataMs, quint64 messages)
{
    StreamSnapshot s;
    s.id = 1;
    s.name = QStringLiteral("s");
    s.state = StreamState::Live;
    s.messages = messages;
    s.dataMessages = messages;
    s.lastDataMs = lastDataMs;
    s.lastMessageMs = lastDataMs;
    s.takenAtNs = nowMs * 1'000'000;
    return s;
}

Workspace workspaceWith(const NotifyTarget &target, const QJsonObject &rule)
{
    Workspace ws;
    StreamConfig c;
    c.name = QStringLiteral("s");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/"));
    ws.streams.append(c);
    ws.alerts = QJsonArray{rule};
    ws.notify = {target};
    return ws;
}

} // namespace

class tst_Notifier : public QObject {
    Q_OBJECT
private slots:
    void oneEpisodeOneAlertOneRecovery();
    void flappingInsideHysteresisSendsNothing();
    void retriesAfter500ThenDelivers();
    void honours429RetryAfter();
    void retriesAfterATimeout();
    void forHoldsBeforeRaising();
    void ruleHysteresisKeys();
    void givesUpAfterFiveTries();
    void status400IsPermanent();
    void rateCapSuppressesAndSummarises();
    void slackAndTelegramPayloads();
    void streamDestinationsOnlyForTheirStream();
    void secretsNeverInFailureTexts();
    void unresolvedReferenceFailsWithoutSending();
    void metricsAndReport();
    void headlessRefusesKeychain();
};

void tst_Notifier::oneEpisodeOneAlertOneRecovery()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    AlertService service(fastTiming());
    QString error;
    QVERIFY2(service.configure(workspaceWith(webhook(recorder),
                                             QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")},
                                                         {QStringLiteral("silent_s"), 2},
                                                         {QStringLiteral("clear_after_s"), 3}}),
                               false, &error),
             qPrintable(error));
    QSignalSpy lines(&service, &AlertService::message);
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch() - 60'000;
    // 10 s of data, then 5 s of silence, then data again for 10 s; one sample a second.
    quint64 messages = 0;
    qint64 lastData = t0;
    for (int s = 0; s < 25; ++s) {
        const qint64 now = t0 + s * 1000;
        const bool data = s < 10 || s >= 15;
        if (data) {
            messages += 10;
            lastData = now;
        }
        service.evaluate({snapshot(now, lastData, messages)}, now, now);
    }
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 2, scaledMs(5000));
    QTest::qWait(100); // nothing more arrives
    QCOMPARE(recorder.count(), 2);
    const QJsonObject alert = json(recorder.requests()[0].body);
    QCOMPARE(alert.value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(alert.value(QStringLiteral("event")).toString(), QStringLiteral("raised"));
    QCOMPARE(alert.value(QStringLiteral("stream")).toString(), QStringLiteral("s"));
    QCOMPARE(alert.value(QStringLiteral("condition")).toString(), QStringLiteral("silent_s"));
    QVERIFY(alert.value(QStringLiteral("text")).toString().startsWith(QStringLiteral("silent for")));
    QVERIFY(!alert.value(QStringLiteral("host")).toString().isEmpty());
    // The silence began 2 s after the last data message (t0 + 9 s).
    const QDateTime since = QDateTime::fromString(alert.value(QStringLiteral("since")).toString(), Qt::ISODateWithMs);
    QCOMPARE(since.toMSecsSinceEpoch(), t0 + 11'000);
    QVERIFY(QDateTime::fromString(alert.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs).isValid());
    QCOMPARE(recorder.requests()[0].headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(recorder.requests()[0].method, QByteArray("POST"));
    QCOMPARE(recorder.requests()[0].path, QByteArray("/hook"));
    const QJsonObject recovery = json(recorder.requests()[1].body);
    QCOMPARE(recovery.value(QStringLiteral("event")).toString(), QStringLiteral("cleared"));
    QCOMPARE(recovery.value(QStringLiteral("since")).toString(), alert.value(QStringLiteral("since")).toString());
    QCOMPARE(service.notifier().sent(0), quint64(2));
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0][0].toString().startsWith(QStringLiteral("alert: stream s: raised: silent for")));
    QVERIFY(lines[1][0].toString().startsWith(QStringLiteral("alert: stream s: cleared: ")));
}

void tst_Notifier::flappingInsideHysteresisSendsNothing()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    AlertService service(fastTiming());
    QString error;
    // Raised only after the silence held 3 s: a stream that sends every other second never is.
    QVERIFY(service.configure(workspaceWith(webhook(recorder),
                                            QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")},
                                                        {QStringLiteral("silent_s"), 1},
                                                        {QStringLiteral("for_s"), 3}}),
                              false, &error));
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch() - 60'000;
    quint64 messages = 0;
    qint64 lastData = t0;
    for (int s = 0; s < 30; ++s) {
        const qint64 now = t0 + s * 1000;
        if (s % 3 == 0) { // silent for 2 s at a time: the condition holds for 1 s, then not
            messages += 1;
            lastData = now;
        }
        service.evaluate({snapshot(now, lastData, messages)}, now, now);
    }
    QCOMPARE(service.monitor().activeCount(), 0);
    QTest::qWait(200);
    QCOMPARE(recorder.count(), 0);

    // Once raised, a condition that lets go for less than clear_after_s does not clear (and
    // raises nothing new): one alert in all.
    AlertService second(fastTiming());
    QVERIFY(second.configure(workspaceWith(webhook(recorder),
                                           QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")},
                                                       {QStringLiteral("silent_s"), 1},
                                                       {QStringLiteral("clear_after_s"), 5}}),
                             false, &error));
    lastData = t0;
    for (int s = 0; s < 20; ++s) {
        const qint64 now = t0 + s * 1000;
        if (s % 3 == 0 && s > 0)
            lastData = now;
        second.evaluate({snapshot(now, lastData, quint64(s))}, now, now);
    }
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 1, scaledMs(5000));
    QTest::qWait(200);
    QCOMPARE(recorder.count(), 1);
    QCOMPARE(json(recorder.requests()[0].body).value(QStringLiteral("event")).toString(), QStringLiteral("raised"));
}

void tst_Notifier::retriesAfter500ThenDelivers()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    recorder.script({{500, {}}});
    Notifier n(fastTiming());
    n.setDestinations({webhook(recorder)}, {});
    QSignalSpy delivered(&n, &Notifier::delivered);
    QSignalSpy failed(&n, &Notifier::deliveryFailed);
    n.notify(raised());
    QVERIFY(delivered.wait(scaledMs(5000)));
    QCOMPARE(recorder.count(), 2);
    QCOMPARE(recorder.requests()[0].body, recorder.requests()[1].body);
    QCOMPARE(delivered.size(), 1);
    QCOMPARE(failed.size(), 0);
    QCOMPARE(n.sent(0), quint64(1));
    QCOMPARE(n.failures(0), quint64(0));
}

void tst_Notifier::honours429RetryAfter()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    // An hour asked for: waited, but only up to the bound (200 ms here, 60 s by default),
    // not the 50 ms backoff.
    recorder.script({{429, QByteArrayLiteral("Retry-After: 3600\r\n")}});
    Notifier n(fastTiming());
    n.setDestinations({webhook(recorder)}, {});
    QSignalSpy delivered(&n, &Notifier::delivered);
    n.notify(raised());
    QVERIFY(delivered.wait(scaledMs(5000)));
    QCOMPARE(recorder.count(), 2);
    QVERIFY(recorder.requests()[1].receivedMs - recorder.requests()[0].receivedMs >= 190);
    QCOMPARE(n.sent(0), quint64(1));
}

void tst_Notifier::retriesAfterATimeout()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    recorder.script({{0, {}}}); // the first request is never answered
    Notifier::Timing timing = fastTiming();
    timing.timeoutMs = 300;
    Notifier n(timing);
    n.setDestinations({webhook(recorder)}, {});
    QSignalSpy delivered(&n, &Notifier::delivered);
    QSignalSpy failed(&n, &Notifier::deliveryFailed);
    n.notify(raised());
    QVERIFY(delivered.wait(scaledMs(5000)));
    QCOMPARE(recorder.count(), 2);
    QCOMPARE(failed.size(), 0);
    QCOMPARE(n.sent(0), quint64(1));
}

void tst_Notifier::forHoldsBeforeRaising()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    AlertService service(fastTiming());
    QString error;
    QVERIFY(service.configure(workspaceWith(webhook(recorder),
                                            QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")},
                                                        {QStringLiteral("silent_s"), 1},
                                                        {QStringLiteral("for_s"), 3}}),
                              false, &error));
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch() - 60'000;
    // Data until t0 + 2 s: the silence condition holds from t0 + 3 s, the alert from t0 + 6 s.
    for (int s = 0; s <= 10; ++s) {
        const qint64 now = t0 + s * 1000;
        service.evaluate({snapshot(now, t0 + std::min(s, 2) * 1000, quint64(std::min(s, 2)))}, now, now);
        QCOMPARE(service.monitor().activeCount(), s >= 6 ? 1 : 0);
    }
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 1, scaledMs(5000));
    const QJsonObject alert = json(recorder.requests()[0].body);
    QCOMPARE(
        QDateTime::fromString(alert.value(QStringLiteral("since")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch(),
        t0 + 3000);
}

void tst_Notifier::ruleHysteresisKeys()
{
    AlertRule r;
    QString error;
    QVERIFY(AlertRule::fromJson(QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")},
                                            {QStringLiteral("silent_s"), 5},
                                            {QStringLiteral("for_s"), 10},
                                            {QStringLiteral("clear_after_s"), 0}},
                                QStringLiteral("alerts[0]"), r, &error));
    QCOMPARE(r.forS, 10);
    QCOMPARE(r.clearAfterS, 0);
    AlertRule back;
    QVERIFY(AlertRule::fromJson(r.toJson(), QStringLiteral("x"), back, &error));
    QCOMPARE(back, r);
    AlertRule defaults;
    QVERIFY(AlertRule::fromJson(QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}}, QStringLiteral("x"),
                                defaults, &error));
    QCOMPARE(defaults.forS, 0);
    QCOMPARE(defaults.clearAfterS, 5);
    QVERIFY(!defaults.toJson().contains(QStringLiteral("clear_after_s")));
    QVERIFY(!AlertRule::fromJson(
        QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")}, {QStringLiteral("for_s"), 1.5}},
        QStringLiteral("alerts[3]"), r, &error));
    QCOMPARE(error, QStringLiteral("alerts[3].for_s: expected a whole number of seconds from 0 to 86400"));
    QVERIFY(!AlertRule::fromJson(QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")},
                                             {QStringLiteral("clear_after_s"), QStringLiteral("5")}},
                                 QStringLiteral("alerts[0]"), r, &error));
    QCOMPARE(error, QStringLiteral("alerts[0].clear_after_s: expected a whole number of seconds from 0 to 86400"));
}

void tst_Notifier::givesUpAfterFiveTries()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    recorder.script({{503, {}}, {503, {}}, {503, {}}, {503, {}}, {503, {}}, {503, {}}});
    Notifier n(fastTiming());
    n.setDestinations({webhook(recorder)}, {});
    QSignalSpy failed(&n, &Notifier::deliveryFailed);
    n.notify(raised());
    QVERIFY(failed.wait(scaledMs(10000)));
    QCOMPARE(recorder.count(), Notifier::kMaxTries);
    QCOMPARE(n.failures(0), quint64(1));
    QCOMPARE(n.sent(0), quint64(0));
    QVERIFY2(failed[0][1].toString().contains(QStringLiteral("HTTP 503, given up after 5 tries")),
             qPrintable(failed[0][1].toString()));
}

void tst_Notifier::status400IsPermanent()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    recorder.script({{400, {}}});
    Notifier n(fastTiming());
    n.setDestinations({webhook(recorder)}, {});
    QSignalSpy failed(&n, &Notifier::deliveryFailed);
    n.notify(raised());
    QVERIFY(failed.wait(scaledMs(5000)));
    QTest::qWait(400); // well past the first retry's 50 ms: none comes
    QCOMPARE(recorder.count(), 1);
    QCOMPARE(failed.size(), 1);
    QCOMPARE(n.failures(0), quint64(1));
    const QString text = failed[0][1].toString();
    QVERIFY2(text.startsWith(QStringLiteral("webhook-0 (http://127.0.0.1:")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("raised not delivered: HTTP 400 Scripted, not retried")), qPrintable(text));
}

void tst_Notifier::rateCapSuppressesAndSummarises()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    Notifier::Timing timing = fastTiming();
    timing.rateWindowMs = 600;
    Notifier n(timing);
    NotifyTarget t = webhook(recorder);
    t.maxPerMinute = 2;
    n.setDestinations({t}, {});
    for (int i = 0; i < 5; ++i)
        n.notify(raised(QStringLiteral("s%1").arg(i)));
    QCOMPARE(n.suppressed(0), quint64(3));
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 3, scaledMs(5000));
    QTest::qWait(100);
    QCOMPARE(recorder.count(), 3);
    QCOMPARE(json(recorder.requests()[0].body).value(QStringLiteral("stream")).toString(), QStringLiteral("s0"));
    QCOMPARE(json(recorder.requests()[1].body).value(QStringLiteral("stream")).toString(), QStringLiteral("s1"));
    const QJsonObject summary = json(recorder.requests()[2].body);
    QCOMPARE(summary.value(QStringLiteral("event")).toString(), QStringLiteral("suppressed"));
    QCOMPARE(summary.value(QStringLiteral("suppressed")).toInt(), 3);
    QVERIFY(recorder.requests()[2].receivedMs - recorder.requests()[0].receivedMs >= 500);
    QCOMPARE(n.sent(0), quint64(3));
}

void tst_Notifier::slackAndTelegramPayloads()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    qputenv("TST_NOTIFIER_SLACK_URL", recorder.url(QStringLiteral("/services/T0/B0/xyz")).toUtf8());
    qputenv("TST_NOTIFIER_TG_TOKEN", "123456:ABC-secret");
    NotifyTarget slack;
    slack.type = NotifyTarget::Type::Slack;
    slack.url = QStringLiteral("env:TST_NOTIFIER_SLACK_URL");
    NotifyTarget telegram;
    telegram.type = NotifyTarget::Type::Telegram;
    telegram.url = recorder.url(QString());
    telegram.token = QStringLiteral("env:TST_NOTIFIER_TG_TOKEN");
    telegram.chatId = QStringLiteral("-1001234");
    Notifier n(fastTiming());
    n.setDestinations({slack, telegram}, {});
    QCOMPARE(n.describe(0), QStringLiteral("slack-0 (env:TST_NOTIFIER_SLACK_URL)"));
    QVERIFY(!n.describe(1).contains(QStringLiteral("ABC-secret")));
    n.notify(raised());
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 2, scaledMs(5000));
    QHash<QByteArray, QJsonObject> byPath;
    for (const HttpRecorder::Request &r : recorder.requests())
        byPath.insert(r.path, json(r.body));
    QVERIFY(byPath.contains("/services/T0/B0/xyz"));
    const QJsonObject s = byPath.value("/services/T0/B0/xyz");
    QCOMPARE(s.keys(), QStringList{QStringLiteral("text")});
    QVERIFY2(s.value(QStringLiteral("text")).toString().contains(QStringLiteral("ALERT s: silent for 2.0 s")),
             qPrintable(s.value(QStringLiteral("text")).toString()));
    QVERIFY(byPath.contains("/bot123456:ABC-secret/sendMessage"));
    const QJsonObject tg = byPath.value("/bot123456:ABC-secret/sendMessage");
    QCOMPARE(tg.value(QStringLiteral("chat_id")).toString(), QStringLiteral("-1001234"));
    QVERIFY(tg.value(QStringLiteral("text")).toString().contains(QStringLiteral("ALERT s: silent for 2.0 s")));
    QCOMPARE(n.sent(0), quint64(1));
    QCOMPARE(n.sent(1), quint64(1));
}

void tst_Notifier::streamDestinationsOnlyForTheirStream()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    Notifier n(fastTiming());
    n.setDestinations({webhook(recorder, QStringLiteral("/all"))},
                      {{QStringLiteral("a"), webhook(recorder, QStringLiteral("/a"))}});
    QCOMPARE(n.label(1), QStringLiteral("webhook-1"));
    n.notify(raised(QStringLiteral("b")));
    n.notify(raised(QStringLiteral("a")));
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 3, scaledMs(5000));
    QTest::qWait(100);
    QCOMPARE(recorder.count(), 3);
    QCOMPARE(n.sent(0), quint64(2));
    QCOMPARE(n.sent(1), quint64(1));
}

void tst_Notifier::secretsNeverInFailureTexts()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    const QByteArray token = "987654:TOPSECRET-token";
    qputenv("TST_NOTIFIER_TG_TOKEN2", token);
    // A refused connection: Qt's error text quotes the URL, token and all.
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
    const quint16 closedPort = closed.serverPort();
    closed.close();
    NotifyTarget refused;
    refused.type = NotifyTarget::Type::Telegram;
    refused.url = QStringLiteral("http://127.0.0.1:%1").arg(closedPort);
    refused.token = QStringLiteral("env:TST_NOTIFIER_TG_TOKEN2");
    refused.chatId = QStringLiteral("1");
    NotifyTarget rejected = refused;
    rejected.url = recorder.url(QString());
    recorder.script({{403, {}}});
    qputenv("TST_NOTIFIER_SECRET_URL", recorder.url(QStringLiteral("/hook/TOPSECRET-path")).toUtf8());
    NotifyTarget hidden;
    hidden.type = NotifyTarget::Type::Webhook;
    hidden.url = QStringLiteral("env:TST_NOTIFIER_SECRET_URL");
    Notifier::Timing timing = fastTiming();
    timing.firstRetryMs = 10;
    Notifier n(timing);
    n.setDestinations({refused, rejected, hidden}, {});
    QSignalSpy failed(&n, &Notifier::deliveryFailed);
    QSignalSpy tests(&n, &Notifier::testFinished);
    n.notify(raised());
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 2, scaledMs(10000));
    n.sendTest(0);
    QVERIFY(tests.wait(scaledMs(5000)));
    QStringList texts;
    for (const QList<QVariant> &f : failed)
        texts << f[1].toString();
    texts << tests[0][2].toString();
    for (int i = 0; i < 3; ++i)
        texts << n.describe(i);
    for (const QString &t : std::as_const(texts)) {
        QVERIFY2(!t.contains(QStringLiteral("TOPSECRET")), qPrintable(t));
        QVERIFY2(!t.contains(QString::fromLatin1(token)), qPrintable(t));
    }
    QCOMPARE(n.describe(2), QStringLiteral("webhook-2 (env:TST_NOTIFIER_SECRET_URL)"));
    // The texts Qt gives for other network errors quote the URL: redacted whole, token and all.
    const QString tokenUrl =
        QStringLiteral("http://127.0.0.1:%1/bot%2/sendMessage").arg(closedPort).arg(QString::fromLatin1(token));
    QCOMPARE(
        Notifier::redactSecrets(refused, QStringLiteral("Error transferring %1 - server replied: x").arg(tokenUrl)),
        QStringLiteral("Error transferring http://127.0.0.1:%1/bot<redacted>/sendMessage - server replied: x")
            .arg(closedPort));
    QCOMPARE(Notifier::redactSecrets(
                 hidden, QStringLiteral("Host %1 not found").arg(recorder.url(QStringLiteral("/hook/TOPSECRET-path")))),
             QStringLiteral("Host <redacted> not found"));
    QCOMPARE(n.failures(0), quint64(1));
    QCOMPARE(n.failures(1), quint64(1));
    QCOMPARE(n.sent(2), quint64(1));
}

void tst_Notifier::unresolvedReferenceFailsWithoutSending()
{
    qunsetenv("TST_NOTIFIER_UNSET");
    NotifyTarget t;
    t.type = NotifyTarget::Type::Slack;
    t.url = QStringLiteral("env:TST_NOTIFIER_UNSET");
    Notifier n(fastTiming());
    n.setDestinations({t}, {});
    QSignalSpy failed(&n, &Notifier::deliveryFailed);
    n.notify(raised());
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed[0][1].toString(),
             QStringLiteral("slack-0 (env:TST_NOTIFIER_UNSET): raised not delivered: env:TST_NOTIFIER_UNSET is not "
                            "set, nothing sent"));
    QCOMPARE(n.pendingRequests(), 0);
}

void tst_Notifier::metricsAndReport()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    AlertService service(fastTiming());
    QString error;
    QVERIFY(service.configure(
        workspaceWith(webhook(recorder),
                      QJsonObject{{QStringLiteral("stream"), QStringLiteral("s")}, {QStringLiteral("silent_s"), 1}}),
        false, &error));
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch() - 10'000;
    service.evaluate({snapshot(t0, t0, 1)}, t0, t0);
    service.evaluate({snapshot(t0 + 3000, t0, 1)}, t0 + 3000, t0 + 3000);
    QTRY_COMPARE_WITH_TIMEOUT(service.notifier().sent(0), quint64(1), scaledMs(5000));
    const QByteArray om = service.renderMetrics(false);
    QVERIFY2(om.contains("# TYPE streamscope_alerts_active gauge\n"), om.constData());
    QVERIFY(om.contains("streamscope_alerts_active{stream=\"s\"} 1\n"));
    QVERIFY(om.contains("# TYPE streamscope_alerts_raised counter\n"));
    QVERIFY(om.contains("streamscope_alerts_raised_total{stream=\"s\"} 1\n"));
    QVERIFY(om.contains("# TYPE streamscope_notify_sent counter\n"));
    QVERIFY(om.contains("streamscope_notify_sent_total{destination=\"webhook-0\"} 1\n"));
    QVERIFY(om.contains("streamscope_notify_failures_total{destination=\"webhook-0\"} 0\n"));
    const QByteArray classic = service.renderMetrics(true);
    QVERIFY(classic.contains("# TYPE streamscope_alerts_raised_total counter\n"));
    QVERIFY(classic.contains("# TYPE streamscope_notify_failures_total counter\n"));

    QJsonObject report{
        {QStringLiteral("streams"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("s")}}}}};
    service.addToReport(report);
    const QJsonObject s = report.value(QStringLiteral("streams")).toArray().at(0).toObject();
    QCOMPARE(s.value(QStringLiteral("alerts_raised")).toInt(), 1);
    QCOMPARE(s.value(QStringLiteral("alerts_active")).toArray().size(), 1);
    QCOMPARE(s.value(QStringLiteral("alerts_active"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("condition"))
                 .toString(),
             QStringLiteral("silent_s"));
    const QJsonObject alertsTop = report.value(QStringLiteral("alerts")).toObject();
    QCOMPARE(alertsTop.value(QStringLiteral("raised")).toInt(), 1);
    QCOMPARE(
        alertsTop.value(QStringLiteral("active")).toArray().at(0).toObject().value(QStringLiteral("stream")).toString(),
        QStringLiteral("s"));
    const QJsonObject notify = report.value(QStringLiteral("notify")).toArray().at(0).toObject();
    QCOMPARE(notify.value(QStringLiteral("destination")).toString(), QStringLiteral("webhook-0"));
    QCOMPARE(notify.value(QStringLiteral("sent")).toInt(), 1);
}

void tst_Notifier::headlessRefusesKeychain()
{
    NotifyTarget t;
    t.type = NotifyTarget::Type::Telegram;
    t.token = QStringLiteral("keychain:tg");
    t.chatId = QStringLiteral("1");
    Workspace ws = workspaceWith(t, QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}});
    AlertService service;
    QString error;
    QVERIFY(!service.configure(ws, false, &error));
    QCOMPARE(error,
             QStringLiteral("notify[0].token: expected an \"env:NAME\" reference: the keychain is available "
                            "only in the desktop app, not in headless mode"));
    QVERIFY(service.configure(ws, true, &error));
    ws.notify.clear();
    ws.streams[0].notify = {t};
    QVERIFY(!service.configure(ws, false, &error));
    QVERIFY(error.startsWith(QStringLiteral("streams[0].notify[0].token: ")));
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_Notifier)
#include "tst_notifier.moc"
