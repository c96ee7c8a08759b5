#pragma once

// Latency histogram of one stream on log-scale buckets (two per octave), with p50, p99 and
// p99.9 marked, for the last 10 s, the last 60 s or since start. Wraps Qt Charts (see
// RateChart). Refreshed once a second by SelectionController. GUI thread only.

#include "LatencyWindows.h"

#include <QtCore/QList>
#include <QtCore/QPointF>
#include <QtWidgets/QWidget>

class QAreaSeries;
class QChart;
class QChartView;
class QAbstractAxis;
class QComboBox;
class QLabel;
class QLineSeries;
class QToolButton;
class QCategoryAxis;
class QValueAxis;

namespace streamscope::ui {

class LatencyChart : public QWidget {
    Q_OBJECT
public:
    explicit LatencyChart(QWidget *parent = nullptr);

    // The stream shown; kInvalidStreamId shows an empty chart with a hint.
    void setStream(StreamId id, const QString &name);
    StreamId stream() const { return m_windows.stream(); }
    // Once a second: the stream's cumulative histogram and whether it runs. While it does not,
    // the windows hold the last seconds before the stop, and "Last 10 s" is the table's own
    // p50/p99 window, from `heldFrom` (StreamTableModel::Row::latWindow.oldAnchor()), so that both agree;
    // the windows start afresh when it runs again.
    void push(const LatencySnapshot &cumulative, bool running = true, const LatencySnapshot &heldFrom = {});
    // An open capture (File → Open capture): its whole histogram, fixed, whatever the window
    // chosen; `span` says over what ("12:00:01 to 12:05:00 UTC"). Until setStream() changes the stream.
    void setFixed(const LatencySnapshot &whole, const QString &span);
    bool isFixed() const { return m_fixed; }
    // The histogram drawn now.
    LatencySnapshot shown() const;
    // Which latency the pushed histograms are: raw, or corrected for the venue's clock
    // (`clock` says by what); a change starts the windows afresh. `note` is the engine's
    // explanation of negative latencies, shown with their count.
    void setSource(bool corrected, const QString &clock, const QString &note);
    bool isCorrected() const { return m_corrected; }
    void setDark(bool dark);

    LatencyWindows::Window window() const;
    void setWindow(LatencyWindows::Window w);
    // Messages per bucket on a logarithmic axis instead of each bucket's share on a linear
    // one: the tail's few slow messages show beside the thousands of the body.
    bool isLogScale() const;
    void setLogScale(bool on);
    static constexpr double kLogFloor = 0.5; // the log axis's bottom: an empty bucket sits on it

    // The chart itself, without its controls (what File → Export → … as PNG draws).
    QChartView *view() const { return m_view; }

signals:
    void settingsChanged();

private:
    void redraw();

    LatencyWindows m_windows;
    QString m_name;
    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QCategoryAxis *m_axisX = nullptr; // linear in log10 of the latency (ms)
    QValueAxis *m_axisY = nullptr;
    QCategoryAxis *m_logAxisY = nullptr;   // linear in log10 of the count
    QAbstractAxis *m_shownAxisY = nullptr; // m_axisY or m_logAxisY
    QToolButton *m_log = nullptr;
    QLineSeries *m_upper = nullptr;
    QAreaSeries *m_area = nullptr;
    QLineSeries *m_markers[3] = {nullptr, nullptr, nullptr};
    QComboBox *m_windowBox = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QList<QPointF> m_points;
    double m_xMin = 0.0, m_xMax = 0.0, m_yMax = 0.0;
    bool m_held = false; // the stream does not run: the windows end at its stop
    LatencySnapshot m_heldFrom;
    bool m_corrected = false;
    bool m_fixed = false; // setFixed()
    LatencySnapshot m_fixedHistogram;
    QString m_fixedSpan;
    QString m_clock;
    QString m_note;
};

} // namespace streamscope::ui
