// The depth ladder's model (DepthLadderModel): asks above bids on fixed rows, the spread between
// the same two rows, sizes on their own side with bars as shares of the largest size shown, and
// the levels that changed since the last copy flashing, fading over kFlashMs; the depth chart's
// cumulative steps from the same copy.

#include "../common/TestRegistry.h"
#include "DepthChart.h"
#include "DepthLadderModel.h"

#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <cmath>

using namespace streamscope;
using namespace streamscope::ui;

namespace {
constexpr qint64 kUnit = kDepthUnit;

BookDepth depth(const QList<QPair<double, double>> &bids, const QList<QPair<double, double>> &asks)
{
    BookDepth d;
    d.stream = 1;
    d.instrument = QStringLiteral("BTCUSDT");
    d.found = true;
    d.state = BookState::Synced;
    d.updateId = 1234;
    for (const auto &[p, q] : bids)
        d.bids.append({std::llround(p * kUnit), std::llround(q * kUnit)});
    for (const auto &[p, q] : asks)
        d.asks.append({std::llround(p * kUnit), std::llround(q * kUnit)});
    d.bidLevels = int(d.bids.size());
    d.askLevels = int(d.asks.size());
    return d;
}
} // namespace

class tst_DepthLadderModel : public QObject {
    Q_OBJECT
private slots:
    void asksAboveBidsOnFixedRows();
    void barsAreSharesOfTheLargestSize();
    void changedLevelsFlashAndFade();
    void anotherInstrumentFlashesNothing();
    void depthChartCumulates();
    void depthChartWritesPlainNumbers();
    void exactDecimalText();
};

void tst_DepthLadderModel::asksAboveBidsOnFixedRows()
{
    DepthLadderModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 2 * DepthLadderModel::kLevels);
    QCOMPARE(model.columnCount(), 3);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setDepth(depth({{100.5, 2}, {100.25, 1}}, {{101, 3}, {101.5, 0.5}, {102, 4}}), 0);
    QCOMPARE(reset.count(), 0); // rows never change, only data
    QCOMPARE(inserted.count(), 0);
    const auto text = [&model](int row, int column) { return model.index(row, column).data().toString(); };
    // The best ask just above the best bid, worse asks further up, worse bids further down.
    QCOMPARE(DepthLadderModel::bestAskRow(), DepthLadderModel::kLevels - 1);
    QCOMPARE(text(DepthLadderModel::bestAskRow(), DepthLadderModel::ColPrice), QStringLiteral("101"));
    QCOMPARE(text(DepthLadderModel::bestAskRow() - 1, DepthLadderModel::ColPrice), QStringLiteral("101.5"));
    QCOMPARE(text(DepthLadderModel::bestAskRow() - 2, DepthLadderModel::ColPrice), QStringLiteral("102"));
    QCOMPARE(text(DepthLadderModel::bestAskRow() - 3, DepthLadderModel::ColPrice), QString());
    QCOMPARE(text(DepthLadderModel::bestBidRow(), DepthLadderModel::ColPrice), QStringLiteral("100.5"));
    QCOMPARE(text(DepthLadderModel::bestBidRow() + 1, DepthLadderModel::ColPrice), QStringLiteral("100.25"));
    // A size on its own side only.
    QCOMPARE(text(DepthLadderModel::bestAskRow(), DepthLadderModel::ColAsk), QStringLiteral("3"));
    QCOMPARE(text(DepthLadderModel::bestAskRow(), DepthLadderModel::ColBid), QString());
    QCOMPARE(text(DepthLadderModel::bestBidRow(), DepthLadderModel::ColBid), QStringLiteral("2"));
    QCOMPARE(text(DepthLadderModel::bestBidRow(), DepthLadderModel::ColAsk), QString());
    QCOMPARE(model.index(DepthLadderModel::bestBidRow(), 0).data(DepthLadderModel::SideRole).toInt(), 0);
    QCOMPARE(model.index(DepthLadderModel::bestAskRow(), 0).data(DepthLadderModel::SideRole).toInt(), 1);

    // More than kLevels a side: the top kLevels.
    QList<QPair<double, double>> many;
    for (int i = 0; i < 30; ++i)
        many.append({100.0 - i, 1.0});
    model.setDepth(depth(many, {{101, 1}}), 0);
    QCOMPARE(model.depth().bids.size(), DepthLadderModel::kLevels);
    QCOMPARE(text(2 * DepthLadderModel::kLevels - 1, DepthLadderModel::ColPrice), QStringLiteral("81"));
    model.clear();
    QCOMPARE(text(DepthLadderModel::bestBidRow(), DepthLadderModel::ColPrice), QString());
}

void tst_DepthLadderModel::barsAreSharesOfTheLargestSize()
{
    DepthLadderModel model;
    model.setDepth(depth({{100, 2}, {99, 8}}, {{101, 4}}), 0);
    const auto bar = [&model](int row, int column) {
        return model.index(row, column).data(DepthLadderModel::BarRole).toDouble();
    };
    QCOMPARE(bar(DepthLadderModel::bestBidRow() + 1, DepthLadderModel::ColBid), 1.0);
    QCOMPARE(bar(DepthLadderModel::bestBidRow(), DepthLadderModel::ColBid), 0.25);
    QCOMPARE(bar(DepthLadderModel::bestAskRow(), DepthLadderModel::ColAsk), 0.5);
    QCOMPARE(bar(DepthLadderModel::bestAskRow(), DepthLadderModel::ColPrice), 0.0);
    QCOMPARE(bar(DepthLadderModel::bestBidRow(), DepthLadderModel::ColAsk), 0.0);
}

void tst_DepthLadderModel::changedLevelsFlashAndFade()
{
    DepthLadderModel model;
    const auto flash = [&model](int row, int column) {
        return model.index(row, column).data(DepthLadderModel::FlashRole).toDouble();
    };
    model.setDepth(depth({{100, 2}, {99, 1}}, {{101, 3}}), 1000);
    QCOMPARE(model.flashing(), 0); // the first copy: nothing to compare with
    // 100 changes size, 98 is new, 99 and the ask stay.
    model.setDepth(depth({{100, 5}, {99, 1}, {98, 7}}, {{101, 3}}), 1200);
    QCOMPARE(model.flashing(), 2);
    QCOMPARE(flash(DepthLadderModel::bestBidRow(), DepthLadderModel::ColBid), 1.0);
    QCOMPARE(flash(DepthLadderModel::bestBidRow() + 1, DepthLadderModel::ColBid), 0.0);
    QCOMPARE(flash(DepthLadderModel::bestBidRow() + 2, DepthLadderModel::ColBid), 1.0);
    QCOMPARE(flash(DepthLadderModel::bestAskRow(), DepthLadderModel::ColAsk), 0.0);
    QCOMPARE(flash(DepthLadderModel::bestBidRow(), DepthLadderModel::ColPrice), 0.0);
    QCOMPARE(flash(DepthLadderModel::bestBidRow(), DepthLadderModel::ColAsk), 0.0); // the other side's empty cell
    // Fading: half-way at half the time, gone after kFlashMs.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(model.advance(1200 + DepthLadderModel::kFlashMs / 2));
    QVERIFY(!changed.isEmpty());
    QCOMPARE(flash(DepthLadderModel::bestBidRow(), DepthLadderModel::ColBid), 0.5);
    // A later copy that changes nothing keeps a flash going where it was.
    model.setDepth(depth({{100, 5}, {99, 1}, {98, 7}}, {{101, 3}}), 1200 + DepthLadderModel::kFlashMs / 2);
    QCOMPARE(flash(DepthLadderModel::bestBidRow(), DepthLadderModel::ColBid), 0.5);
    QVERIFY(!model.advance(1200 + DepthLadderModel::kFlashMs));
    QCOMPARE(model.flashing(), 0);
    QCOMPARE(flash(DepthLadderModel::bestBidRow(), DepthLadderModel::ColBid), 0.0);
    // A level that goes and comes back is new again.
    model.setDepth(depth({{100, 5}, {99, 1}}, {{101, 3}}), 3000);
    model.setDepth(depth({{100, 5}, {99, 1}, {98, 7}}, {{101, 3}}), 3100);
    QCOMPARE(model.flashing(), 1);
    QCOMPARE(flash(DepthLadderModel::bestBidRow() + 2, DepthLadderModel::ColBid), 1.0);
}

void tst_DepthLadderModel::anotherInstrumentFlashesNothing()
{
    DepthLadderModel model;
    model.setDepth(depth({{100, 2}}, {{101, 3}}), 0);
    BookDepth other = depth({{50, 1}}, {{51, 1}});
    other.instrument = QStringLiteral("ETHUSDT");
    model.setDepth(other, 100);
    QCOMPARE(model.flashing(), 0);
    model.clear();
    model.setDepth(depth({{100, 9}}, {{101, 3}}), 200);
    QCOMPARE(model.flashing(), 0);
}

void tst_DepthLadderModel::depthChartCumulates()
{
    DepthChart chart;
    chart.resize(300, 160);
    chart.setDepth(depth({{100, 2}, {99, 1.5}}, {{101, 3}, {102, 0.25}}));
    QCOMPARE(chart.bidSteps(), (QVector<QPointF>{{100, 2}, {99, 3.5}}));
    QCOMPARE(chart.askSteps(), (QVector<QPointF>{{101, 3}, {102, 3.25}}));
    QCOMPARE(chart.caption(), QStringLiteral("Depth: bids 3.5 · asks 3.25 (top 2 a side)"));
    chart.grab(); // paints without a fault
    chart.clear();
    QVERIFY(chart.bidSteps().isEmpty());
    QCOMPARE(chart.caption(), QStringLiteral("Depth: no levels"));
    chart.grab();
}

// A large book's quantity in human units, a small price in plain decimals: never "1.23457e+06"
// or "1.234e-05" on the chart.
void tst_DepthLadderModel::depthChartWritesPlainNumbers()
{
    DepthChart chart;
    chart.resize(300, 160);
    QCOMPARE(chart.labels().top, QString());
    chart.setDepth(depth({{0.00001234, 1'000'000}, {0.00001233, 234'567}}, {{0.00001236, 1}}));
    const DepthChart::Labels text = chart.labels();
    QCOMPARE(text.top, QStringLiteral("1.23M"));
    QCOMPARE(text.low, QStringLiteral("0.00001233"));
    QCOMPARE(text.high, QStringLiteral("0.00001236"));
    QCOMPARE(text.mid, QStringLiteral("0.00001235"));
    chart.setDepth(depth({{27123.5, 0.25}}, {{27124, 1.5}}));
    QCOMPARE(chart.labels().low, QStringLiteral("27123.5"));
    QCOMPARE(chart.labels().mid, QStringLiteral("27123.75"));
    QCOMPARE(chart.labels().top, QStringLiteral("1.5"));
    chart.grab();
}

void tst_DepthLadderModel::exactDecimalText()
{
    QCOMPARE(depthText(2712345000000), QStringLiteral("27123.45"));
    QCOMPARE(depthText(100000), QStringLiteral("0.001"));
    QCOMPARE(depthText(1), QStringLiteral("0.00000001"));
    QCOMPARE(depthText(5 * kUnit), QStringLiteral("5"));
    QCOMPARE(depthText(0), QStringLiteral("0"));
    QCOMPARE(depthText(INT64_MAX), QStringLiteral("92233720368.54775807"));
}

STREAMSCOPE_TEST_MAIN(tst_DepthLadderModel)
#include "tst_depthladdermodel.moc"
