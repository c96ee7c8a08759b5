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
class QLineSeries;
class QToolButton;
class QValueAxis;

namespace streamscope::ui {

class RateHistory;

class RateChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxStreams = 6;
    enum class Scope { Unknown = 0, Both, AllOnly, SelectedOnly };

    explicit RateChart(QWidget *parent = nullptr);

    void setStreams(const QList<QPair<StreamId, QString>> &selected);
    void refresh(const RateHistory &history);
    void setDark(bool dark);

    bool isPaused() const;
    void setPaused(bool paused);
    Scope scope() const;
    void setScope(Scope scope);
    static QString scopeName(Scope scope);
    static Scope scopeFromName(const QString &name);

signals:
    void settingsChanged();

private:
    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QLineSeries *m_total = nullptr;
    std::vector<QLineSeries *> m_series;
    QComboBox *m_scopeBox = nullptr;
    QToolButton *m_pause = nullptr;
    QList<QPair<StreamId, QString>> m_selected;
    QList<QPointF> m_buffer;
    double m_yMax = 0.0;
    int m_xSpan = 0;
};

} // namespace streamscope::ui
