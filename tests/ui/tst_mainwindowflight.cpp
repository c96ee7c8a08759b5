// The flight recorder in the desktop app: the workspace turns it on, an alert that fires saves
// the stream's last minutes and its event log entry links to the file, which holds the
// stream's messages; Streams → Save the last N minutes; the status bar's memory figure.
#include "../common/TestRegistry.h"
#include "AlertMonitor.h"
#include "CaptureFile.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "FlightRecorderController.h"
#include "MainWindow.h"
#include "ReplayServerThread.h"

#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QSpinBox>

using namespace streamscope;
using namespace streamscope::ui;

class TestMainWindowFlight : public QObject {
    Q_OBJECT
private slots:
    void alertSavesAndTheLogLinksToTheFile()
    {
        replay::ReplayServerThread server;
        const quint16 port = server.start(replay::ReplayOptions{});
        QVERIFY(port != 0);
        QTemporaryDir dir;
        Engine engine(Engine::Options{1});
        MainWindow w(&engine);
        Workspace ws;
        StreamConfig c;
        c.name = QStringLiteral("calm");
        c.venue = Venue("binance");
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?count=300").arg(port));
        ws.streams = {c};
        ws.flight.enabled = true;
        ws.flight.minutes = 3;
        ws.flight.dir = dir.filePath(QStringLiteral("flight"));
        ws.alerts = QJsonDocument::fromJson("[{\"stream\": \"calm\", \"silent_s\": 1}]").array();
        w.setWorkspace(ws, QString());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(engine.flightRecorder().minutes, 3);

        auto *save = w.findChild<QAction *>(QStringLiteral("flightSave"));
        QVERIFY(save);
        QCOMPARE(save->text(), QStringLiteral("Save the &last 3 minutes"));
        auto *status = w.findChild<QLabel *>(QStringLiteral("statusFlight"));
        QVERIFY(status);
        QTRY_VERIFY(status->isVisible());
        QVERIFY2(status->text().endsWith(QLatin1String(" of 256 MB")), qPrintable(status->text()));

        // The alert: its entry names the file and links to it.
        const auto alertEntry = [&]() -> const EventLogModel::Entry * {
            for (int r = 0; r < w.eventLog()->rowCount(); ++r) {
                const EventLogModel::Entry *e = w.eventLog()->entryAt(r);
                if (e->kind == QLatin1String("alert"))
                    return e;
            }
            return nullptr;
        };
        QTRY_VERIFY_WITH_TIMEOUT(alertEntry() != nullptr, 30000);
        const EventLogModel::Entry *alert = alertEntry();
        QVERIFY2(alert->file.startsWith(dir.filePath(QStringLiteral("flight/calm-flight-"))), qPrintable(alert->file));
        QVERIFY(alert->text.endsWith(QStringLiteral("; flight recorder saving to ") + alert->file));
        const QString file = alert->file;
        QTRY_VERIFY_WITH_TIMEOUT(
            QFileInfo::exists(file) && engine.snapshot(engine.streamIds().first()).flight.savedFiles == 1, 10000);
        replay::CaptureFile saved;
        QVERIFY2(saved.load(file), qPrintable(saved.errorString()));
        int messages = 0;
        for (const replay::CaptureFile::Entry &e : saved.entries())
            messages += e.kind == replay::CaptureFile::Kind::Event ? 0 : 1;
        QCOMPARE(messages, 300);
        // The engine's word that it is written links to it too.
        const auto writtenEntry = [&] {
            for (int r = 0; r < w.eventLog()->rowCount(); ++r) {
                const EventLogModel::Entry *e = w.eventLog()->entryAt(r);
                if (e->file == file && e->text == QStringLiteral("flight recorder: saved ") + file)
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(writtenEntry(), 10000);
        // What the view's double-click and context menu read.
        int alertRow = -1;
        for (int r = 0; r < w.eventLog()->rowCount() && alertRow < 0; ++r)
            if (w.eventLog()->entryAt(r)->kind == QLatin1String("alert"))
                alertRow = r;
        QCOMPARE(w.eventLog()->index(alertRow, EventLogModel::ColTime).data(EventLogModel::FileRole).toString(), file);

        // Save the last minutes, by hand.
        const QStringList files = w.flightRecorder()->save(engine.streamIds());
        QCOMPARE(files.size(), 1);
        QVERIFY(files.first() != file);
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(engine.streamIds().first()).flight.savedFiles, quint64(2), 10000);
        QVERIFY(QFileInfo::exists(files.first()));

        // Saved with the workspace; off, the action is disabled and the status bar quiet.
        QString error;
        const QString path = dir.filePath(QStringLiteral("ws.json"));
        QVERIFY2(w.saveWorkspace(path, &error), qPrintable(error));
        Workspace back;
        QVERIFY(Workspace::load(path, back).ok);
        QVERIFY(back.flight == engine.flightRecorder());
        w.flightRecorder()->setConfig(FlightConfig{});
        QVERIFY(!save->isEnabled());
        QVERIFY(!status->isVisible());
    }

    // Streams → Flight recorder…: the dialog shows the settings in force, and OK applies what
    // was changed in it (the save action's label follows the minutes); Cancel changes nothing.
    void settingsDialogAppliesWhatWasChanged()
    {
        QTemporaryDir dir;
        Engine engine(Engine::Options{1});
        MainWindow w(&engine);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *settings = w.findChild<QAction *>(QStringLiteral("flightSettings"));
        auto *save = w.findChild<QAction *>(QStringLiteral("flightSave"));
        QVERIFY(settings && save);
        QVERIFY(!engine.flightRecorder().enabled);
        // Off, the greyed entry says why, and where to turn it on.
        QVERIFY(!save->isEnabled());
        QCOMPARE(save->text(), QStringLiteral("Save the &last 5 minutes (flight recorder off)"));
        QVERIFY2(save->statusTip().contains(QStringLiteral("Streams → Flight recorder…")),
                 qPrintable(save->statusTip()));

        const auto answer = [&](bool accept) {
            QTimer::singleShot(0, this, [&, accept] {
                auto *d = qobject_cast<QDialog *>(QApplication::activeModalWidget());
                QVERIFY(d);
                auto *on = d->findChild<QCheckBox *>(QStringLiteral("flightEnabled"));
                auto *minutes = d->findChild<QSpinBox *>(QStringLiteral("flightMinutes"));
                auto *memory = d->findChild<QSpinBox *>(QStringLiteral("flightMemoryMb"));
                auto *folder = d->findChild<QLineEdit *>(QStringLiteral("flightDir"));
                QVERIFY(on && minutes && memory && folder);
                QVERIFY(!on->isChecked()); // what is in force: off
                // The default folder is shown whole in the empty field.
                const QString placeholder = folder->placeholderText();
                QVERIFY(!placeholder.isEmpty());
                QVERIFY2(folder->contentsRect().width() - 4 >= folder->fontMetrics().horizontalAdvance(placeholder),
                         qPrintable(QStringLiteral("\"%1\" in %2 px").arg(placeholder).arg(folder->width())));
                on->setChecked(true);
                minutes->setValue(7);
                memory->setValue(64);
                folder->setText(dir.path());
                accept ? d->accept() : d->reject();
            });
            settings->trigger();
        };
        answer(false);
        QVERIFY(!engine.flightRecorder().enabled);
        answer(true);
        const FlightConfig c = engine.flightRecorder();
        QVERIFY(c.enabled);
        QCOMPARE(c.minutes, 7);
        QCOMPARE(c.memoryMb, 64);
        QCOMPARE(c.dir, dir.path());
        QVERIFY(!save->isEnabled()); // it saves the selected streams: none here
        QCOMPARE(save->text(), QStringLiteral("Save the &last 7 minutes"));
        QVERIFY(!save->statusTip().contains(QStringLiteral("Streams → Flight recorder…")));
    }
};

STREAMSCOPE_TEST_MAIN(TestMainWindowFlight)
#include "tst_mainwindowflight.moc"
