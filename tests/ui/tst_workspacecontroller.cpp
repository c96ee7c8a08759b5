// The main window's workspace on its own: reading parses the alert rules once and refuses a
// bad one with a message naming the file; a workspace in memory drops bad rules with a
// warning; applying one replaces the engine's streams, the rules, the destinations and the
// layout, and what Save writes gathers them again; writing updates the path, the modified
// flag and the window title; a save that fails says where and why and loses nothing.

#include "../common/TestRegistry.h"
#include "../common/Unprivileged.h"
#include "AlertService.h"
#include "Engine.h"
#include "WorkspaceController.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QApplication>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMessageBox>

using namespace streamscope;
using namespace streamscope::ui;

class tst_WorkspaceController : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void readsRulesOnce_data();
    void readsRulesOnce();
    void workspaceInMemoryDropsBadRules();
    void applyReplacesAndCurrentGathers();
    void writeUpdatesPathAndTitle();
    void failedSaveShowsThePathAndLosesNothing();
    void saveNoteShownBeforeTheFirstSave();

private:
    static StreamConfig feed(const QString &name)
    {
        StreamConfig c;
        c.name = name;
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:9000/feed"));
        return c;
    }
    static QString writeFile(const QTemporaryDir &dir, const QByteArray &text)
    {
        const QString path = dir.filePath(QStringLiteral("ws.json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        f.write(text);
        return path;
    }
    QTemporaryDir m_settings;
};

void tst_WorkspaceController::initTestCase()
{
    // The recent-files list goes to a throw-away settings directory.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    QCoreApplication::setOrganizationName(QStringLiteral("StreamScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_workspacecontroller"));
}

void tst_WorkspaceController::readsRulesOnce_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<int>("rules");
    QTest::addColumn<QString>("error"); // after "<path>: "
    QTest::newRow("two rules") << QByteArray(
        R"({"version":1,"streams":[],"alerts":[{"stream":"*","silent_s":5},{"stream":"a","gaps":true}]})")
                               << 2 << QString();
    QTest::newRow("no alerts") << QByteArray(R"({"version":1,"streams":[]})") << 0 << QString();
    QTest::newRow("bad threshold") << QByteArray(
        R"({"version":1,"streams":[],"alerts":[{"stream":"a","silent_s":-1}]})")
                                   << 0 << QStringLiteral("alerts[0].silent_s: expected a number ≥ 0");
}

void tst_WorkspaceController::readsRulesOnce()
{
    QFETCH(QByteArray, file);
    QFETCH(int, rules);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString path = writeFile(dir, file);
    WorkspaceController::Loaded loaded;
    QString got;
    QCOMPARE(WorkspaceController::read(path, loaded, &got), error.isEmpty());
    if (error.isEmpty()) {
        QCOMPARE(loaded.rules.size(), rules);
    } else {
        QCOMPARE(got, path + QStringLiteral(": ") + error);
    }
}

void tst_WorkspaceController::workspaceInMemoryDropsBadRules()
{
    Workspace ws;
    ws.alerts =
        QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("silent_s"), 3}}};
    WorkspaceController::Loaded loaded = WorkspaceController::fromMemory(ws);
    QCOMPARE(loaded.rules.size(), 1);
    QCOMPARE(loaded.rules.first().silentS, 3);
    QVERIFY(loaded.warnings.isEmpty());

    ws.alerts = QJsonArray{QStringLiteral("not an object")};
    loaded = WorkspaceController::fromMemory(ws);
    QVERIFY(loaded.rules.isEmpty());
    QCOMPARE(loaded.warnings, QStringList{QStringLiteral("Alert rules ignored: alerts[0]: expected an object")});
}

void tst_WorkspaceController::applyReplacesAndCurrentGathers()
{
    QMainWindow window;
    Engine engine(Engine::Options{1});
    alerts::AlertService alerts;
    QJsonObject restored;
    WorkspaceController controller(&engine, &alerts, &window,
                                   {[] {
                                        return QJsonObject{{QStringLiteral("filter"), QStringLiteral("now")}};
                                    },
                                    [&restored](const QJsonObject &layout) { restored = layout; },
                                    {},
                                    {}});
    engine.addStream(feed(QStringLiteral("old")));

    Workspace ws;
    ws.streams = {feed(QStringLiteral("a")), feed(QStringLiteral("b"))};
    NotifyTarget hook;
    hook.type = NotifyTarget::Type::Webhook;
    hook.url = QStringLiteral("http://127.0.0.1:9/hook");
    ws.notify = {hook};
    ws.streams[1].notify = {hook};
    ws.alerts =
        QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("a")}, {QStringLiteral("gaps"), true}},
                   QJsonObject{{QStringLiteral("stream"), QStringLiteral("gone")}, {QStringLiteral("silent_s"), 5}},
                   QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("silent_s"), 9}}};
    ws.flight.enabled = true;
    ws.flight.minutes = 4;
    ws.layout = QJsonObject{{QStringLiteral("filter"), QStringLiteral("saved")}};
    QSignalSpy cleared(&controller, &WorkspaceController::streamsCleared);
    QSignalSpy applied(&controller, &WorkspaceController::applied);
    controller.show(ws, QString());

    QCOMPARE(cleared.count(), 1);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(engine.streamIds().size(), 2);
    QCOMPARE(engine.config(engine.streamIds().first()).name, QStringLiteral("a"));
    QCOMPARE(engine.flightRecorder().minutes, 4);
    QCOMPARE(alerts.monitor().rules().size(), 3);
    QCOMPARE(alerts.destinations(), ws.notify);
    QCOMPARE(alerts.notifier().destinationCount(), 2); // the workspace's and stream b's own
    QCOMPARE(restored, ws.layout);
    QVERIFY(!controller.isModified()); // the rules are the file's

    // What Save writes: the streams, the rules of streams that exist and "*", the rest as applied.
    const Workspace back = controller.current();
    QCOMPARE(back.streams.size(), 2);
    QVector<AlertRule> rules;
    QString error;
    QVERIFY2(AlertRule::fromJson(back.alerts, rules, &error), qPrintable(error));
    QCOMPARE(rules.size(), 2);
    QCOMPARE(rules[0].stream, QStringLiteral("a"));
    QCOMPARE(rules[1].stream, AlertRule::kAnyStream);
    QCOMPARE(back.notify, ws.notify);
    QCOMPARE(back.flight.minutes, 4);
    QCOMPARE(back.layout.value(QStringLiteral("filter")).toString(), QStringLiteral("now"));

    // A rule changed afterwards is a change to save.
    AlertRule rule;
    rule.rateBelow = 3;
    alerts.monitor().setRule(QStringLiteral("b"), rule);
    QVERIFY(controller.isModified());
}

void tst_WorkspaceController::writeUpdatesPathAndTitle()
{
    QMainWindow window;
    Engine engine(Engine::Options{1});
    WorkspaceController controller(&engine, nullptr, &window);
    engine.addStream(feed(QStringLiteral("feed")));
    QCOMPARE(window.windowTitle(), QStringLiteral("Untitled — StreamScope"));
    controller.setModified(true);
    QCOMPARE(window.windowTitle(), QStringLiteral("Untitled * — StreamScope"));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QString error;
    QVERIFY2(controller.write(path, &error), qPrintable(error));
    QCOMPARE(controller.path(), path);
    QVERIFY(!controller.isModified());
    QCOMPARE(window.windowTitle(), QStringLiteral("mine.json — StreamScope"));
    QCOMPARE(QSettings().value(QStringLiteral("workspace/recent")).toStringList().value(0), path);

    WorkspaceController::Loaded loaded;
    QVERIFY2(WorkspaceController::read(path, loaded, &error), qPrintable(error));
    QCOMPARE(loaded.workspace.streams.size(), 1);
    QCOMPARE(loaded.workspace.streams.first().name, QStringLiteral("feed"));

    QVERIFY(!controller.write(dir.filePath(QStringLiteral("no/such/dir/x.json")), &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(controller.path(), path);
}

// Save into a folder that has become read-only: the user is told, in a warning that names
// the file, and nothing is lost: the file on disk is as it was, the window still shows the
// workspace as modified under the same path, and a later save writes the changes kept.
void tst_WorkspaceController::failedSaveShowsThePathAndLosesNothing()
{
    QMainWindow window;
    Engine engine(Engine::Options{1});
    WorkspaceController controller(&engine, nullptr, &window);
    engine.addStream(feed(QStringLiteral("feed")));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QString error;
    QVERIFY2(controller.write(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray onDisk = file.readAll();
    file.close();

    engine.addStream(feed(QStringLiteral("second"))); // a change not saved yet
    controller.setModified(true);
    const auto anyone = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther;
    QVERIFY(QFile::setPermissions(path, anyone | QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther));
    QVERIFY(QFile::setPermissions(dir.path(), anyone | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));

    // The warning is modal: read it and close it once it shows.
    QString shown;
    QString title;
    QTimer closer;
    connect(&closer, &QTimer::timeout, &closer, [&] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            title = box->windowTitle();
            shown = box->text();
            box->close();
        }
    });
    closer.start(10);
    bool saved = true;
    {
        const testing::Unprivileged as;
        if (!as.active())
            QSKIP("cannot act as an unprivileged user: permissions would not stop the save");
        saved = controller.save();
    }
    closer.stop();
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));

    QVERIFY(!saved);
    QCOMPARE(title, QStringLiteral("Cannot save workspace"));
    QVERIFY2(shown.startsWith(path + QStringLiteral(": cannot write: ")), qPrintable(shown));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), onDisk);
    file.close();
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("mine.json")});
    QVERIFY(controller.isModified());
    QCOMPARE(controller.path(), path);
    QCOMPARE(window.windowTitle(), QStringLiteral("mine.json * — StreamScope"));

    // The folder is writable again: the same save writes both streams.
    QVERIFY(controller.save());
    QVERIFY(!controller.isModified());
    WorkspaceController::Loaded loaded;
    QVERIFY2(WorkspaceController::read(path, loaded, &error), qPrintable(error));
    QCOMPARE(loaded.workspace.streams.size(), 2);
    QCOMPARE(loaded.workspace.streams.at(1).name, QStringLiteral("second"));
}

// The demo's note comes before the file dialog, with Save and Cancel; Cancel writes nothing.
// Opening another workspace clears it: Save As then goes straight to the file dialog.
void tst_WorkspaceController::saveNoteShownBeforeTheFirstSave()
{
    QMainWindow window;
    WorkspaceController controller(nullptr, nullptr, &window);
    controller.setModified(true);
    controller.setSaveNote(QStringLiteral("This is the built-in demo."));
    QStringList seen; // the modal dialogs that showed, in order
    QTimer closer;
    connect(&closer, &QTimer::timeout, &closer, [&] {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            seen << box->objectName() + QLatin1Char(':') + box->text();
            box->button(QMessageBox::Cancel)->click();
        } else if (modal) {
            seen << QString::fromLatin1(modal->metaObject()->className());
            modal->close();
        }
    });
    closer.start(10);
    QVERIFY(!controller.saveAs());
    QCOMPARE(seen, QStringList{QStringLiteral("saveNote:This is the built-in demo.")});
    QVERIFY(controller.isModified());
    QVERIFY(controller.path().isEmpty());

    seen.clear();
    controller.setOpened(QString());
    QVERIFY(!controller.saveAs()); // the file dialog, closed without a choice
    closer.stop();
    QCOMPARE(seen, QStringList{QStringLiteral("QFileDialog")});
}

STREAMSCOPE_TEST_MAIN(tst_WorkspaceController)
#include "tst_workspacecontroller.moc"
