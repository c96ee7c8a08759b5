#pragma once

// Latency histogram of one stream on log-scale buckets (two per octave), with p50, p99 and
// p99.9 marked, for the last 10 s, the last 60 s or since start. Wraps Qt Charts (see
// RateChart). Refreshed once a second by the main window. GUI thread only.

#include "LatencyWindows.h"

#include <QtCore/QList>
#include <QtCore/QPointF>
#include <QtWidgets/QWidget>

class QAreaSeries;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace streamscope::ui {

class LatencyChart : public QWidget {
    Q_OBJECT
public:
    explicit LatencyChart(QWidget *parent = nullptr);

    // The stream shown; kInvalidStreamId shows an empty chart with a hint.
    void setStream(StreamId id, const QString &name);
    StreamId stream() const { return m_windows.stream(); }
    // Once a second: the stream's cumulative histogram.
    void push(const LatencySnapshot &cumulative);
    void setDark(bool dark);

    LatencyWindows::Window window() const;
    void setWindow(LatencyWindows::Window w);

signals:
    void settingsChanged();

private:
    void redraw();

    LatencyWindows m_windows;
    QString m_name;
    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QLogValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QLineSeries *m_upper = nullptr;
    QAreaSeries *m_area = nullptr;
    QLineSeries *m_markers[3] = {nullptr, nullptr, nullptr};
    QComboBox *m_windowBox = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QList<QPointF> m_points;
    double m_xMin = 0.0, m_xMax = 0.0, m_yMax = 0.0;
};

} // namespace streamscope::ui
