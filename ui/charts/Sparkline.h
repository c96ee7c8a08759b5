#pragma once

// A small line of one figure over the last minutes (the details pane's rate and p99), with
// its name, the newest value and the highest one written above it (on two lines when narrow). Points are
// (seconds before now, ≤ 0; value); a missing second breaks the line. GUI thread only.

#include <QtCore/QList>
#include <QtCore/QPointF>
#include <QtCore/QStringList>
#include <QtWidgets/QWidget>

#include <functional>

namespace streamscope::ui {

class Sparkline : public QWidget {
    Q_OBJECT
public:
    using Formatter = std::function<QString(double)>;

    Sparkline(const QString &title, Formatter format, QWidget *parent = nullptr);

    static constexpr int kSpanS = 300; // at most the last five minutes
    // The time drawn: whole minutes, enough for the oldest point, from one to five.
    int spanS() const { return m_spanS; }

    void setPoints(const QList<QPointF> &points);
    const QList<QPointF> &points() const { return m_points; } // those within the span
    // "msgs/s 1.2 k/s · max 3.4 k/s · last 5 min" (what is written above the line)
    QString caption() const;
    // The caption as drawn at the line's width: one line when it fits, else two, cut at its
    // last " · " ("p99 1.3 ms · max 27.1 ms" above "last 1 min"); the tooltip has it whole.
    QStringList captionLines() const;
    void setColor(const QColor &color);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_title;
    Formatter m_format;
    QList<QPointF> m_points;
    double m_max = 0.0;
    int m_spanS = 60;
    QColor m_color;
};

} // namespace streamscope::ui
