// The rate chart's series: one distinct colour per selected stream in both themes, legend
// names cut when long, and a note when more streams are selected than it draws; its axes in
// human units at round values ("1M", never "1e+06"; 0, 2, 4 … 10, never 0, 3, 5, 8, 10).

#include "../common/TestRegistry.h"
#include "RateChart.h"
#include "StreamHistory.h"

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QtTest/QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace streamscope;
using namespace streamscope::ui;

class tst_RateChart : public QObject {
    Q_OBJECT
private slots:
    void distinctColoursInBothThemes();
    void noteWhenSomeSelectedAreNotDrawn();
    void longNamesCutInTheLegend();
    void logScaleMovesEverySeries();
    void axesInHumanUnits();
};

void tst_RateChart::distinctColoursInBothThemes()
{
    RateChart chart;
    for (const bool dark : {false, true, false}) {
        chart.setDark(dark);
        std::set<QRgb> colours;
        const QList<QAbstractSeries *> series = chart.findChild<QChartView *>()->chart()->series();
        for (QAbstractSeries *s : series)
            colours.insert(static_cast<QLineSeries *>(s)->pen().color().rgb());
        QCOMPARE(int(colours.size()), RateChart::kMaxStreams + 1); // and the total's
    }
}

void tst_RateChart::noteWhenSomeSelectedAreNotDrawn()
{
    RateChart chart;
    QList<QPair<StreamId, QString>> selected;
    for (StreamId id = 1; id <= 4; ++id)
        selected.append({id, QStringLiteral("s%1").arg(id)});
    chart.setStreams(selected);
    QVERIFY(chart.note().isEmpty());
    for (StreamId id = 5; id <= 9; ++id)
        selected.append({id, QStringLiteral("s%1").arg(id)});
    chart.setStreams(selected);
    QCOMPARE(chart.note(), QStringLiteral("Showing the first 6 of the 9 selected streams."));
}

void tst_RateChart::longNamesCutInTheLegend()
{
    QCOMPARE(RateChart::legendName(QStringLiteral("btcusdt-aggtrade")), QStringLiteral("btcusdt-aggtrade"));
    const QString cut = RateChart::legendName(QStringLiteral("binance-usdm-futures-btcusdt-depth-diff-100ms"));
    QCOMPARE(cut.size(), RateChart::kMaxLegendChars);
    QVERIFY(cut.endsWith(QChar(0x2026)));
}

void tst_RateChart::logScaleMovesEverySeries()
{
    RateChart chart;
    QChart *c = chart.findChild<QChartView *>()->chart();
    const auto verticalAxisType = [c] {
        const QList<QAbstractAxis *> axes = c->axes(Qt::Vertical);
        return axes.size() == 1 ? axes.first()->type() : QAbstractAxis::AxisTypeNoAxis;
    };
    const auto verticalAxisName = [c] {
        const QList<QAbstractAxis *> axes = c->axes(Qt::Vertical);
        return axes.size() == 1 ? axes.first()->objectName() : QString();
    };
    QCOMPARE(verticalAxisType(), QAbstractAxis::AxisTypeCategory);
    QCOMPARE(verticalAxisName(), QStringLiteral("rateAxis"));
    for (const bool log : {true, false, true}) {
        chart.setLogScale(log);
        QCOMPARE(chart.isLogScale(), log);
        QCOMPARE(verticalAxisName(), log ? QStringLiteral("rateLogAxis") : QStringLiteral("rateAxis"));
        for (QAbstractSeries *s : c->series()) {
            const QList<QAbstractAxis *> attached = s->attachedAxes();
            QCOMPARE(attached.size(), 2); // time and the rate axis shown
            QVERIFY(attached.contains(c->axes(Qt::Vertical).first()));
        }
    }
}

void tst_RateChart::axesInHumanUnits()
{
    RateChart chart;
    QChart *c = chart.findChild<QChartView *>()->chart();
    const auto labels = [c] {
        auto *axis = qobject_cast<QCategoryAxis *>(c->axes(Qt::Vertical).value(0));
        return axis ? axis->categoriesLabels() : QStringList();
    };
    // Nothing yet: round ticks.
    QCOMPARE(labels(),
             (QStringList{QStringLiteral("0"), QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("6"),
                          QStringLiteral("8"), QStringLiteral("10")}));
    // A firehose: thousands and millions, not exponents.
    StreamHistory history;
    chart.setOffline(QStringLiteral("firehose (capture)"), {900000.0, 450000.0}, 1);
    chart.refresh(history);
    QCOMPARE(labels(),
             (QStringList{QStringLiteral("0"), QStringLiteral("200k"), QStringLiteral("400k"), QStringLiteral("600k"),
                          QStringLiteral("800k"), QStringLiteral("1M")}));
    chart.setLogScale(true);
    chart.refresh(history);
    QCOMPARE(labels(),
             (QStringList{QStringLiteral("0.1"), QStringLiteral("1"), QStringLiteral("10"), QStringLiteral("100"),
                          QStringLiteral("1k"), QStringLiteral("10k"), QStringLiteral("100k"), QStringLiteral("1M")}));
    // The series sits where its labels say: 900,000 msgs/s between "100k" and "1M".
    double top = 0;
    for (QAbstractSeries *s : c->series())
        for (const QPointF &p : static_cast<QLineSeries *>(s)->points())
            top = std::max(top, p.y());
    QCOMPARE(top, std::log10(900000.0));

    // A capture of 45 s: a tick every 10 s from 0, not seven ticks at "7 s, 15 s, 22 s".
    chart.setOffline(QStringLiteral("trades (capture)"), QVector<double>(45, 50.0), 1);
    chart.refresh(history);
    auto *time = qobject_cast<QValueAxis *>(c->axes(Qt::Horizontal).value(0));
    QVERIFY(time);
    QCOMPARE(time->tickType(), QValueAxis::TicksDynamic);
    QCOMPARE(time->tickAnchor(), 0.0);
    QCOMPARE(time->tickInterval(), 10.0);
}

STREAMSCOPE_TEST_MAIN(tst_RateChart)
#include "tst_ratechart.moc"
