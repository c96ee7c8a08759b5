// The main window's status bar: a temporary message longer than the room beside the permanent
// figures is drawn cut with "…" within that room, and its whole text is the room's tooltip; a
// message that fits is drawn whole. A message or a label's text that looks like markup (a
// stream's name, a peer's error) is shown in its tooltip as it is, never as HTML.

#include "../common/TestRegistry.h"
#include "ElidedLabel.h"
#include "ElidingStatusBar.h"
#include "Engine.h"
#include "MainWindow.h"
#include "WidgetHelpers.h"

#include <QtGui/QHelpEvent>
#include <QtGui/QTextDocument>
#include <QtTest/QTest>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QToolTip>

using namespace streamscope::ui;

class tst_ElidingStatusBar : public QObject {
    Q_OBJECT
private slots:
    void aLongMessageIsCutBesideTheFigures();
    void theMainWindowHasIt();
    void markupInATooltipIsShownAsText();
};

namespace {
// What a tooltip reads as once Qt has drawn it: rich text as a document's plain text.
QString shownAsText(const QString &tip)
{
    if (!Qt::mightBeRichText(tip))
        return tip;
    QTextDocument doc;
    doc.setHtml(tip);
    return doc.toPlainText();
}

// The tooltip `widget` shows when hovered at `pos`.
QString hover(QWidget *widget, QPoint pos)
{
    QToolTip::hideText();
    QHelpEvent help(QEvent::ToolTip, pos, widget->mapToGlobal(pos));
    QCoreApplication::sendEvent(widget, &help);
    const QString tip = QToolTip::text();
    QToolTip::hideText();
    return tip;
}

// A stream name or a peer's message that Qt would take for HTML.
const QString kMarkup = QStringLiteral("<b>bold</b> <img src=\"http://127.0.0.1:9/x.png\"> &lt;i&gt; tail");
} // namespace

void tst_ElidingStatusBar::aLongMessageIsCutBesideTheFigures()
{
    QMainWindow window;
    auto *bar = new ElidingStatusBar;
    window.setStatusBar(bar);
    auto *figures = new QLabel(QStringLiteral("13 streams · 13 live · 961 msgs/s · 751.1 KB/s · CPU 19 %"));
    bar->addPermanentWidget(figures);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    const QString path = QStringLiteral("/home/trader/captures/") + QString(160, QLatin1Char('x'));
    const QString message =
        QStringLiteral("Recording saved to %1/btcusdt-aggtrade-20261203T043500Z.ndjson.zst").arg(path);
    bar->showMessage(message);
    QCOMPARE(bar->currentMessage(), message);
    // The message's room ends before the figures, and the message is cut to it.
    const QRect room = bar->messageRect();
    QVERIFY(room.right() < figures->x());
    QVERIFY(room.width() > 0);
    const QString shown = bar->shownMessage();
    QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
    QVERIFY(shown.startsWith(QLatin1String("Recording saved to /home/trader")));
    QVERIFY(bar->fontMetrics().horizontalAdvance(shown) <= room.width());
    // Its whole text on hover.
    QHelpEvent help(QEvent::ToolTip, room.center(), bar->mapToGlobal(room.center()));
    QVERIFY(QCoreApplication::sendEvent(bar, &help));
    QTRY_COMPARE(QToolTip::text(), message);
    QToolTip::hideText();

    // A message that fits is drawn whole.
    bar->showMessage(QStringLiteral("Saved"));
    QCOMPARE(bar->shownMessage(), QStringLiteral("Saved"));
    bar->clearMessage();
    QVERIFY(bar->shownMessage().isEmpty());
}

void tst_ElidingStatusBar::theMainWindowHasIt()
{
    streamscope::Engine engine(streamscope::Engine::Options{1});
    MainWindow window(&engine);
    QVERIFY(qobject_cast<ElidingStatusBar *>(window.statusBar()));
}

void tst_ElidingStatusBar::markupInATooltipIsShownAsText()
{
    // Unchanged when Qt would show it plain anyway.
    QCOMPARE(plainToolTip(QStringLiteral("btc-trades: 3 < 4")), QStringLiteral("btc-trades: 3 < 4"));
    QVERIFY(Qt::mightBeRichText(kMarkup));

    QMainWindow window;
    auto *bar = new ElidingStatusBar;
    window.setStatusBar(bar);
    bar->addPermanentWidget(new QLabel(QStringLiteral("13 streams · 13 live · 961 msgs/s · 751.1 KB/s")));
    auto *cut = new ElidedLabel;
    cut->setText(kMarkup + QString(200, QLatin1Char('x')));
    auto *whole = new ElidedLabel;
    whole->setText(QStringLiteral("fits"));
    whole->setToolTip(kMarkup);
    auto *box = new QWidget;
    auto *layout = new QHBoxLayout(box);
    layout->addWidget(cut, 1);
    layout->addWidget(whole);
    window.setCentralWidget(box);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // The status bar's message, cut: its tooltip is escaped and reads as the message.
    const QString message = kMarkup + QString(300, QLatin1Char('y'));
    bar->showMessage(message);
    QVERIFY(bar->shownMessage() != message);
    const QString barTip = hover(bar, bar->messageRect().center());
    QVERIFY2(barTip.contains(QLatin1String("&lt;b&gt;bold&lt;/b&gt;")), qPrintable(barTip));
    QVERIFY(!barTip.contains(QLatin1String("<img")));
    QCOMPARE(shownAsText(barTip), message);

    // A cut label: its whole text, escaped.
    QVERIFY(cut->isElided());
    const QString cutTip = hover(cut, cut->rect().center());
    QVERIFY2(!cutTip.contains(QLatin1String("<b>")), qPrintable(cutTip));
    QCOMPARE(shownAsText(cutTip), cut->text());
    // A label that fits: its own tooltip, escaped too.
    QVERIFY(!whole->isElided());
    const QString wholeTip = hover(whole, whole->rect().center());
    QVERIFY2(!wholeTip.contains(QLatin1String("<img")), qPrintable(wholeTip));
    QCOMPARE(shownAsText(wholeTip), kMarkup);
}

STREAMSCOPE_TEST_MAIN(tst_ElidingStatusBar)
#include "tst_elidingstatusbar.moc"
