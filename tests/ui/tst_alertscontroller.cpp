// The window on the one alert path: AlertService (headless mode's) evaluates the window's
// figures and sends; the window shows. A rule that fires shows on the row, in the Alerts list,
// the event log and the dock's title, pops up once and is sent to the webhook exactly once;
// its end is sent once too. A restart warms the rate rule up again; a removed stream's alert
// ends without a notification. Streams → Alert rules… previews a rule on what the window's
// streams did, and its OK sets the rules and marks the workspace modified.

#include "../common/RefusingPort.h"
#include "../common/TestRegistry.h"
#include "AlertRulesDialog.h"
#include "AlertService.h"
#include "AlertsController.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "HttpRecorder.h"
#include "MainWindow.h"
#include "SnapshotHub.h"
#include "StreamTableModel.h"

#include "../common/TimeFactor.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtGui/QStandardItemModel>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QSpinBox>

using namespace streamscope;
using namespace streamscope::ui;
using streamscope::testing::scaledMs;

namespace {

// Nothing listens on this port, for the whole run: the stream never gets data.
QUrl deadUrl()
{
    static const testing::RefusingPort refusing;
    if (refusing.port() == 0)
        return {};
    return QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(refusing.port()));
}

QString eventOf(const HttpRecorder::Request &r)
{
    return QJsonDocument::fromJson(r.body).object().value(QStringLiteral("event")).toString();
}

} // namespace

class tst_AlertsController : public QObject {
    Q_OBJECT
private slots:
    void firesShowsAndNotifiesOnce();
    void figuresAreTheTables();
    void rulesEditorPreviewsTheLiveStreams();
    void theCrossVenuePassHasItsOwnTick();
    void eachTickJudgesATenthOfTheStreams();
};

void tst_AlertsController::firesShowsAndNotifiesOnce()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    Engine engine;
    MainWindow w(&engine);
    QSignalSpy popups(&w, &MainWindow::alertNotified);
    QSignalSpy raised(w.alertService(), &alerts::AlertService::alertRaised);
    QSignalSpy cleared(w.alertService(), &alerts::AlertService::alertCleared);
    Workspace ws;
    StreamConfig dead;
    dead.name = QStringLiteral("dead");
    dead.url = deadUrl();
    dead.reconnectBaseMs = 100;
    ws.streams = {dead};
    NotifyTarget hook;
    hook.type = NotifyTarget::Type::Webhook;
    hook.url = recorder.url(QStringLiteral("/hook"));
    ws.notify = {hook};
    ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("dead")},
                                       {QStringLiteral("silent_s"), 1},
                                       {QStringLiteral("clear_after_s"), 0}}};
    w.setWorkspace(ws, QString());
    const StreamId id = engine.streamIds().first();

    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 1, scaledMs(8000));
    QCOMPARE(eventOf(recorder.requests().first()), QStringLiteral("raised"));
    QCOMPARE(raised.count(), 1);
    QCOMPARE(popups.count(), 1);
    QVERIFY(popups.first().at(0).toString().contains(QStringLiteral("dead")));
    // Shown: the row, the Alerts list and its dock's title, the event log.
    const QModelIndex row = w.streamModel()->index(w.streamModel()->rowOf(id), 0);
    QVERIFY(!row.data(StreamTableModel::AlertRole).toString().isEmpty());
    QCOMPARE(w.activeAlerts()->rowCount(), 1);
    QCOMPARE(w.activeAlerts()->item(0, 1)->text(), QStringLiteral("dead"));
    QCOMPARE(w.activeAlerts()->item(0, 0)->data(Qt::UserRole).toUInt(), id);
    QCOMPARE(w.findChild<QDockWidget *>(QStringLiteral("alertsDock"))->windowTitle(), QStringLiteral("Alerts (1)"));
    w.eventLog()->flush();
    int logged = 0;
    for (int r = 0; r < w.eventLog()->rowCount(); ++r)
        logged += w.eventLog()->entryAt(r)->kind == QLatin1String("alert") ? 1 : 0;
    QCOMPARE(logged, 1);

    // Once a second goes on: the episode goes on, nothing more is raised or sent.
    for (int i = 0; i < 3; ++i)
        w.refreshNow(true);
    QCOMPARE(raised.count(), 1);

    // Stopped, it ends: sent once, after the one raised.
    engine.stopStream(id);
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 2, scaledMs(8000));
    QCOMPARE(eventOf(recorder.requests().at(1)), QStringLiteral("cleared"));
    QCOMPARE(cleared.count(), 1);
    QCOMPARE(raised.count(), 1);
    QCOMPARE(popups.count(), 1);
    QCOMPARE(w.activeAlerts()->rowCount(), 0);
    QVERIFY(row.data(StreamTableModel::AlertRole).toString().isEmpty());
    QCOMPARE(w.findChild<QDockWidget *>(QStringLiteral("alertsDock"))->windowTitle(), QStringLiteral("Alerts"));

    // Started again it fires again; removed, its alert ends without a notification.
    engine.restartStream(id);
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 3, scaledMs(8000));
    QCOMPARE(w.activeAlerts()->rowCount(), 1);
    engine.removeStream(id);
    QCOMPARE(w.activeAlerts()->rowCount(), 0);
    QCOMPARE(w.alertService()->monitor().activeCount(), 0);
    w.refreshNow(true);
    QCOMPARE(cleared.count(), 1);
    QCOMPARE(recorder.count(), 3);
}

// The window evaluates the rules on its table's figures: a rate rule sees the rate the table
// shows; a stream restarted from the window warms up again before its rate rule may fire.
void tst_AlertsController::figuresAreTheTables()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    StreamConfig dead;
    dead.name = QStringLiteral("slow");
    dead.url = deadUrl();
    ws.streams = {dead};
    ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("slow")},
                                       {QStringLiteral("rate_below"), 5},
                                       {QStringLiteral("clear_after_s"), 0}}};
    w.setWorkspace(ws, QString());
    const StreamId id = engine.streamIds().first();
    QSignalSpy raised(w.alertService(), &alerts::AlertService::alertRaised);
    QSignalSpy cleared(w.alertService(), &alerts::AlertService::alertCleared);
    w.refreshNow(true);
    QCOMPARE(raised.count(), 0); // warming up: 5 s after the start
    QVERIFY(raised.wait(scaledMs(15000)));
    QCOMPARE(raised.count(), 1);
    const auto event = raised.first().at(2).value<alerts::AlertEvent>();
    QCOMPARE(event.stream, QStringLiteral("slow"));
    QCOMPARE(event.condition, QStringLiteral("rate_below"));
    QCOMPARE(w.streamModel()->row(id)->msgsPerSec, 0.0);

    // Stopped, it ends; restarted from the window, it warms up again.
    w.selectStream(id);
    w.findChild<QAction *>(QStringLiteral("stopStreams"))->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(cleared.count(), 1, scaledMs(5000));
    w.findChild<QAction *>(QStringLiteral("restartStreams"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT((w.refreshNow(true), w.streamModel()->row(id)->snap.state != StreamState::Stopped),
                             scaledMs(2000));
    w.refreshNow(true);
    QCOMPARE(raised.count(), 1);
    QVERIFY(raised.wait(scaledMs(15000)));
    QCOMPARE(raised.count(), 2);
}

// The window keeps what each rule was evaluated on: a dead stream's silence, previewed in the
// rules editor opened from the menu; a threshold beyond it previews nothing; OK sets the rule.
void tst_AlertsController::rulesEditorPreviewsTheLiveStreams()
{
    Engine engine;
    MainWindow w(&engine);
    QSignalSpy raised(w.alertService(), &alerts::AlertService::alertRaised);
    Workspace ws;
    StreamConfig dead;
    dead.name = QStringLiteral("dead");
    dead.url = deadUrl();
    dead.reconnectBaseMs = 100;
    ws.streams = {dead};
    ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("dead")},
                                       {QStringLiteral("silent_s"), 1},
                                       {QStringLiteral("clear_after_s"), 0}}};
    w.setWorkspace(ws, QString());
    QTRY_VERIFY_WITH_TIMEOUT(raised.size() >= 1, scaledMs(8000));
    QVERIFY2(!w.windowTitle().contains(QStringLiteral(" *")), qPrintable(w.windowTitle()));

    bool checked = false;
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<AlertRulesDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        auto *preview = dialog->findChild<QListWidget *>(QStringLiteral("preview"));
        auto *silent = dialog->findChild<QSpinBox *>(QStringLiteral("silent"));
        QVERIFY(preview && silent);
        QCOMPARE(preview->count(), 1);
        QVERIFY2(preview->item(0)->text().contains(QStringLiteral("dead")), qPrintable(preview->item(0)->text()));
        QVERIFY(preview->item(0)->text().contains(QStringLiteral("silent")));
        silent->setValue(3600);
        QCOMPARE(preview->count(), 0);
        checked = true;
        dialog->accept();
    });
    w.findChild<QAction *>(QStringLiteral("alertRules"))->trigger();
    QVERIFY(checked);
    QCOMPARE(w.alertService()->monitor().ruleFor(QStringLiteral("dead")).silentS, 3600);
    QVERIFY2(w.windowTitle().contains(QStringLiteral(" *")), qPrintable(w.windowTitle())); // modified
}

// The window judges each stream once a second, a tenth of them on each of its timer's ticks,
// not all of them on one; a slow refresh out of turn judges every one at once.
void tst_AlertsController::eachTickJudgesATenthOfTheStreams()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    const QUrl dead = deadUrl();
    for (int i = 0; i < 200; ++i) {
        StreamConfig c;
        c.name = QStringLiteral("s%1").arg(i);
        c.url = dead;
        ws.streams.append(c);
    }
    ws.alerts =
        QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("silent_s"), 1}}};
    w.setWorkspace(ws, QString());
    QCOMPARE(w.streamModel()->rowCount(), 200);
    int judged = 0;
    for (int i = 0; i < SnapshotHub::kSlowEvery; ++i) {
        w.hub()->tickNow();
        QCOMPARE(w.alerts()->evaluatedLastTick(), 20);
        judged += w.alerts()->evaluatedLastTick();
    }
    QCOMPARE(judged, 200);
    w.refreshNow(true);
    QCOMPARE(w.alerts()->evaluatedLastTick(), 200);
    w.refreshNow(false);
    QCOMPARE(w.alerts()->evaluatedLastTick(), 0);
}

// The cross-venue pass over every stream runs once a second on its own tick, half a second
// after the slow one, so that no tick carries both full passes; a slow refresh out of turn
// runs it too, a fast one does not.
void tst_AlertsController::theCrossVenuePassHasItsOwnTick()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    const QUrl dead = deadUrl();
    for (int i = 0; i < 10; ++i) {
        StreamConfig c;
        c.name = QStringLiteral("s%1").arg(i);
        c.url = dead;
        ws.streams.append(c);
    }
    w.setWorkspace(ws, QString());
    SnapshotHub::Tick current;
    connect(w.hub(), &SnapshotHub::snapshotsChanged, this,
            [&current](const QList<qsizetype> &, const QList<StreamId> &, const SnapshotHub::Tick &t) { current = t; });
    QList<int> passPhases;
    connect(w.alertService(), &alerts::AlertService::crossVenueUpdated, this, [&] { passPhases << current.phase; });
    QList<int> slowPhases;
    for (int i = 0; i < 2 * SnapshotHub::kSlowEvery; ++i) {
        w.hub()->tickNow();
        if (current.kind == SnapshotHub::TickKind::Slow)
            slowPhases << current.phase;
    }
    QCOMPARE(slowPhases, (QList<int>{0, 0}));
    QCOMPARE(passPhases, (QList<int>{SnapshotHub::kCrossVenuePhase, SnapshotHub::kCrossVenuePhase}));
    passPhases.clear();
    w.refreshNow(true);
    QCOMPARE(passPhases, (QList<int>{SnapshotHub::kAllDue}));
    w.refreshNow(false);
    QCOMPARE(passPhases.size(), 1);
}

STREAMSCOPE_TEST_MAIN(tst_AlertsController)
#include "tst_alertscontroller.moc"
