// A keyboard path for everything (issue 26, item 18's sibling 20): the user guide's shortcut
// table is what the window does, both ways (every key it lists belongs to an action of the
// window with that shortcut, and every menu action with a shortcut is listed); the stream
// commands are all in the Streams menu; and pressing the keys in the window acts on the
// streams: next and previous stream, stop, restart, freeze, edit and add.

#include "../common/TestRegistry.h"
#include "CaptureController.h"
#include "Engine.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "StreamTableModel.h"
#include "ToolbarButtons.h"

#include "../common/TimeFactor.h"

#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDialog>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolBar>

using namespace streamscope;
using namespace streamscope::ui;
using streamscope::testing::scaledMs;

namespace {

struct GuideRow {
    QString action;
    QList<QKeySequence> keys;
};

// The rows of the guide's "| Action | Shortcut | Notes |" table, with the keys of their
// Shortcut cell ("F2, or double-click a row": F2; "Ctrl+O, Ctrl+S, Ctrl+Shift+S": three).
QList<GuideRow> guideTable()
{
    QFile f(QStringLiteral(STREAMSCOPE_USER_GUIDE_FILE));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    const qsizetype header = lines.indexOf(QStringLiteral("| Action | Shortcut | Notes |"));
    if (header < 0)
        return {};
    static const QRegularExpression key(QStringLiteral(
        R"((?<![A-Za-z0-9+])((?:(?:Ctrl|Shift|Alt)\+)*(?:F1[0-2]|F[1-9]|Delete|Up|Down|[A-Z0-9]|\.))(?![A-Za-z0-9]))"));
    QList<GuideRow> rows;
    for (qsizetype i = header + 2; i < lines.size() && lines[i].startsWith(QLatin1Char('|')); ++i) {
        const QStringList cells = lines[i].split(QLatin1Char('|'));
        if (cells.size() < 4)
            continue;
        GuideRow row{cells[1].trimmed(), {}};
        for (auto it = key.globalMatch(cells[2]); it.hasNext();) {
            QString text = it.next().captured(1);
            text.replace(QStringLiteral("Delete"), QStringLiteral("Del"));
            row.keys.append(QKeySequence::fromString(text, QKeySequence::PortableText));
        }
        rows.append(row);
    }
    return rows;
}

void collectMenuActions(QMenu *menu, QList<QAction *> &out)
{
    for (QAction *a : menu->actions()) {
        if (a->menu())
            collectMenuActions(a->menu(), out);
        else if (!a->isSeparator())
            out.append(a);
    }
}

QList<QAction *> menuActions(MainWindow &w)
{
    QList<QAction *> out;
    for (QAction *a : w.menuBar()->actions())
        if (a->menu())
            collectMenuActions(a->menu(), out);
    return out;
}

// Rejects the next modal dialog once it shows and tells its class.
QString rejectNextDialog(const std::function<void()> &open)
{
    QString shown;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (auto *d = qobject_cast<QDialog *>(QApplication::activeModalWidget())) {
            shown = QString::fromLatin1(d->metaObject()->className());
            poll.stop();
            d->reject();
        }
    });
    poll.start();
    open();
    return shown;
}

StreamState stateOf(MainWindow &w, const QString &name)
{
    for (const StreamTableModel::Row &r : w.streamModel()->rows())
        if (r.snap.name == name)
            return r.snap.state;
    return StreamState::Idle;
}

// Streams "a", "b" and "c" on a port nothing listens on: reconnecting.
Workspace threeReconnecting()
{
    Workspace ws;
    for (const char *name : {"a", "b", "c"}) {
        StreamConfig c;
        c.name = QLatin1String(name);
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/feed"));
        c.reconnectBaseMs = 100;
        ws.streams.append(c);
    }
    return ws;
}

QString currentName(MainWindow &w)
{
    const QModelIndex current = w.streamTable()->currentIndex();
    return current.isValid() ? current.siblingAtColumn(StreamTableModel::ColName).data().toString() : QString();
}

} // namespace

class tst_KeyboardPath : public QObject {
    Q_OBJECT
private slots:
    void guideTableIsTheWindows();
    void keysDriveTheStreams();
    void recordKeyAndSteadyToolbar();
};

void tst_KeyboardPath::guideTableIsTheWindows()
{
    const QList<GuideRow> rows = guideTable();
    QVERIFY2(rows.size() > 10, STREAMSCOPE_USER_GUIDE_FILE);
    Engine engine;
    MainWindow w(&engine);
    const QList<QAction *> all = w.findChildren<QAction *>();
    const QList<QAction *> menus = menuActions(w);

    // Every key the guide lists belongs to an action of the window with that shortcut.
    QList<QKeySequence> listed;
    for (const GuideRow &row : rows) {
        for (const QKeySequence &key : row.keys) {
            listed.append(key);
            const bool found =
                std::any_of(all.cbegin(), all.cend(), [&](const QAction *a) { return a->shortcuts().contains(key); });
            QVERIFY2(found,
                     qPrintable(QStringLiteral("%1: %2 does nothing in the window")
                                    .arg(row.action, key.toString(QKeySequence::PortableText))));
        }
    }
    // Every menu action with a shortcut is in the guide's table.
    for (const QAction *a : menus) {
        for (const QKeySequence &key : a->shortcuts())
            QVERIFY2(listed.contains(key),
                     qPrintable(QStringLiteral("%1 (%2) is not in the guide's table")
                                    .arg(a->text(), key.toString(QKeySequence::PortableText))));
    }
    // The stream commands are all in the menus, each with a key.
    for (const char *name : {"addStream", "editStream", "stopStreams", "restartStreams", "recordStreams",
                             "freezeInspector", "nextStream", "previousStream", "findStream", "stopAll"}) {
        auto *action = w.findChild<QAction *>(QLatin1String(name));
        QVERIFY2(action, name);
        QVERIFY2(menus.contains(action), name);
        QVERIFY2(!action->shortcut().isEmpty(), name);
    }
}

void tst_KeyboardPath::keysDriveTheStreams()
{
    Engine engine;
    MainWindow w(&engine);
    w.setWorkspace(threeReconnecting(), QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTRY_COMPARE(w.streamModel()->rowCount(), 3);
    w.streamProxy()->sort(StreamTableModel::ColName, Qt::AscendingOrder);
    w.streamTable()->setFocus();
    w.streamTable()->clearSelection();

    // Next and previous stream, from no selected row, stopping at the ends.
    QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);
    QCOMPARE(currentName(w), QStringLiteral("a"));
    QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);
    QCOMPARE(currentName(w), QStringLiteral("b"));
    QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);
    QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);
    QCOMPARE(currentName(w), QStringLiteral("c"));
    QTest::keyClick(&w, Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(currentName(w), QStringLiteral("b"));
    QCOMPARE(w.selectedStreams().size(), 1);
    // Also from the filter field: the keys are the window's.
    w.findChild<QAction *>(QStringLiteral("findStream"))->trigger();
    QTest::keyClick(&w, Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(currentName(w), QStringLiteral("a"));
    QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);
    QCOMPARE(currentName(w), QStringLiteral("b"));

    // Stop and restart the selected stream ("b"); the others go on.
    QTRY_VERIFY(w.findChild<QAction *>(QStringLiteral("stopStreams"))->isEnabled());
    QTest::keyClick(&w, Qt::Key_Period, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, QStringLiteral("b")), StreamState::Stopped, scaledMs(5000));
    QVERIFY(stateOf(w, QStringLiteral("a")) != StreamState::Stopped);
    QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(stateOf(w, QStringLiteral("b")) != StreamState::Stopped, scaledMs(5000));

    // Freeze and resume the inspector.
    QAction *freeze = w.inspector()->freezeAction();
    QVERIFY(!freeze->isChecked());
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(freeze->isChecked());
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(!freeze->isChecked());

    // Edit (F2) and Add (Ctrl+N) open the stream dialog.
    QCOMPARE(rejectNextDialog([&] { QTest::keyClick(&w, Qt::Key_F2); }),
             QStringLiteral("streamscope::ui::StreamDialog"));
    w.activateWindow(); // back from the dialog
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QCOMPARE(rejectNextDialog([&] { QTest::keyClick(&w, Qt::Key_N, Qt::ControlModifier); }),
             QStringLiteral("streamscope::ui::StreamDialog"));
    QCOMPARE(w.streamModel()->rowCount(), 3);
}

// Ctrl+E in the window records the selected stream and, pressed again, stops it; meanwhile the
// toolbar's buttons, whose texts follow the selection and the recording ("Remove 3", "Stop
// recording"), keep their places.
void tst_KeyboardPath::recordKeyAndSteadyToolbar()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Engine engine;
    MainWindow w(&engine);
    w.capture()->setRecordingFolder(dir.path());
    w.setWorkspace(threeReconnecting(), QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTRY_COMPARE(w.streamModel()->rowCount(), 3);
    auto *toolbar = w.findChild<QToolBar *>(QStringLiteral("streamsToolbar"));
    QVERIFY(toolbar);
    const auto geometries = [toolbar] { return streamscope::testing::buttonGeometries(toolbar); };
    QAction *record = w.findChild<QAction *>(QStringLiteral("recordStreams"));
    QAction *remove = w.findChild<QAction *>(QStringLiteral("removeStreams"));
    QVERIFY(record && remove);
    w.streamProxy()->sort(StreamTableModel::ColName, Qt::AscendingOrder);
    w.streamTable()->setFocus();
    w.streamTable()->clearSelection();
    QApplication::processEvents();
    const QList<QRect> none = geometries();
    QVERIFY(!none.isEmpty());

    // All three selected: "Remove 3", "Restart 3"; the buttons stay.
    w.streamTable()->selectAll();
    QTRY_COMPARE(remove->text(), QStringLiteral("Re&move 3"));
    QApplication::processEvents(); // the toolbar's layout, had a button's size changed
    QCOMPARE(geometries(), none);

    // One selected, Ctrl+E: it records, the action says so, the buttons stay.
    QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);
    QTRY_COMPARE(w.selectedStreams().size(), 1);
    const StreamId id = w.selectedStreams().first();
    QCOMPARE(record->text(), QStringLiteral("Re&cord"));
    QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).record.on, scaledMs(5000));
    QTRY_COMPARE_WITH_TIMEOUT(record->text(), QStringLiteral("Stop re&cording"), scaledMs(5000));
    QApplication::processEvents();
    QCOMPARE(geometries(), none);
    // Ctrl+E again: stopped.
    QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!engine.snapshot(id).record.on, scaledMs(5000));
    QTRY_COMPARE_WITH_TIMEOUT(record->text(), QStringLiteral("Re&cord"), scaledMs(5000));
    QApplication::processEvents();
    QCOMPARE(geometries(), none);
}

STREAMSCOPE_TEST_MAIN(tst_KeyboardPath)
#include "tst_keyboardpath.moc"
