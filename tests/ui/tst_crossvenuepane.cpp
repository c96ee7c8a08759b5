// The Cross-venue pane: fed by the window's AlertService once a second, it lists every
// instrument two or more venues keep a book of, a row per stream, the group's first row naming
// it; flagged rows are marked; the model is checked by QAbstractItemModelTester; "Aliases…"
// edits the mapping (InstrumentAliasDialog), refuses bad rows naming them, and the next
// comparison follows the new mapping.

#include "../common/StartTime.h"
#include "../common/TestRegistry.h"
#include "AlertService.h"
#include "BookDepth.h"
#include "CrossVenueModel.h"
#include "CrossVenuePane.h"
#include "Engine.h"
#include "InstrumentAliasDialog.h"
#include "MainWindow.h"

#include <QtCore/QTimer>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTableWidget>

#include <cmath>

using namespace streamscope;
using streamscope::testing::kStartMs;
using namespace streamscope::alerts;
using namespace streamscope::ui;

namespace {

StreamSnapshot venueStream(StreamId id, const QString &name, const char *venue, const QString &symbol, double mid,
                           qint64 nowMs)
{
    StreamSnapshot s;
    s.id = id;
    s.name = name;
    s.venue = venueFromName(QLatin1String(venue));
    s.state = StreamState::Live;
    s.lastDataMs = nowMs - 300;
    BookStatus b;
    b.instrument = symbol;
    b.state = BookState::Synced;
    b.bestBid = std::llround((mid - 0.5) * double(kDepthUnit));
    b.bestAsk = std::llround((mid + 0.5) * double(kDepthUnit));
    s.books = {b};
    return s;
}

// BTC-USDT on three venues (the third `btc` away), and Kraken's XBT/USD beside Coinbase's BTC-USD.
QVector<StreamSnapshot> venues(double btc, qint64 nowMs)
{
    return {venueStream(1, QStringLiteral("okx-books"), "okx", QStringLiteral("BTC-USDT"), 100.0, nowMs),
            venueStream(2, QStringLiteral("bybit-books"), "bybit", QStringLiteral("BTCUSDT"), 100.0, nowMs),
            venueStream(3, QStringLiteral("binance-books"), "binance", QStringLiteral("BTCUSDT"), btc, nowMs),
            venueStream(4, QStringLiteral("coinbase-books"), "coinbase", QStringLiteral("BTC-USD"), 100.0, nowMs),
            venueStream(5, QStringLiteral("kraken-books"), "kraken", QStringLiteral("XBT/USD"), 100.0, nowMs)};
}

QString cell(const CrossVenueModel *m, int row, int column)
{
    return m->data(m->index(row, column)).toString();
}

} // namespace

class tst_CrossVenuePane : public QObject {
    Q_OBJECT
private slots:
    void showsTheComparison()
    {
        AlertService service;
        service.setCrossVenueSettings({50.0, 2000, 600'000});
        CrossVenuePane pane(&service);
        QAbstractItemModelTester tester(pane.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(pane.model()->rowCount(), 0);
        QVERIFY(pane.summary()->text().startsWith(QStringLiteral("No instrument is kept by two venues yet")));

        service.evaluate(venues(100.0, kStartMs), kStartMs, 0);
        const CrossVenueModel *m = pane.model();
        QCOMPARE(m->rowCount(), 3); // BTC-USD and XBT-USD are two instruments of one venue each
        QCOMPARE(pane.summary()->text(), QStringLiteral("1 instrument across venues"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColInstrument), QStringLiteral("BTC-USDT"));
        QCOMPARE(cell(m, 1, CrossVenueModel::ColInstrument), QString()); // the group names it once
        QCOMPARE(cell(m, 0, CrossVenueModel::ColStream), QStringLiteral("binance-books"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColVenue), QStringLiteral("binance"));
        QCOMPARE(cell(m, 2, CrossVenueModel::ColSymbol), QStringLiteral("BTC-USDT"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColMid), QStringLiteral("100"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColBid), QStringLiteral("99.5"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColDeviation), QStringLiteral("0.0"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColSpread), QStringLiteral("0.0"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColFlag), QString());

        // binance-books 1 % above the others: flagged once that held 2 s, its row marked.
        QSignalSpy reset(pane.model(), &QAbstractItemModel::modelReset);
        for (int sec = 1; sec <= 3; ++sec)
            service.evaluate(venues(101.0, kStartMs + sec * 1000), kStartMs + sec * 1000, sec * 1000);
        QCOMPARE(reset.size(), 0); // the same rows: data changed, no reset
        QCOMPARE(cell(m, 0, CrossVenueModel::ColDeviation), QStringLiteral("+100.0"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColFlag), QStringLiteral("⚠ apart"));
        QCOMPARE(m->data(m->index(0, CrossVenueModel::ColMid), CrossVenueModel::FlaggedRole).toBool(), true);
        QVERIFY(m->data(m->index(0, CrossVenueModel::ColMid), Qt::BackgroundRole).isValid());
        QCOMPARE(m->data(m->index(1, CrossVenueModel::ColMid), CrossVenueModel::FlaggedRole).toBool(), false);
        QVERIFY(!m->data(m->index(1, CrossVenueModel::ColMid), Qt::BackgroundRole).isValid());
        QCOMPARE(pane.summary()->text(), QStringLiteral("1 instrument across venues; 1 row flagged"));

        // An alias joins Kraken's XBT/USD with Coinbase's BTC-USD at the next comparison.
        QSignalSpy changed(&service, &AlertService::instrumentAliasesChanged);
        service.setInstrumentAliases(InstrumentAliases({{QStringLiteral("XBT/USD"), QStringLiteral("BTC-USD")}}));
        QCOMPARE(changed.size(), 1);
        service.evaluate(venues(101.0, kStartMs + 4000), kStartMs + 4000, 4000);
        QCOMPARE(m->rowCount(), 5);
        QCOMPARE(cell(m, 0, CrossVenueModel::ColInstrument), QStringLiteral("BTC-USD"));
        QCOMPARE(cell(m, 1, CrossVenueModel::ColSymbol), QStringLiteral("XBT/USD"));
        QCOMPARE(pane.summary()->text(), QStringLiteral("2 instruments across venues; 1 row flagged"));
    }

    // The Last column: a venue's last trade price beside its mid, "–" before its first trade; a
    // venue with trades and no book has a row of its own, compared by its last.
    void showsTheLastTrade()
    {
        AlertService service;
        CrossVenuePane pane(&service);
        QAbstractItemModelTester tester(pane.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const CrossVenueModel *m = pane.model();
        QCOMPARE(m->headerData(CrossVenueModel::ColLast, Qt::Horizontal).toString(), QStringLiteral("Last"));
        QCOMPARE(m->headerData(CrossVenueModel::ColLastDeviation, Qt::Horizontal).toString(), QStringLiteral("Last Δ"));
        QVector<StreamSnapshot> s = venues(100.0, kStartMs);
        s[0].lastTrades = {
            LastTrade{QStringLiteral("BTC-USDT"), std::llround(100.25 * double(kDepthUnit)), 3, kStartMs - 100}};
        StreamSnapshot trades;
        trades.id = 6;
        trades.name = QStringLiteral("hl-trades");
        trades.venue = venueFromName(QLatin1String("hyperliquid"));
        trades.state = StreamState::Live;
        trades.lastDataMs = kStartMs - 100;
        trades.lastTrades = {
            LastTrade{QStringLiteral("BTCUSDT"), std::llround(99.0 * double(kDepthUnit)), 5, kStartMs - 100}};
        s.append(trades);
        service.evaluate(s, kStartMs, 0);
        QCOMPARE(m->rowCount(), 4);
        // Rows by stream name: binance-books, bybit-books, hl-trades, okx-books.
        QCOMPARE(cell(m, 0, CrossVenueModel::ColLast), QStringLiteral("–"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColLastDeviation), QStringLiteral("–"));
        QCOMPARE(cell(m, 2, CrossVenueModel::ColStream), QStringLiteral("hl-trades"));
        QCOMPARE(cell(m, 2, CrossVenueModel::ColMid), QStringLiteral("–"));
        QCOMPARE(cell(m, 2, CrossVenueModel::ColLast), QStringLiteral("99"));
        QCOMPARE(cell(m, 2, CrossVenueModel::ColDeviation), QStringLiteral("-100.0"));
        QCOMPARE(cell(m, 2, CrossVenueModel::ColLastDeviation), QStringLiteral("-124.7"));
        QCOMPARE(cell(m, 3, CrossVenueModel::ColLast), QStringLiteral("100.25"));
        QCOMPARE(cell(m, 3, CrossVenueModel::ColMid), QStringLiteral("100"));
        QCOMPARE(m->data(m->index(2, CrossVenueModel::ColLast), CrossVenueModel::SortRole).toDouble(), 99.0);
    }

    // A coin priced below 0.0001 reads as a plain decimal ("0.00001235", never "1.235e-05"),
    // and a large price keeps its digits.
    void pricesArePlainDecimals()
    {
        AlertService service;
        CrossVenuePane pane(&service);
        QVector<StreamSnapshot> s = venues(100.0, kStartMs);
        for (StreamSnapshot &stream : s) {
            stream.books.first().bestBid = 1234; // 0.00001234
            stream.books.first().bestAsk = 1236;
        }
        s[2].books.first().bestBid = std::llround(1'234'567.5 * double(kDepthUnit)); // binance-books
        s[2].books.first().bestAsk = std::llround(1'234'568.5 * double(kDepthUnit));
        service.evaluate(s, kStartMs, 0);
        const CrossVenueModel *m = pane.model();
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(cell(m, 0, CrossVenueModel::ColStream), QStringLiteral("binance-books"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColMid), QStringLiteral("1234568"));
        QCOMPARE(cell(m, 0, CrossVenueModel::ColBid), QStringLiteral("1234567.5"));
        QCOMPARE(cell(m, 1, CrossVenueModel::ColBid), QStringLiteral("0.00001234"));
        QCOMPARE(cell(m, 1, CrossVenueModel::ColMid), QStringLiteral("0.00001235"));
        QCOMPARE(cell(m, 1, CrossVenueModel::ColAsk), QStringLiteral("0.00001236"));
    }

    void aliasDialogEdits()
    {
        InstrumentAliasDialog dialog(InstrumentAliases({{QStringLiteral("XBT/USD"), QStringLiteral("BTC-USD")}}));
        QTableWidget *table = dialog.table();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("XBT-USD")); // what it would be without the alias

        dialog.addRow();
        table->item(1, 0)->setText(QStringLiteral("BTC"));
        table->item(1, 1)->setText(QStringLiteral("btc/usd")); // not normalised
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        auto *error = dialog.findChild<QLabel *>(QStringLiteral("error"));
        QVERIFY(!error->isHidden());
        QCOMPARE(error->text(),
                 QStringLiteral("Row 2: \"BTC/USD\" is not a normalised name; write it as BASE-QUOTE "
                                "in capitals, such as BTC-USD."));

        table->item(1, 1)->setText(QStringLiteral("BTC-USD"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.aliases().resolve(QStringLiteral("BTC")), QStringLiteral("BTC-USD"));
        QCOMPARE(dialog.aliases().resolve(QStringLiteral("xbtusd")), QStringLiteral("BTC-USD"));
        QCOMPARE(dialog.aliases().map().size(), 2);
    }

    // The window's Cross-venue tab shows what its alert service compared, and the workspace it
    // saves carries the aliases.
    void inTheWindow()
    {
        Engine engine;
        MainWindow w(&engine);
        QDockWidget *dock = w.crossVenueDock();
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Cross-venue"));
        QCOMPARE(dock->widget(), static_cast<QWidget *>(w.crossVenuePane()));
        w.alertService()->evaluate(venues(100.0, kStartMs), kStartMs, 0);
        QCOMPARE(w.crossVenuePane()->model()->rowCount(), 3);
        w.alertService()->setInstrumentAliases(
            InstrumentAliases({{QStringLiteral("XBT/USD"), QStringLiteral("BTC-USD")}}));
        QCOMPARE(w.currentWorkspace().instrumentAliases.resolve(QStringLiteral("XBT/USD")), QStringLiteral("BTC-USD"));
        QVERIFY(w.isModified());
    }

    // The pane's button opens the dialog; what it accepts goes to the service.
    void paneButtonEditsTheService()
    {
        AlertService service;
        CrossVenuePane pane(&service);
        QSignalSpy changed(&service, &AlertService::instrumentAliasesChanged);
        QTimer::singleShot(0, &pane, [] {
            auto *dialog = qobject_cast<InstrumentAliasDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->addRow();
            dialog->table()->item(0, 0)->setText(QStringLiteral("XBT/USD"));
            dialog->table()->item(0, 1)->setText(QStringLiteral("BTC-USD"));
            dialog->accept();
        });
        pane.aliasesButton()->click();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(service.crossVenue().aliases().resolve(QStringLiteral("XBT/USD")), QStringLiteral("BTC-USD"));
    }
};

STREAMSCOPE_TEST_MAIN(tst_CrossVenuePane)
#include "tst_crossvenuepane.moc"
