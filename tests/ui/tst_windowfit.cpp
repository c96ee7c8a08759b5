// The main window on the screen it opens on, run once per screen of tests/ui/screens/ (a
// 1280×720 laptop, a 1920×1080 desktop, a 2× display): the first window fits, a layout saved
// on a larger screen is brought inside, and each row's buttons are visible without scrolling.

#include "../common/TestRegistry.h"
#include "ElidedLabel.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "MainWindow.h"
#include "Sparkline.h"
#include "StreamCells.h"
#include "StreamColumnWidths.h"
#include "StreamDetails.h"
#include "StreamTableModel.h"
#include "Workspace.h"

#include <QtCore/QJsonObject>
#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QScreen>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QStyle>
#include <QtWidgets/QTabBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeWidget>

using namespace streamscope;
using namespace streamscope::ui;

class tst_WindowFit : public QObject {
    Q_OBJECT
private slots:
    void firstWindowFitsTheScreen();
    void restoredGeometryClampedToTheScreen();
    void longStatusStaysInTheWindow();
    void namesStayWhileFiguresScroll();
    void figureColumnsCompactInANarrowWindow();
    void bottomTabsKeepTheirWidth();
    void detailsPaneReadsWhole();

private:
    static QString describe(const QWidget &w)
    {
        const QRect a = QGuiApplication::primaryScreen()->availableGeometry();
        const QRect f = w.frameGeometry();
        return QStringLiteral("window %1,%2 %3×%4 on %5×%6")
            .arg(f.x())
            .arg(f.y())
            .arg(f.width())
            .arg(f.height())
            .arg(a.width())
            .arg(a.height());
    }
};

void tst_WindowFit::firstWindowFitsTheScreen()
{
    Engine engine;
    MainWindow w(&engine);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
    QVERIFY2(available.contains(w.frameGeometry()), qPrintable(describe(w)));
    QVERIFY2(w.width() >= std::min(available.width() * 8 / 10, MainWindow::kLargestFirstSize.width() - 100),
             qPrintable(describe(w))); // and uses the screen

    // The row's buttons come right after its name, inside the table's visible area.
    QTableView *table = w.streamTable();
    QHeaderView *header = table->horizontalHeader();
    QCOMPARE(header->visualIndex(StreamTableModel::ColName), 0);
    QCOMPARE(header->visualIndex(StreamTableModel::ColActions), 1);
    const int actionsRight = header->sectionViewportPosition(StreamTableModel::ColActions)
        + header->sectionSize(StreamTableModel::ColActions);
    QVERIFY2(actionsRight <= table->viewport()->width(),
             qPrintable(QStringLiteral("buttons end at %1 of %2").arg(actionsRight).arg(table->viewport()->width())));
}

void tst_WindowFit::restoredGeometryClampedToTheScreen()
{
    Engine engine;
    QJsonObject layout;
    {
        MainWindow big(&engine);
        big.resize(3000, 1800);
        big.move(2000, 1200);
        layout = big.currentWorkspace().layout;
    }
    MainWindow w(&engine);
    Workspace ws;
    ws.layout = layout;
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
    QVERIFY2(available.contains(w.frameGeometry()), qPrintable(describe(w)));
}

// A busy status bar (every state, alerts, recordings, the clock not synchronised) never makes
// the window wider than the screen: its long texts are cut, and the CPU figure at its end
// stays in view.
void tst_WindowFit::longStatusStaysInTheWindow()
{
    Engine engine;
    MainWindow w(&engine);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
    const auto label = [&w](const char *name) { return w.statusBar()->findChild<QLabel *>(QLatin1String(name)); };
    QVERIFY(label("statusStreams") && label("statusRecord") && label("statusCpu") && label("statusClock"));
    label("statusStreams")
        ->setText(QStringLiteral("1,200 streams · 1,100 live · 30 connecting · 20 subscribing · 15 stalled · "
                                 "5 degraded · 12 reconnecting · 8 failed · 10 stopped · 3 captures"));
    label("statusRecord")->setText(QStringLiteral("● recording 1,200 streams · 12,345.6 MB"));
    label("statusRecord")->show();
    label("statusClock")->setText(QStringLiteral("clock not synchronised"));
    label("statusCpu")->setText(QStringLiteral("CPU 100 %"));
    QApplication::processEvents();
    QVERIFY2(w.minimumSizeHint().width() <= available.width(),
             qPrintable(QStringLiteral("minimum width %1").arg(w.minimumSizeHint().width())));
    QTRY_VERIFY2(available.contains(w.frameGeometry()), qPrintable(describe(w)));
    // Every label shows its whole text, or is one that says it is cut ("…", the whole text in
    // its tooltip): none is clipped mid-word, and the CPU figure at the end is whole.
    for (const QLabel *l : w.statusBar()->findChildren<QLabel *>()) {
        if (!l->isVisible() || l->text().isEmpty() || qobject_cast<const ElidedLabel *>(l))
            continue;
        QVERIFY2(l->contentsRect().width() >= l->fontMetrics().horizontalAdvance(l->text()),
                 qPrintable(QStringLiteral("%1: \"%2\" in %3 px").arg(l->objectName(), l->text()).arg(l->width())));
        const QRect inBar(l->mapTo(w.statusBar(), QPoint(0, 0)), l->size());
        QVERIFY2(w.statusBar()->rect().contains(inBar), qPrintable(l->objectName()));
    }
    QVERIFY(label("statusCpu")->isVisible());
}

// Scrolled sideways to the last figures (as a laptop needs), the table keeps each row's name
// and buttons in view, as a spreadsheet's frozen columns: clicking the name selects the row.
void tst_WindowFit::namesStayWhileFiguresScroll()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    StreamConfig c;
    c.name = QStringLiteral("btcusdt-aggtrade-frozen");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/ws/btcusdt@aggTrade")); // refused: the row is enough
    ws.streams = {c};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.streamModel()->rowCount(), 1);
    const StreamId id = w.streamModel()->rows().first().snap.id;
    QTableView *table = w.streamTable();
    auto *frozen = table->findChild<QTableView *>(QStringLiteral("frozenColumns"));
    QVERIFY(frozen);
    QTRY_VERIFY(frozen->isVisible());
    QScrollBar *sideways = table->horizontalScrollBar();
    sideways->setValue(sideways->maximum());
    QApplication::processEvents();

    const QModelIndex name = w.streamProxy()->index(0, StreamTableModel::ColName);
    const QModelIndex buttons = w.streamProxy()->index(0, StreamTableModel::ColActions);
    for (const QModelIndex &index : {name, buttons}) {
        const QRect r = frozen->visualRect(index);
        QVERIFY2(r.isValid() && frozen->viewport()->rect().contains(r), qPrintable(QString::number(index.column())));
        QCOMPARE(frozen->indexAt(r.center()), index);
    }
    QCOMPARE(frozen->mapTo(table, QPoint(0, 0)).x(), table->frameWidth());
    QCOMPARE(frozen->horizontalHeader()->height(), table->horizontalHeader()->height());
    // The figures scrolled into view beside it, not under it.
    const QRect errors = table->visualRect(w.streamProxy()->index(0, StreamTableModel::ColErrors));
    QVERIFY2(errors.left() >= frozen->width() - 1 && errors.right() <= table->viewport()->width(),
             qPrintable(QStringLiteral("Errors at %1..%2, frozen %3, viewport %4")
                            .arg(errors.left())
                            .arg(errors.right())
                            .arg(frozen->width())
                            .arg(table->viewport()->width())));
    // Its header is the table's: a click on "Stream" sorts the table by name.
    QHeaderView *frozenHeader = frozen->horizontalHeader();
    const QPoint nameHeader(frozenHeader->sectionViewportPosition(StreamTableModel::ColName)
                                + frozenHeader->sectionSize(StreamTableModel::ColName) / 2,
                            frozenHeader->height() / 2);
    QTest::mouseClick(frozenHeader->viewport(), Qt::LeftButton, Qt::NoModifier, nameHeader);
    QCOMPARE(w.streamProxy()->sortColumn(), int(StreamTableModel::ColName));
    QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), int(StreamTableModel::ColName));
    // The frozen name is the table's: a click selects the row.
    QTest::mouseClick(frozen->viewport(), Qt::LeftButton, Qt::NoModifier, frozen->visualRect(name).center());
    QCOMPARE(w.selectedRows(), QList<StreamId>{id});
    QVERIFY(table->selectionModel()->isRowSelected(0, QModelIndex()));
    if (qEnvironmentVariableIsSet("STREAMSCOPE_TEST_GRAB"))
        w.grab().save(qEnvironmentVariable("STREAMSCOPE_TEST_GRAB"));
}

// In a first window narrower than 1400 px (the laptop's, the 2× screen's) the figure columns
// take compact widths, each as wide as its header and the widest text its formatter writes for
// usual values: more of p50 .. Errors are in view beside the names without scrolling than at
// the usual widths. A wider window keeps the usual widths.
void tst_WindowFit::figureColumnsCompactInANarrowWindow()
{
    Engine engine;
    MainWindow w(&engine);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTableView *table = w.streamTable();
    QHeaderView *header = table->horizontalHeader();
    // The first size asked for is 90 % of the screen's width (the window's minimum may widen it).
    const bool narrow =
        QGuiApplication::primaryScreen()->availableGeometry().width() * 9 / 10 < StreamColumnWidths::kCompactBelowPx;
    const QVector<int> usual = StreamColumnWidths::widths(table, false);
    const QVector<int> compact = StreamColumnWidths::widths(table, true);
    for (int c = 0; c < StreamTableModel::ColumnCount; ++c)
        if (!header->isSectionHidden(c))
            QCOMPARE(table->columnWidth(c), narrow ? compact[c] : usual[c]);
    if (!narrow) {
        qInfo("a %d px window: the usual widths", w.width());
        return;
    }
    // Each figure fits inside the cell's text margins, in the font it is drawn in (State bold),
    // with a pixel to spare on each side.
    const int margin = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1) + 1;
    QFont bold = table->font();
    bold.setBold(true);
    for (int c = StreamTableModel::ColState; c <= StreamTableModel::ColErrors; ++c) {
        const QFontMetricsF fm(c == StreamTableModel::ColState ? bold : table->font());
        for (const QString &text : StreamCells::widestFigures(c))
            QVERIFY2(
                table->columnWidth(c) - margin - 2 >= fm.horizontalAdvance(text),
                qPrintable(QStringLiteral("column %1: \"%2\" in %3 px").arg(c).arg(text).arg(table->columnWidth(c))));
    }
    // p50 .. Errors in view at the left end of the table, as the header places them.
    const int viewport = table->viewport()->width();
    table->horizontalScrollBar()->setValue(0);
    QApplication::processEvents();
    int shown = 0;
    for (int c = StreamTableModel::ColP50; c <= StreamTableModel::ColErrors; ++c)
        shown += header->sectionViewportPosition(c) + header->sectionSize(c) <= viewport ? 1 : 0;
    // ... and as many at the usual widths, in the same order.
    int right = 0;
    int shownUsual = 0;
    for (int v = 0; v < header->count(); ++v) {
        const int c = header->logicalIndex(v);
        if (header->isSectionHidden(c))
            continue;
        right += usual[c];
        shownUsual += c >= StreamTableModel::ColP50 && c <= StreamTableModel::ColErrors && right <= viewport ? 1 : 0;
    }
    QVERIFY2(shown > shownUsual,
             qPrintable(QStringLiteral("%1 of p50 .. Errors in %2 px, %3 at the usual widths")
                            .arg(shown)
                            .arg(viewport)
                            .arg(shownUsual)));
    QStringList widths;
    for (int c = 0; c < StreamTableModel::ColumnCount; ++c)
        widths << QStringLiteral("%1/%2").arg(compact[c]).arg(usual[c]);
    qInfo("%d of the 8 columns p50 .. Errors in view in a %d px table (%d at the usual widths); widths %s", shown,
          viewport, shownUsual, qPrintable(widths.join(QLatin1Char(' '))));
}

// The bottom docks' tabs keep their width whichever stream is selected: a tab named after the
// stream moved the others under the pointer.
void tst_WindowFit::bottomTabsKeepTheirWidth()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    for (const QString &name : {QStringLiteral("a"), QStringLiteral("a-stream-with-a-much-longer-name-than-a")}) {
        StreamConfig c;
        c.name = name;
        c.venue = Venue("binance");
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/ws/btcusdt@aggTrade"));
        ws.streams.append(c);
    }
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.streamModel()->rowCount(), 2);
    QTabBar *tabs = nullptr;
    for (QTabBar *bar : w.findChildren<QTabBar *>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i).startsWith(QLatin1String("Inspector")))
                tabs = bar;
    QVERIFY(tabs);
    const auto rects = [tabs] {
        QList<QRect> out;
        for (int i = 0; i < tabs->count(); ++i)
            out << tabs->tabRect(i);
        return out;
    };
    w.selectStream(w.streamModel()->rows().at(0).snap.id);
    QApplication::processEvents();
    const QList<QRect> shortName = rects();
    w.selectStream(w.streamModel()->rows().at(1).snap.id);
    QApplication::processEvents();
    QCOMPARE(rects(), shortName);
}

// The Details pane on the window's first size: the sparklines' captions are read whole (on
// two lines if need be, never cut with "…"), and the events' Details column has room for a
// few words beside the time and the event (the whole text in its tooltip), and the report's
// values are in view beside their fields.
void tst_WindowFit::detailsPaneReadsWhole()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    StreamConfig c;
    c.name = QStringLiteral("btcusdt-kline-1m");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/ws/btcusdt@kline_1m"));
    ws.streams = {c};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.streamModel()->rowCount(), 1);
    w.selectStream(w.streamModel()->rows().first().snap.id);
    w.detailsDock()->raise();
    QApplication::processEvents();
    auto *details = w.detailsDock()->findChild<StreamDetails *>();
    QVERIFY(details);
    QTRY_VERIFY(details->isVisible());
    QList<QPointF> points;
    for (int s = -59; s <= 0; ++s)
        points.append(QPointF(s, 29.0));
    details->latencyLine()->setPoints(points);
    details->rateLine()->setPoints(points);
    QApplication::processEvents();
    for (Sparkline *line : {details->latencyLine(), details->rateLine()}) {
        const QString caption = line->caption();
        const QString first = caption.left(caption.lastIndexOf(QStringLiteral(" · ")));
        QVERIFY2(line->fontMetrics().horizontalAdvance(first) <= line->width(),
                 qPrintable(QStringLiteral("\"%1\" in %2 px").arg(caption).arg(line->width())));
        const QStringList lines = line->captionLines();
        QCOMPARE(lines.join(QStringLiteral(" · ")), caption);
        for (const QString &l : lines)
            QVERIFY2(!l.contains(QChar(0x2026)), qPrintable(l));
    }
    auto *events = details->findChild<QTableView *>(QStringLiteral("detailEvents"));
    QVERIFY(events);
    const int digit = events->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    QTRY_VERIFY2(events->columnWidth(EventLogModel::ColText) >= digit * 14,
                 qPrintable(QStringLiteral("Details column %1 px, events %2 px, window %3 px")
                                .arg(events->columnWidth(EventLogModel::ColText))
                                .arg(events->width())
                                .arg(w.width())
                            + QStringLiteral(" details %1 sizes %2 %3")
                                  .arg(details->width())
                                  .arg(details->findChild<QSplitter *>()->sizes().value(0))
                                  .arg(details->findChild<QSplitter *>()->sizes().value(1))));
    // What the Details column cuts is in its tooltip.
    QTRY_VERIFY(events->model()->rowCount() > 0);
    const QModelIndex text = events->model()->index(0, EventLogModel::ColText);
    QCOMPARE(text.data(Qt::ToolTipRole).toString(), text.data().toString());
    // The report's values are in view beside their fields.
    QTreeWidget *counters = details->counters();
    QVERIFY2(
        counters->columnWidth(0) + digit * 6 <= counters->viewport()->width(),
        qPrintable(
            QStringLiteral("fields %1 px of %2").arg(counters->columnWidth(0)).arg(counters->viewport()->width())));
}

STREAMSCOPE_TEST_MAIN(tst_WindowFit)
#include "tst_windowfit.moc"
