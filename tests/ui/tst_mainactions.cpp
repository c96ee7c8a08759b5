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
    QTest::addColumn<bool>("one");
    QTest::addColumn<bool>("any");
    QTest::addColumn<QString>("stopText");
    QTest::newRow("none") << 0 << false << false << QStringLiteral("&Stop");
    QTest::newRow("one") << 1 << true << true << QStringLiteral("&Stop");
    QTest::newRow("three") << 3 << false << true << QStringLiteral("&Stop 3");
}

void tst_MainActions::followsSelection()
{
    QFETCH(int, selected);
    QFETCH(bool, one);
    QFETCH(bool, any);
    QFETCH(QString, stopText);
    QMainWindow w;
    MainActions a(&w);
    a.updateForSelection(selected);
    for (QAction *action : {a.edit, a.subscribe, a.send, a.copyUrl})
        QCOMPARE(action->isEnabled(), one);
    for (QAction *action : {a.stop, a.restart, a.remove, a.inspect})
        QCOMPARE(action->isEnabled(), any);
    QVERIFY(a.add->isEnabled());
    QVERIFY(a.stopAll->isEnabled());
    QCOMPARE(a.stop->text(), stopText);
}

QTEST_MAIN(tst_MainActions)
#include "tst_mainactions.moc"
