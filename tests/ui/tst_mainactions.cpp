// The main window's actions on their own: where they appear, their shortcuts, and how the
// selection enables them and names the count in their text.

#include "MainActions.h"

#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtTest/QTest>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QToolBar>

using namespace streamscope::ui;

class tst_MainActions : public QObject {
    Q_OBJECT
private slots:
    void placesActions();
    void followsSelection_data();
    void followsSelection();
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

QTEST_MAIN(tst_MainActions)
#include "tst_mainactions.moc"
