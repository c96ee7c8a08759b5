// The "Alert destinations" dialog: editing the list, "Send test" against a loopback recorder
// (sent, an HTTP error, a reference that is not set), and entries refused as the workspace
// loader refuses them.

#include "HttpRecorder.h"
#include "Notifier.h"
#include "NotifyDialog.h"

#include "../common/TimeFactor.h"

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
    void sendTestShowsTheResult();
    void addEditAndValidate();
};

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

QTEST_MAIN(tst_NotifyDialog)
#include "tst_notifydialog.moc"
