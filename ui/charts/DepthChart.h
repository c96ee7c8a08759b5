#pragma once

// A small depth chart beside the depth ladder: the cumulative quantity of the shown bids (from
// the best bid down, on the left) and asks (from the best ask up, on the right) against price,
// as steps, with the prices at both ends and the mid price below and the largest cumulative
// quantity above. Drawn with QPainter, as the details pane's Sparkline: it is redrawn a few
// times a second with at most 2 × BookDepth::kMaxLevels points and needs no axes of Qt Charts.
//
// Thread contract: GUI thread only.

#include "BookDepth.h"

#include <QtCore/QPointF>
#include <QtCore/QVector>
#include <QtWidgets/QWidget>

namespace streamscope::ui {

class DepthChart : public QWidget {
    Q_OBJECT
public:
    explicit DepthChart(QWidget *parent = nullptr);

    void setDepth(const BookDepth &depth);
    void clear();

    // (price, cumulative quantity) from the best level outwards, as plain numbers; for tests.
    const QVector<QPointF> &bidSteps() const { return m_bids; }
    const QVector<QPointF> &askSteps() const { return m_asks; }
    // "bids 12.5 · asks 9.75 (top 20 a side)", or what is missing.
    QString caption() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QVector<QPointF> m_bids;
    QVector<QPointF> m_asks;
    qint64 m_bidTotal = 0; // exact, for the caption
    qint64 m_askTotal = 0;
    int m_levels = 0;
};

} // namespace streamscope::ui
