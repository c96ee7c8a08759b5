// The main window's workspace file on its own: reading parses the alert rules once and
// refuses a bad one with a message naming the file; a workspace in memory drops bad rules
// with a warning; writing updates the path, the modified flag and the window title.

#include "WorkspaceController.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>
#include <QtWidgets/QMainWindow>

using namespace streamscope;
using namespace streamscope::ui;

class tst_WorkspaceController : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void readsRulesOnce_data();
    void readsRulesOnce();
    void workspaceInMemoryDropsBadRules();
    void writeUpdatesPathAndTitle();

private:
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

void tst_WorkspaceController::writeUpdatesPathAndTitle()
{
    QMainWindow window;
    Workspace current;
    StreamConfig c;
    c.name = QStringLiteral("feed");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:9000/feed"));
    current.streams = {c};
    WorkspaceController controller(nullptr, &window, [&current] { return current; });
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

QTEST_MAIN(tst_WorkspaceController)
#include "tst_workspacecontroller.moc"
