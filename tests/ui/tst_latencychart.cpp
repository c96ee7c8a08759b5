// The latency histogram's axes in human units: "10 µs" … "1 s" along the latency, "1k" and
// "1M" up the count, never printf's "1e+04" or "1e+06"; the percentiles in the legend too.

#include "../common/TestRegistry.h"
#include "LatencyChart.h"
#include "LatencySnapshot.h"

#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtTest/QTest>

using namespace streamscope;
using namespace streamscope::ui;

class tst_LatencyChart : public QObject {
    Q_OBJECT
private slots:
    void axesInHumanUnits();
};

void tst_LatencyChart::axesInHumanUnits()
{
    LatencyChart chart;
    QChart *c = chart.findChild<QChartView *>()->chart();
    const auto labels = [c](Qt::Orientation o) {
        auto *axis = qobject_cast<QCategoryAxis *>(c->axes(o).value(0));
        return axis ? axis->categoriesLabels() : QStringList();
    };
    QCOMPARE(labels(Qt::Horizontal),
             (QStringList{QStringLiteral("10 µs"), QStringLiteral("100 µs"), QStringLiteral("1 ms"),
                          QStringLiteral("10 ms"), QStringLiteral("100 ms"), QStringLiteral("1 s")}));

    // A slow tail: 2 million messages near 1 ms, 0.15 % of them at 16 s.
    LatencySnapshot h;
    for (int i = 0; i < 2'000'000; ++i)
        h.record(900 + i % 200);
    for (int i = 0; i < 3000; ++i)
        h.record(16'000'000);
    chart.setStream(1, QStringLiteral("firehose (capture)"));
    chart.setFixed(h, QStringLiteral("12:00:00 to 12:10:00 UTC"));
    const QStringList x = labels(Qt::Horizontal);
    QVERIFY2(x.contains(QStringLiteral("1 ms")) && x.contains(QStringLiteral("10 s"))
                 && x.last() == QStringLiteral("100 s"),
             qPrintable(x.join(QLatin1Char(','))));
    chart.setLogScale(true);
    const QStringList y = labels(Qt::Vertical);
    QVERIFY2(y.contains(QStringLiteral("1k")) && y.contains(QStringLiteral("1M")),
             qPrintable(y.join(QLatin1Char(','))));
    for (const QString &label : x + y)
        QVERIFY2(!label.contains(QLatin1String("e+")), qPrintable(label));
    QStringList legend;
    for (QLegendMarker *m : c->legend()->markers())
        legend << m->label();
    QVERIFY2(legend.join(QLatin1Char(',')).contains(QStringLiteral("p99.9 16")),
             qPrintable(legend.join(QLatin1Char(','))));
}

STREAMSCOPE_TEST_MAIN(tst_LatencyChart)
#include "tst_latencychart.moc"
