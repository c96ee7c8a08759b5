#pragma once

// "Message rate over time": the last ten minutes at one-second resolution, for all streams
// together and for up to kMaxStreams selected ones. Wraps Qt Charts so that a move to
// Qt Graphs touches this file only. One series->replace() per series per refresh, point
// buffers reserved once, no animation, axis ranges set only when they change. Pausing
// freezes the view; the history keeps recording. GUI thread only.

#include "StreamTypes.h"

#include <QtCore/QList>
#include <QtCore/QPointF>
#include <QtWidgets/QWidget>

#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QCategoryAxis;
class QAbstractAxis;
class QToolButton;
class QValueAxis;

namespace streamscope::ui {

class StreamHistory;

class RateChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxStreams = 6;
    static constexpr int kMaxLegendChars = 28; // longer names are cut with "…" in the legend
    static constexpr double kLogFloor = 0.1;   // the log axis's bottom, msgs/s
    enum class Scope { Unknown = 0, Both, AllOnly, SelectedOnly };

    explicit RateChart(QWidget *parent = nullptr);

    // The selected streams; the first kMaxStreams are drawn, and a note says when some are not.
    void setStreams(const QList<QPair<StreamId, QString>> &selected);
    // What the note under the chart says; empty when every selected stream is drawn.
    QString note() const;
    // The legend's name for a stream.
    static QString legendName(const QString &streamName);
    void refresh(const StreamHistory &history);
    // An open capture selected (File → Open capture): its rate over its own time span instead
    // of the last ten minutes (x: seconds from the capture's start; `binSeconds` per point).
    // Empty `rates`: back to the live streams.
    void setOffline(const QString &name, const QVector<double> &rates, int binSeconds);
    bool isOffline() const { return !m_offline.isEmpty(); }
    void setDark(bool dark);

    bool isPaused() const;
    void setPaused(bool paused);
    // A logarithmic rate axis (from 0.1 msgs/s up), so that a 5 msgs/s stream shows beside a
    // 50,000 msgs/s one; a rate of 0 is drawn at the bottom.
    bool isLogScale() const;
    void setLogScale(bool on);
    Scope scope() const;
    void setScope(Scope scope);
    static QString scopeName(Scope scope);
    static Scope scopeFromName(const QString &name);

    // The chart itself, without its controls (what File → Export → … as PNG draws).
    QChartView *view() const { return m_view; }

signals:
    void settingsChanged();

private:
    void setSeriesPens();              // after a theme change, which resets them
    void fitToAxis();                  // m_buffer's points onto the vertical axis shown
    void setVerticalRange(double top); // 0 (the log floor) .. top msgs/s, labelled

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QValueAxis *m_axisX = nullptr;
    QCategoryAxis *m_axisY = nullptr;
    QCategoryAxis *m_logAxisY = nullptr;   // linear in log10 of the rate
    QAbstractAxis *m_shownAxisY = nullptr; // m_axisY or m_logAxisY
    QLineSeries *m_total = nullptr;
    std::vector<QLineSeries *> m_series;
    QComboBox *m_scopeBox = nullptr;
    QToolButton *m_pause = nullptr;
    QToolButton *m_log = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_title = nullptr;
    QList<QPointF> m_offline; // setOffline()'s points
    QString m_offlineName;
    QList<QPair<StreamId, QString>> m_selected;
    QList<QPointF> m_buffer;
    double m_yMax = 0.0;
    int m_xSpan = 0;
};

} // namespace streamscope::ui
