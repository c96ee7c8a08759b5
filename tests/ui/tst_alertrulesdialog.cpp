// Streams → Alert rules…: the rules listed and edited in the form, a rule added and removed,
// two rules for one stream refused naming the entry, the preview of what the selected rule
// would have raised on the samples kept (and nothing for a stream with its own rule under "*"),
// and "Send test" on each destination against a loopback recorder, with its result shown.

#include "../common/TestRegistry.h"
#include "AlertRulesDialog.h"
#include "AlertTrail.h"
#include "HttpRecorder.h"
#include "Notifier.h"

#include "../common/TimeFactor.h"

#include <QtTest/QTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTreeWidget>

using namespace streamscope;
using namespace streamscope::ui;
using streamscope::alerts::AlertRule;
using streamscope::testing::scaledMs;

namespace {

AlertRule rule(const QString &stream, double rateBelow, int silentS)
{
    AlertRule r;
    r.stream = stream;
    r.rateBelow = rateBelow;
    r.silentS = silentS;
    return r;
}

// Two minutes of "btc" (100 msgs/s, then 20 s at 2 msgs/s) and "eth" (silent from 60 s on).
void fill(alerts::AlertTrail &trail)
{
    const qint64 start = 1'800'000'000'000;
    for (int i = 0; i < 120; ++i) {
        alerts::AlertMonitor::Sample btc;
        btc.state = StreamState::Live;
        btc.msgsPerSec = i >= 50 && i < 70 ? 2 : 100;
        btc.runningForMs = qint64(i) * 1000;
        alerts::AlertMonitor::Sample eth = btc;
        eth.msgsPerSec = i >= 60 ? 0 : 50;
        eth.silentMs = i >= 60 ? qint64(i - 60) * 1000 : 0;
        trail.record(1, QStringLiteral("btc"), btc, start + qint64(i) * 1000);
        trail.record(2, QStringLiteral("eth"), eth, start + qint64(i) * 1000);
    }
}

} // namespace

class tst_AlertRulesDialog : public QObject {
    Q_OBJECT
private slots:
    // Opened, every field of the form has its full height (the preview and the destinations
    // below squeezed them to slivers on a 720-pixel screen) and the dialog fits the screen.
    void formFieldsKeepTheirHeight()
    {
        AlertRulesDialog dialog(nullptr, nullptr, {QStringLiteral("btc")});
        dialog.setRules({rule(QStringLiteral("btc"), 10, 0)});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        for (QWidget *field : dialog.findChildren<QWidget *>()) {
            if (!qobject_cast<QAbstractSpinBox *>(field) && !qobject_cast<QComboBox *>(field))
                continue;
            QVERIFY2(field->height() >= field->sizeHint().height(),
                     qPrintable(QStringLiteral("%1: %2 px of %3, dialog %4 px high")
                                    .arg(field->objectName())
                                    .arg(field->height())
                                    .arg(field->sizeHint().height())
                                    .arg(dialog.height())));
        }
        QVERIFY2(dialog.frameGeometry().height() <= 720, qPrintable(QString::number(dialog.frameGeometry().height())));
    }

    void editAddRemoveAndValidate()
    {
        AlertRulesDialog dialog(nullptr, nullptr, {QStringLiteral("btc"), QStringLiteral("eth")});
        dialog.setRules({rule(QStringLiteral("*"), 0, 30), rule(QStringLiteral("btc"), 10, 0)});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *list = dialog.findChild<QListWidget *>(QStringLiteral("rules"));
        auto *rate = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("rateBelow"));
        auto *forS = dialog.findChild<QSpinBox *>(QStringLiteral("forS"));
        auto *gaps = dialog.findChild<QCheckBox *>(QStringLiteral("gaps"));
        auto *stream = dialog.findChild<QComboBox *>(QStringLiteral("stream"));
        auto *error = dialog.findChild<QLabel *>(QStringLiteral("error"));
        QVERIFY(list && rate && forS && gaps && stream && error);
        QCOMPARE(list->count(), 2);
        QCOMPARE(stream->currentText(), QStringLiteral("*"));

        list->setCurrentRow(1);
        QCOMPARE(rate->value(), 10.0);
        rate->setValue(25);
        forS->setValue(15);
        QTest::keyClick(gaps, Qt::Key_Space);
        auto *bookDesync = dialog.findChild<QCheckBox *>(QStringLiteral("bookDesync"));
        QVERIFY(bookDesync && bookDesync->isEnabled());
        QTest::keyClick(bookDesync, Qt::Key_Space);
        auto *instrumentStale = dialog.findChild<QCheckBox *>(QStringLiteral("instrumentStale"));
        QVERIFY(instrumentStale && instrumentStale->isEnabled());
        QVERIFY(!instrumentStale->isChecked());
        QTest::keyClick(instrumentStale, Qt::Key_Space);
        QVector<AlertRule> rules = dialog.rules();
        QCOMPARE(rules.size(), 2);
        QCOMPARE(rules[1].rateBelow, 25.0);
        QCOMPARE(rules[1].forS, 15);
        QVERIFY(rules[1].gaps);
        QVERIFY(rules[1].bookDesync);
        QVERIFY(!rules[1].bookCrossed);
        QVERIFY(rules[1].instrumentStale);
        QVERIFY(list->item(1)->text().contains(QStringLiteral("instrument stale")));
        QCOMPARE(rules[0], rule(QStringLiteral("*"), 0, 30)); // untouched
        QVERIFY(list->item(1)->text().contains(QStringLiteral("rate < 25")));

        // Add: the first stream without a rule of its own.
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("add")), Qt::LeftButton);
        QCOMPARE(list->count(), 3);
        QCOMPARE(list->currentRow(), 2);
        QCOMPARE(stream->currentText(), QStringLiteral("eth"));
        // A second rule for btc is refused at OK, naming it; the dialog stays open.
        stream->setCurrentText(QStringLiteral("btc"));
        dialog.accept();
        QVERIFY(dialog.isVisible());
        QVERIFY(!error->isHidden());
        QCOMPARE(error->text(), QStringLiteral("alerts[2]: a second rule for \"btc\": a stream has one rule"));
        // Removed, the rest is accepted.
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("remove")), Qt::LeftButton);
        QCOMPARE(list->count(), 2);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));

        // A rule with every condition off does nothing: it is left out.
        AlertRulesDialog empty(nullptr, nullptr, {});
        empty.setRules({rule(QStringLiteral("x"), 0, 0), rule(QStringLiteral("y"), 1, 0)});
        QCOMPARE(empty.rules().size(), 1);
        QCOMPARE(empty.rules()[0].stream, QStringLiteral("y"));
    }

    // A rule using every field comes back from setRules() to rules() as it went in, shown in
    // the form field by field; editing clear_after_s, a book condition and the cross-venue ones
    // in the form changes those and keeps the others exactly (12.25 msgs/s is shown as 12.3 by
    // its one-decimal field, and stays 12.25).
    void everyFieldRoundTrips()
    {
        AlertRule full;
        full.stream = QStringLiteral("btc");
        full.rateBelow = 12.25;
        full.p99AboveMs = 250.25;
        full.silentS = 45;
        full.gaps = true;
        full.bookDesync = true;
        full.bookCrossed = true;
        full.instrumentStale = true;
        full.crossVenueBps = 7.75;
        full.crossVenueFrozen = true;
        full.forS = 3;
        full.clearAfterS = 11;
        const AlertRule any = rule(QStringLiteral("*"), 0, 30);
        AlertRulesDialog dialog(nullptr, nullptr, {QStringLiteral("btc"), QStringLiteral("eth")});
        dialog.setRules({full, any});
        QCOMPARE(dialog.rules(), (QVector<AlertRule>{full, any}));
        QString error;
        QVERIFY2(AlertRulesDialog::validate(dialog.rules(), &error), qPrintable(error));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));

        const auto spin = [&dialog](const char *name) { return dialog.findChild<QSpinBox *>(QLatin1String(name)); };
        const auto number = [&dialog](const char *name) {
            return dialog.findChild<QDoubleSpinBox *>(QLatin1String(name));
        };
        const auto check = [&dialog](const char *name) { return dialog.findChild<QCheckBox *>(QLatin1String(name)); };
        auto *list = dialog.findChild<QListWidget *>(QStringLiteral("rules"));
        QVERIFY(list && spin("silent") && spin("forS") && spin("clearAfterS") && number("rateBelow")
                && number("p99Above") && number("crossVenueBps"));
        for (const char *name : {"gaps", "bookDesync", "bookCrossed", "instrumentStale", "crossVenueFrozen"})
            QVERIFY2(check(name) && check(name)->isChecked(), name);
        QCOMPARE(spin("silent")->value(), 45);
        QCOMPARE(spin("forS")->value(), 3);
        QCOMPARE(spin("clearAfterS")->value(), 11);
        QCOMPARE(number("rateBelow")->text(), QStringLiteral("12.3 msgs/s")); // shown to its one decimal
        QCOMPARE(number("p99Above")->text(), QStringLiteral("250.3 ms"));
        QCOMPARE(number("crossVenueBps")->text(), QStringLiteral("7.8 bps"));
        // Through the other rule and back: nothing written.
        list->setCurrentRow(1);
        QCOMPARE(spin("clearAfterS")->value(), AlertRule::kDefaultClearAfterS);
        list->setCurrentRow(0);
        QCOMPARE(dialog.rules(), (QVector<AlertRule>{full, any}));

        // Edited with the keyboard: clear_after_s one up, the crossed book and the frozen price
        // off, 12.5 bps typed.
        QTest::keyClick(spin("clearAfterS"), Qt::Key_Up);
        QTest::keyClick(check("bookCrossed"), Qt::Key_Space);
        QTest::keyClick(check("crossVenueFrozen"), Qt::Key_Space);
        QDoubleSpinBox *bps = number("crossVenueBps");
        bps->setFocus();
        bps->selectAll();
        QTest::keyClicks(bps, QStringLiteral("12.5"));
        QTest::keyClick(bps, Qt::Key_Enter);
        AlertRule edited = full;
        edited.clearAfterS = 12;
        edited.bookCrossed = false;
        edited.crossVenueFrozen = false;
        edited.crossVenueBps = 12.5;
        QCOMPARE(dialog.rules(), (QVector<AlertRule>{edited, any}));
        QCOMPARE(list->item(0)->text(),
                 QStringLiteral("btc: rate < 12.25, p99 > 250.25 ms, silent 45 s, gaps, book sync, instrument stale, "
                                "cross-venue > 12.5 bps"));
    }

    void previewFollowsTheForm()
    {
        alerts::AlertTrail trail;
        fill(trail);
        AlertRulesDialog dialog(&trail, nullptr, {QStringLiteral("btc"), QStringLiteral("eth")});
        dialog.setRules({rule(QStringLiteral("btc"), 10, 0), rule(QStringLiteral("*"), 0, 30)});
        auto *list = dialog.findChild<QListWidget *>(QStringLiteral("rules"));
        auto *summary = dialog.findChild<QLabel *>(QStringLiteral("previewSummary"));
        auto *preview = dialog.findChild<QListWidget *>(QStringLiteral("preview"));
        auto *forS = dialog.findChild<QSpinBox *>(QStringLiteral("forS"));
        QVERIFY(list && summary && preview && forS);
        // btc's rule: its 20 slow seconds, once.
        QCOMPARE(preview->count(), 1);
        QVERIFY2(preview->item(0)->text().contains(QStringLiteral("btc")), qPrintable(preview->item(0)->text()));
        QVERIFY(preview->item(0)->text().contains(QStringLiteral("below 10")));
        QVERIFY(summary->text().startsWith(QStringLiteral("1 alert would have been raised")));
        // Raised only after 30 s: the slow part lasted 20 s.
        forS->setValue(30);
        QCOMPARE(preview->count(), 0);
        QVERIFY(summary->text().startsWith(QStringLiteral("No alert would have been raised")));
        // "*": eth's silence (btc has a rule of its own, so "*" is not for it).
        list->setCurrentRow(1);
        QCOMPARE(preview->count(), 1);
        QVERIFY2(preview->item(0)->text().contains(QStringLiteral("eth")), qPrintable(preview->item(0)->text()));
        QVERIFY(preview->item(0)->text().contains(QStringLiteral("silent")));
        QVERIFY(preview->item(0)->text().contains(QStringLiteral("still active")));

        // Nothing recorded: said so.
        alerts::AlertTrail none;
        AlertRulesDialog fresh(&none, nullptr, {});
        fresh.setRules({rule(QStringLiteral("btc"), 10, 0)});
        QVERIFY(fresh.findChild<QLabel *>(QStringLiteral("previewSummary"))
                    ->text()
                    .startsWith(QStringLiteral("Nothing recorded yet")));
    }

    void sendTestOnEachDestination()
    {
        HttpRecorder recorder;
        QVERIFY(recorder.listen());
        recorder.script({{200, {}}, {503, {}}});
        alerts::Notifier notifier;
        NotifyTarget all;
        all.type = NotifyTarget::Type::Webhook;
        all.url = recorder.url(QStringLiteral("/all"));
        NotifyTarget own = all;
        own.url = recorder.url(QStringLiteral("/btc"));
        notifier.setDestinations({all}, {{QStringLiteral("btc"), own}});
        AlertRulesDialog dialog(nullptr, &notifier, {QStringLiteral("btc")});
        auto *tree = dialog.findChild<QTreeWidget *>(QStringLiteral("destinations"));
        QVERIFY(tree);
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(0)->text(1), QStringLiteral("every stream"));
        QCOMPARE(tree->topLevelItem(1)->text(1), QStringLiteral("btc"));
        auto *first = dialog.findChild<QPushButton *>(QStringLiteral("sendTest-0"));
        auto *second = dialog.findChild<QPushButton *>(QStringLiteral("sendTest-1"));
        QVERIFY(first && second);
        QTest::mouseClick(first, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tree->topLevelItem(0)->text(3), QStringLiteral("sent (HTTP 200)"), scaledMs(5000));
        QTest::mouseClick(second, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tree->topLevelItem(1)->text(3), QStringLiteral("failed: HTTP 503"), scaledMs(5000));
        QCOMPARE(recorder.count(), 2);
        QCOMPARE(recorder.requests()[0].path, QByteArray("/all"));
        QCOMPARE(recorder.requests()[1].path, QByteArray("/btc"));
    }
};

STREAMSCOPE_TEST_MAIN(tst_AlertRulesDialog)
#include "tst_alertrulesdialog.moc"
