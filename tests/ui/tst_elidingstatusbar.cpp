// The main window's status bar: a temporary message longer than the room beside the permanent
// figures is drawn cut with "…" within that room, and its whole text is the room's tooltip; a
// message that fits is drawn whole.

#include "ElidingStatusBar.h"
#include "Engine.h"
#include "MainWindow.h"

#include <QtGui/QHelpEvent>
#include <QtTest/QTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QToolTip>

using namespace streamscope::ui;

class tst_ElidingStatusBar : public QObject {
    Q_OBJECT
private slots:
    void aLongMessageIsCutBesideTheFigures();
    void theMainWindowHasIt();
};

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

QTEST_MAIN(tst_ElidingStatusBar)
#include "tst_elidingstatusbar.moc"
