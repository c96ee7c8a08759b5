// The main window's actions on their own: where they appear, their shortcuts, and how the
// selection enables them and names the count in their text.

#include "../common/TestRegistry.h"
#include "MainActions.h"
#include "ToolbarButtons.h"

#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QToolBar>

#include <tuple>

using namespace streamscope::ui;

class tst_MainActions : public QObject {
    Q_OBJECT
private slots:
    void placesActions();
    void followsSelection_data();
    void followsSelection();
    void shortcutsOfTheGuide_data();
    void shortcutsOfTheGuide();
    void toolbarButtonsStayInPlace();
};

void tst_MainActions::placesActions()
{
    QMainWindow w;
    MainActions a(&w);
    a.addToolBar();
    a.fillMenuBar({});
    QStringList menus;
    for (QAction *m : w.menuBar()->actions())
        menus.append(m->text());
    QCOMPARE(menus,
             (QStringList{QStringLiteral("&File"), QStringLiteral("&Streams"), QStringLiteral("&View"),
                          QStringLiteral("&Help")}));
    QVERIFY(a.recentMenu());
    QVERIFY(w.findChild<QToolBar *>(QStringLiteral("streamsToolbar"))->actions().contains(a.stopAll));
    QCOMPARE(a.add->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_N));
    QCOMPARE(a.findStream->shortcut(), QKeySequence(QKeySequence::Find));
    QVERIFY(w.actions().contains(a.findStream));
    // Delete must reach text fields that have focus.
    QCOMPARE(a.remove->shortcutContext(), Qt::WidgetWithChildrenShortcut);
    QCOMPARE(a.themes->actions().size(), 3);
    QMenu context;
    a.fillContextMenu(&context);
    QVERIFY(context.actions().contains(a.copyUrl));
    QVERIFY(context.actions().contains(a.inspect));
}

void tst_MainActions::followsSelection_data()
{
    QTest::addColumn<int>("selected");
    QTest::addColumn<int>("running");
    QTest::addColumn<bool>("one");
    QTest::addColumn<bool>("any");
    QTest::addColumn<QString>("stopText");
    QTest::addColumn<QString>("restartText");
    QTest::newRow("none") << 0 << 0 << false << false << QStringLiteral("&Stop") << QStringLiteral("&Restart");
    QTest::newRow("one running") << 1 << 1 << true << true << QStringLiteral("&Stop") << QStringLiteral("&Restart");
    QTest::newRow("one stopped") << 1 << 0 << true << true << QStringLiteral("&Stop") << QStringLiteral("St&art");
    QTest::newRow("three running") << 3 << 3 << false << true << QStringLiteral("&Stop 3")
                                   << QStringLiteral("&Restart 3");
    QTest::newRow("three, two running") << 3 << 2 << false << true << QStringLiteral("&Stop 2")
                                        << QStringLiteral("&Restart 3");
    QTest::newRow("three stopped") << 3 << 0 << false << true << QStringLiteral("&Stop") << QStringLiteral("St&art 3");
}

void tst_MainActions::followsSelection()
{
    QFETCH(int, selected);
    QFETCH(int, running);
    QFETCH(bool, one);
    QFETCH(bool, any);
    QFETCH(QString, stopText);
    QFETCH(QString, restartText);
    QMainWindow w;
    MainActions a(&w);
    a.updateForSelection(selected, running);
    for (QAction *action : {a.edit, a.subscribe, a.send, a.copyUrl})
        QCOMPARE(action->isEnabled(), one);
    for (QAction *action : {a.restart, a.remove, a.inspect})
        QCOMPARE(action->isEnabled(), any);
    QCOMPARE(a.stop->isEnabled(), running > 0); // nothing to stop in a stopped selection
    QVERIFY(a.add->isEnabled());
    QVERIFY(a.stopAll->isEnabled());
    QCOMPARE(a.stop->text(), stopText);
    QCOMPARE(a.restart->text(), restartText);
}

// Every shortcut the user guide lists ("Controls") triggers its command when pressed in the
// window, on every platform (QKeySequence::SaveAs, for one, has no key on Windows or on X11
// outside KDE and GNOME).
void tst_MainActions::shortcutsOfTheGuide_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    const int ctrl = int(Qt::ControlModifier);
    const int ctrlShift = int(Qt::ControlModifier | Qt::ShiftModifier);
    QTest::newRow("Ctrl+N") << QStringLiteral("addStream") << int(Qt::Key_N) << ctrl;
    QTest::newRow("F2") << QStringLiteral("editStream") << int(Qt::Key_F2) << 0;
    QTest::newRow("Ctrl+.") << QStringLiteral("stopStreams") << int(Qt::Key_Period) << ctrl;
    QTest::newRow("Ctrl+R") << QStringLiteral("restartStreams") << int(Qt::Key_R) << ctrl;
    QTest::newRow("Ctrl+Shift+.") << QStringLiteral("stopAll") << int(Qt::Key_Period) << ctrlShift;
    QTest::newRow("Ctrl+E") << QStringLiteral("recordStreams") << int(Qt::Key_E) << ctrl;
    QTest::newRow("F1") << QStringLiteral("userGuide") << int(Qt::Key_F1) << 0;
    QTest::newRow("Ctrl+O") << QStringLiteral("openWorkspace") << int(Qt::Key_O) << ctrl;
    QTest::newRow("Ctrl+S") << QStringLiteral("saveWorkspace") << int(Qt::Key_S) << ctrl;
    QTest::newRow("Ctrl+Shift+S") << QStringLiteral("saveWorkspaceAs") << int(Qt::Key_S) << ctrlShift;
    QTest::newRow("Ctrl+Shift+N") << QStringLiteral("newWorkspace") << int(Qt::Key_N) << ctrlShift;
    QTest::newRow("Ctrl+F") << QStringLiteral("findStream") << int(Qt::Key_F) << ctrl;
    QTest::newRow("Alt+Down") << QStringLiteral("nextStream") << int(Qt::Key_Down) << int(Qt::AltModifier);
    QTest::newRow("Alt+Up") << QStringLiteral("previousStream") << int(Qt::Key_Up) << int(Qt::AltModifier);
    QTest::newRow("Ctrl+Q") << QStringLiteral("quit") << int(Qt::Key_Q) << ctrl;
}

void tst_MainActions::shortcutsOfTheGuide()
{
    QFETCH(QString, action);
    QFETCH(int, key);
    QFETCH(int, modifiers);
    QMainWindow w;
    MainActions a(&w);
    a.addToolBar();
    a.fillMenuBar({});
    a.updateForSelection(1, 1);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QAction *target = w.findChild<QAction *>(action);
    QVERIFY2(target, qPrintable(action));
    QSignalSpy triggered(target, &QAction::triggered);
    QTest::keyClick(&w, Qt::Key(key), Qt::KeyboardModifiers(modifiers));
    QCOMPARE(triggered.count(), 1);
}

// The toolbar's texts follow the selection ("Stop 3", "Start", "Stop recording"): no button
// changes its place or width, so that a click lands where the user aimed.
void tst_MainActions::toolbarButtonsStayInPlace()
{
    QMainWindow w;
    MainActions a(&w);
    a.addToolBar();
    a.fillMenuBar({});
    w.resize(1280, 600);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto *toolbar = w.findChild<QToolBar *>(QStringLiteral("streamsToolbar"));
    QVERIFY(toolbar);
    const auto geometries = [toolbar] { return streamscope::testing::buttonGeometries(toolbar); };
    a.updateForSelection(0, 0);
    QTRY_VERIFY(!geometries().isEmpty() && geometries().first().isValid());
    QCoreApplication::processEvents();
    const QList<QRect> none = geometries();
    for (const auto &[selected, running, recording] :
         {std::tuple{1, 1, 0}, std::tuple{1, 0, 0}, std::tuple{3, 2, 0}, std::tuple{12, 0, 0}, std::tuple{1, 1, 1},
          std::tuple{250, 250, 250}}) {
        a.updateForSelection(selected, running, recording);
        QCoreApplication::processEvents();
        QCOMPARE(geometries(), none);
    }
}

STREAMSCOPE_TEST_MAIN(tst_MainActions)
#include "tst_mainactions.moc"
