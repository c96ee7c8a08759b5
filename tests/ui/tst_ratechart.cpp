// The rate chart's series: one distinct colour per selected stream in both themes, legend
// names cut when long, and a note when more streams are selected than it draws.

#include "RateChart.h"

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtTest/QTest>

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
    QCOMPARE(verticalAxisType(), QAbstractAxis::AxisTypeValue);
    for (const bool log : {true, false, true}) {
        chart.setLogScale(log);
        QCOMPARE(chart.isLogScale(), log);
        QCOMPARE(verticalAxisType(), log ? QAbstractAxis::AxisTypeLogValue : QAbstractAxis::AxisTypeValue);
        for (QAbstractSeries *s : c->series()) {
            const QList<QAbstractAxis *> attached = s->attachedAxes();
            QCOMPARE(attached.size(), 2); // time and the rate axis shown
            QVERIFY(attached.contains(c->axes(Qt::Vertical).first()));
        }
    }
}

QTEST_MAIN(tst_RateChart)
#include "tst_ratechart.moc"
