#pragma once

// The look shared by StreamScope's charts: no animation, legend at the bottom, tight
// margins, square corners. Qt Charts stays behind RateChart and LatencyChart; this is the
// one place where both build their QChart.

#include <QtCharts/QChart>
#include <QtWidgets/QGraphicsLayout>

namespace streamscope::ui {

inline QChart *createPlainChart()
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    return chart;
}

} // namespace streamscope::ui
