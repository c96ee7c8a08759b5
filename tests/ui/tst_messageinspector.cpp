// The message inspector as a user drives it: the detail pane shows the message the user
// chose until they choose another, whatever the tail does (old messages trimmed, freeze and
// resume, a filter); the freeze shortcut toggles every time.

#include "../common/TestRegistry.h"
#include "InspectorModel.h"
#include "MatchHighlightDelegate.h"
#include "MessageInspector.h"

#include <QtGui/QAction>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>

using namespace streamscope;
using namespace streamscope::ui;

namespace {

QVector<InspectedMessage> numberedMessages(int from, int count)
{
    QVector<InspectedMessage> out;
    for (int i = from; i < from + count; ++i)
        out.append(InspectedMessage{1700000000000 + i, 1.0, QStringLiteral("{\"n\":%1}").arg(i).toUtf8()});
    return out;
}

} // namespace

class tst_MessageInspector : public QObject {
    Q_OBJECT
private slots:
    void detailPaneKeepsTheChosenMessage();
    void freezeShortcutAlwaysToggles();
    void matchCaseAndEscape();
    void matchesHighlightedAndMessageBelowWhenNarrow();
    void farMatchScrolledIntoView();
    void freezeEndsWithTheStream();
    void unavailableStreamIsNamed();
};

void tst_MessageInspector::detailPaneKeepsTheChosenMessage()
{
    MessageInspector inspector(nullptr);
    InspectorModel *model = inspector.model();
    model->setCapacity(20);
    model->append(numberedMessages(1, 10));
    inspector.view()->selectRow(5); // the user clicks message 6
    const QString chosen = inspector.detail()->toPlainText();
    QVERIFY2(chosen.contains(QLatin1String("6")), qPrintable(chosen));

    model->append(numberedMessages(11, 13)); // 23 > 20: messages 1-3 are trimmed, 6 moves up to row 2
    QCOMPARE(inspector.detail()->toPlainText(), chosen);
    QCOMPARE(inspector.view()->currentIndex().row(), 2); // and stays selected where it went

    inspector.freezeAction()->trigger();
    model->append(numberedMessages(24, 2)); // held back while frozen; on resume 4 and 5 are trimmed
    inspector.freezeAction()->trigger();
    QCOMPARE(inspector.detail()->toPlainText(), chosen);
    const InspectorModel::Entry *current = model->entryAt(inspector.view()->currentIndex().row());
    QVERIFY(current);
    QCOMPARE(current->text, QByteArray("{\"n\":6}"));

    model->append(numberedMessages(26, 20)); // message 6 is gone from the tail: the pane still shows it
    QCOMPARE(inspector.detail()->toPlainText(), chosen);
    QVERIFY(!inspector.view()->currentIndex().isValid());

    inspector.view()->selectRow(0); // until the user chooses another
    QVERIFY(inspector.detail()->toPlainText() != chosen);
}

void tst_MessageInspector::freezeShortcutAlwaysToggles()
{
    MessageInspector inspector(nullptr);
    inspector.show();
    QApplication::setActiveWindow(&inspector);
    QVERIFY(QTest::qWaitForWindowActive(&inspector));
    QAction *freeze = inspector.freezeAction();
    for (const bool expected : {true, false, true, false, true}) {
        QTest::keyClick(&inspector, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(freeze->isChecked(), expected);
        QCOMPARE(inspector.model()->isFrozen(), expected);
        QCOMPARE(freeze->text(), expected ? QStringLiteral("Resume") : QStringLiteral("Freeze"));
    }
}

// Binance's keys differ only by case: with Match case, "M" finds only the messages that have it.
void tst_MessageInspector::matchCaseAndEscape()
{
    MessageInspector inspector(nullptr);
    inspector.model()->append(
        {InspectedMessage{1, 1.0, QByteArray("{\"m\":true}")}, InspectedMessage{2, 1.0, QByteArray("{\"M\":true}")}});
    QTest::keyClicks(inspector.filterEdit(), QStringLiteral("\"M\""));
    QCOMPARE(inspector.model()->rowCount(), 2);
    auto *matchCase = inspector.findChild<QCheckBox *>(QStringLiteral("matchCase"));
    QVERIFY(matchCase);
    matchCase->setChecked(true);
    QCOMPARE(inspector.model()->rowCount(), 1);
    QCOMPARE(inspector.model()->entryAt(0)->text, QByteArray("{\"M\":true}"));
    // Esc (the key itself is driven in tst_mainwindow, where the window is active).
    auto *clear = inspector.filterEdit()->findChild<QAction *>(QStringLiteral("clearOnEscape"));
    QVERIFY(clear);
    QCOMPARE(clear->shortcut(), QKeySequence(Qt::Key_Escape));
    clear->trigger();
    QVERIFY(inspector.filterEdit()->text().isEmpty());
    QCOMPARE(inspector.model()->rowCount(), 2);
}

void tst_MessageInspector::matchesHighlightedAndMessageBelowWhenNarrow()
{
    MessageInspector inspector(nullptr);
    inspector.model()->append({InspectedMessage{1, 1.0, QByteArray("{\"m\":false,\"M\":true,\"n\":\"m\"}")}});
    inspector.view()->selectRow(0);
    QVERIFY(inspector.detail()->extraSelections().isEmpty()); // no filter, nothing marked
    QTest::keyClicks(inspector.filterEdit(), QStringLiteral("\"m\":"));
    inspector.findChild<QCheckBox *>(QStringLiteral("matchCase"))->setChecked(true);
    // In the pretty view too, across the space the indentation adds after the colon.
    const QList<QTextEdit::ExtraSelection> marked = inspector.detail()->extraSelections();
    QCOMPARE(marked.size(), 1);
    QCOMPARE(marked.first().cursor.selectedText(), QStringLiteral("\"m\": "));
    inspector.filterEdit()->clear();
    QVERIFY(inspector.detail()->extraSelections().isEmpty());

    auto *split = inspector.findChild<QSplitter *>(QStringLiteral("inspectorSplitter"));
    QVERIFY(split);
    inspector.resize(MessageInspector::kSideBySideWidth - 200, 400);
    inspector.show();
    QVERIFY(QTest::qWaitForWindowExposed(&inspector));
    QCOMPARE(split->orientation(), Qt::Vertical);
    inspector.resize(MessageInspector::kSideBySideWidth + 200, 400);
    QTRY_COMPARE(split->orientation(), Qt::Horizontal);
}

void tst_MessageInspector::farMatchScrolledIntoView()
{
    // A match far beyond the preview column's width is drawn in view, highlighted.
    MessageInspector inspector(nullptr);
    inspector.model()->append(
        {InspectedMessage{1, 1.0, "{\"pad\":\"" + QByteArray(300, 'a') + "\",\"s\":\"BTCUSDT\"}"}});
    inspector.resize(600, 400);
    inspector.show();
    QVERIFY(QTest::qWaitForWindowExposed(&inspector));
    const auto highlighted = [&inspector] {
        QTableView *view = inspector.view();
        const QRect cell = view->visualRect(inspector.model()->index(0, InspectorModel::ColMessage));
        const QImage image = view->viewport()->grab(cell).toImage();
        const QRgb want = MatchHighlightDelegate::matchBackground(view->palette()).rgb();
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += (image.pixel(x, y) & 0xffffff) == (want & 0xffffff) ? 1 : 0;
        return n;
    };
    QCOMPARE(highlighted(), 0);
    inspector.filterEdit()->setText(QStringLiteral("BTCUSDT"));
    QTRY_VERIFY(highlighted() > 20);
}

// A freeze belongs to the stream it was made on: a capture opened (selected) just after shows
// its messages at once, and the freeze button is released.
void tst_MessageInspector::freezeEndsWithTheStream()
{
    MessageInspector inspector(nullptr);
    inspector.showOffline(StreamId(7), QStringLiteral("first (capture)"), numberedMessages(1, 5), 0);
    QCOMPARE(inspector.model()->rowCount(), 5);
    inspector.freezeAction()->trigger();
    QVERIFY(inspector.freezeAction()->isChecked());
    inspector.showOffline(StreamId(8), QStringLiteral("second (capture)"), numberedMessages(100, 12), 0);
    QVERIFY(!inspector.freezeAction()->isChecked());
    QVERIFY(!inspector.model()->isFrozen());
    QCOMPARE(inspector.model()->rowCount(), 12);
    QCOMPARE(inspector.model()->entryAt(0)->text, QByteArray("{\"n\":100}"));
    QCOMPARE(inspector.freezeAction()->text(), QStringLiteral("Freeze"));
}

// A stream whose messages the inspector cannot show (an agent's) is named, and the pane says
// why, rather than "No stream selected" under a title that names it.
void tst_MessageInspector::unavailableStreamIsNamed()
{
    MessageInspector inspector(nullptr);
    auto *title = inspector.findChild<QLabel *>(QStringLiteral("inspectorTitle"));
    auto *note = inspector.findChild<QLabel *>(QStringLiteral("inspectorNote"));
    QVERIFY(title && note);
    QCOMPARE(title->text(), QStringLiteral("No stream selected"));
    inspector.setStream(StreamId(0xF0000001u), QStringLiteral("btc @ alpha"), QStringLiteral("stays on the agent"));
    QCOMPARE(title->text(), QStringLiteral("btc @ alpha"));
    QCOMPARE(note->text(), QStringLiteral("stays on the agent"));
    QCOMPARE(inspector.model()->rowCount(), 0);
}

STREAMSCOPE_TEST_MAIN(tst_MessageInspector)
#include "tst_messageinspector.moc"
