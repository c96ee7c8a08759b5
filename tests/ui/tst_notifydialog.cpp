// The "Alert destinations" dialog: editing the list, "Send test" against a loopback recorder
// (sent, an HTTP error, a reference that is not set), and entries refused as the workspace
// loader refuses them.

#include "../common/RefusingPort.h"
#include "../common/TestRegistry.h"
#include "AlertService.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "HttpRecorder.h"
#include "MainWindow.h"
#include "Notifier.h"
#include "NotifyDialog.h"

#include "../common/TimeFactor.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>

using namespace streamscope;
using namespace streamscope::ui;
using streamscope::testing::scaledMs;

class tst_NotifyDialog : public QObject {
    Q_OBJECT
private slots:
    void readsAtItsFirstSize();
    void sendTestShowsTheResult();
    void addEditAndValidate();
    void mainWindowSendsEpisodes();
};

// Opened, the dialog is wide enough to read: a webhook's URL whole, the note on secrets on two
// lines at most (its layout alone made a narrow column with the note on four).
void tst_NotifyDialog::readsAtItsFirstSize()
{
    alerts::Notifier notifier;
    NotifyDialog dialog(&notifier);
    NotifyTarget webhook;
    webhook.type = NotifyTarget::Type::Webhook;
    webhook.url = QStringLiteral("https://alerts.example.net/hooks/streamscope/desk-7");
    dialog.setTargets({webhook});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *url = dialog.findChild<QLineEdit *>(QStringLiteral("url"));
    QVERIFY(url && url->text() == webhook.url);
    QVERIFY2(url->width() >= url->fontMetrics().horizontalAdvance(webhook.url),
             qPrintable(QStringLiteral("URL field %1 px").arg(url->width())));
    auto *note = dialog.findChild<QLabel *>(QStringLiteral("secretsNote"));
    QVERIFY(note);
    QVERIFY2(note->height() <= note->fontMetrics().lineSpacing() * 2 + 4,
             qPrintable(QStringLiteral("note %1 px high, %2 wide").arg(note->height()).arg(note->width())));
}

void tst_NotifyDialog::sendTestShowsTheResult()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    recorder.script({{200, {}}, {502, {}}});
    alerts::Notifier notifier;
    NotifyDialog dialog(&notifier);
    NotifyTarget t;
    t.type = NotifyTarget::Type::Webhook;
    t.url = recorder.url(QStringLiteral("/hook"));
    dialog.setTargets({t});
    auto *test = dialog.findChild<QPushButton *>(QStringLiteral("sendTest"));
    auto *result = dialog.findChild<QLabel *>(QStringLiteral("testResult"));
    QVERIFY(test && result);
    QVERIFY(test->isEnabled());
    QTest::mouseClick(test, Qt::LeftButton);
    QVERIFY(!test->isEnabled()); // one test at a time
    QTRY_COMPARE_WITH_TIMEOUT(result->text(), QStringLiteral("Test sent: sent (HTTP 200)"), scaledMs(5000));
    QCOMPARE(recorder.count(), 1);
    const QJsonObject body = QJsonDocument::fromJson(recorder.requests()[0].body).object();
    QCOMPARE(body.value(QStringLiteral("event")).toString(), QStringLiteral("test"));
    QVERIFY(test->isEnabled());
    // A failing destination is tried once, and says why.
    QTest::mouseClick(test, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(result->text(), QStringLiteral("Test failed: HTTP 502"), scaledMs(5000));
    QCOMPARE(recorder.count(), 2);
    QCOMPARE(notifier.destinationCount(), 0); // the dialog tests what it edits, not the notifier's list
    // A reference that is not set: nothing is sent.
    qunsetenv("TST_NOTIFYDIALOG_UNSET");
    auto *url = dialog.findChild<QLineEdit *>(QStringLiteral("url"));
    url->setText(QStringLiteral("env:TST_NOTIFYDIALOG_UNSET"));
    emit url->textEdited(url->text());
    QTest::mouseClick(test, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(result->text(),
                              QStringLiteral("Test failed: env:TST_NOTIFYDIALOG_UNSET is not set, nothing sent"),
                              scaledMs(5000));
    QCOMPARE(recorder.count(), 2);
}

void tst_NotifyDialog::addEditAndValidate()
{
    NotifyDialog dialog(nullptr);
    dialog.setTargets({});
    auto *list = dialog.findChild<QListWidget *>(QStringLiteral("destinations"));
    auto *type = dialog.findChild<QComboBox *>(QStringLiteral("type"));
    auto *url = dialog.findChild<QLineEdit *>(QStringLiteral("url"));
    auto *token = dialog.findChild<QLineEdit *>(QStringLiteral("token"));
    auto *chat = dialog.findChild<QLineEdit *>(QStringLiteral("chatId"));
    auto *error = dialog.findChild<QLabel *>(QStringLiteral("error"));
    QCOMPARE(list->count(), 0);
    QVERIFY(!url->isEnabled());
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("add")), Qt::LeftButton);
    QCOMPARE(list->count(), 1);
    QVERIFY(url->isEnabled());
    // A Slack URL typed in clear is refused as the workspace file refuses it.
    type->setCurrentIndex(type->findText(QStringLiteral("slack")));
    url->setText(QStringLiteral("https://hooks.slack.com/services/T/B/X"));
    emit url->textEdited(url->text());
    dialog.accept();
    QVERIFY(dialog.result() != QDialog::Accepted);
    QVERIFY(error->isVisibleTo(&dialog));
    QVERIFY2(error->text().startsWith(QStringLiteral("destinations: notify[0].url: expected a reference")),
             qPrintable(error->text()));
    // Telegram: token and chat.
    type->setCurrentIndex(type->findText(QStringLiteral("telegram")));
    QVERIFY(token->isVisibleTo(&dialog));
    url->setText(QString());
    emit url->textEdited(url->text());
    token->setText(QStringLiteral("env:TG_TOKEN"));
    emit token->textEdited(token->text());
    chat->setText(QStringLiteral("@ops"));
    emit chat->textEdited(chat->text());
    QString why;
    QVERIFY2(NotifyDialog::validate(dialog.targets(), &why), qPrintable(why));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.targets().size(), 1);
    const NotifyTarget t = dialog.targets().first();
    QCOMPARE(t.type, NotifyTarget::Type::Telegram);
    QCOMPARE(t.token, QStringLiteral("env:TG_TOKEN"));
    QCOMPARE(t.chatId, QStringLiteral("@ops"));
    QVERIFY(list->item(0)->text().startsWith(QStringLiteral("telegram-0  https://api.telegram.org, chat @ops")));
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("remove")), Qt::LeftButton);
    QCOMPARE(dialog.targets().size(), 0);
}

void tst_NotifyDialog::mainWindowSendsEpisodes()
{
    HttpRecorder recorder;
    QVERIFY(recorder.listen());
    Engine engine;
    MainWindow w(&engine);
    const testing::RefusingPort refusing; // nothing listens on this port: the stream never gets data
    const quint16 deadPort = refusing.port();
    QVERIFY(deadPort != 0);
    Workspace ws;
    StreamConfig dead;
    dead.name = QStringLiteral("dead");
    dead.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(deadPort));
    dead.reconnectBaseMs = 100;
    NotifyTarget own;
    own.type = NotifyTarget::Type::Webhook;
    own.url = recorder.url(QStringLiteral("/dead"));
    dead.notify = {own};
    ws.streams = {dead};
    NotifyTarget all = own;
    all.url = recorder.url(QStringLiteral("/all"));
    qunsetenv("TST_NOTIFYDIALOG_SLACK");
    NotifyTarget unset;
    unset.type = NotifyTarget::Type::Slack;
    unset.url = QStringLiteral("env:TST_NOTIFYDIALOG_SLACK");
    ws.notify = {all, unset};
    ws.alerts = QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("dead")},
                                       {QStringLiteral("silent_s"), 1},
                                       {QStringLiteral("clear_after_s"), 0}}};
    w.setWorkspace(ws, QString());
    QCOMPARE(w.alertService()->notifier().destinationCount(), 3);
    QCOMPARE(w.alertService()->notifier().label(2),
             QStringLiteral("webhook-2")); // the stream's own, after the workspace's
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 2, scaledMs(8000));
    QSet<QByteArray> paths;
    for (const HttpRecorder::Request &r : recorder.requests()) {
        paths.insert(r.path);
        QCOMPARE(QJsonDocument::fromJson(r.body).object().value(QStringLiteral("event")).toString(),
                 QStringLiteral("raised"));
    }
    QCOMPARE(paths, (QSet<QByteArray>{"/all", "/dead"}));
    // The destination whose reference is not set fails, and says so in the event log.
    w.eventLog()->flush();
    bool logged = false;
    for (int r = 0; r < w.eventLog()->rowCount(); ++r) {
        const EventLogModel::Entry *e = w.eventLog()->entryAt(r);
        logged = logged
            || (e->kind == QStringLiteral("notify")
                && e->text
                    == QStringLiteral("slack-1 (env:TST_NOTIFYDIALOG_SLACK): raised not delivered: "
                                      "env:TST_NOTIFYDIALOG_SLACK is not set, nothing sent"));
    }
    QVERIFY(logged);
    // Stopped, the episode ends: one recovery each.
    engine.stopStream(engine.streamIds().first());
    QTRY_COMPARE_WITH_TIMEOUT(recorder.count(), 4, scaledMs(8000));
    QCOMPARE(QJsonDocument::fromJson(recorder.requests()[3].body).object().value(QStringLiteral("event")).toString(),
             QStringLiteral("cleared"));
    // Saved, the destinations stay where they were.
    const Workspace saved = w.currentWorkspace();
    QCOMPARE(saved.notify, ws.notify);
    QCOMPARE(saved.streams.first().notify, dead.notify);
}

STREAMSCOPE_TEST_MAIN(tst_NotifyDialog)
#include "tst_notifydialog.moc"
