#pragma once

// The look shared by StreamScope's charts: no animation, legend at the bottom, tight
// margins, square corners. Qt Charts stays behind RateChart and LatencyChart; this is the
// one place where both build their QChart.

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractSeries>
#include <QtCharts/QChart>
#include <QtWidgets/QGraphicsLayout>

namespace streamscope::ui {

inline QChart *createPlainChart()
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    // Room above and to the right for the labels at the axes' ends, which the category axes of
    // AxisTicks centre on the plot's edge without reserving space for them.
    chart->setMargins(QMargins(4, 10, 26, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    return chart;
}

// Moves `series` from the vertical axis `from` to `to` (a linear and a log axis swapped by a
// Log button). `from` leaves the chart but not its owner: `keeper` takes it back.
inline void swapVerticalAxis(QChart *chart, QAbstractAxis *from, QAbstractAxis *to,
                             const QList<QAbstractSeries *> &series, QObject *keeper)
{
    for (QAbstractSeries *s : series)
        s->detachAxis(from);
    chart->removeAxis(from);
    from->setParent(keeper); // removeAxis gives it back without deleting it
    chart->addAxis(to, Qt::AlignLeft);
    for (QAbstractSeries *s : series)
        s->attachAxis(to);
}

} // namespace streamscope::ui
