// The main window on the screen it opens on, run once per screen of tests/ui/screens/ (a
// 1280×720 laptop, a 1920×1080 desktop, a 2× display): the first window fits, a layout saved
// on a larger screen is brought inside, and each row's buttons are visible without scrolling.

#include "Engine.h"
#include "MainWindow.h"
#include "StreamTableModel.h"

#include <QtCore/QJsonObject>
#include <QtGui/QScreen>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QTableView>

using namespace streamscope;
using namespace streamscope::ui;

class tst_WindowFit : public QObject {
    Q_OBJECT
private slots:
    void firstWindowFitsTheScreen();
    void restoredGeometryClampedToTheScreen();

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

QTEST_MAIN(tst_WindowFit)
#include "tst_windowfit.moc"
