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

#include <optional>

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
    // The texts drawn around the plot: the prices at its ends and the mid price below it
    // (formatPrice: "0.00001234", never "1.234e-05"), the largest cumulative quantity above it
    // in human units ("1.23M"); empty without levels.
    struct Labels {
        QString low;
        QString high;
        QString mid; // empty unless both sides have a level
        QString top;
    };
    Labels labels() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    // The plot's extent: prices lo .. hi, cumulative quantities 0 .. top (the largest and a
    // margin above it); nullopt without levels.
    struct Extent {
        double lo = 0.0;
        double hi = 0.0;
        double largest = 0.0;
        double top = 1.0;
    };
    std::optional<Extent> extent() const;

    QVector<QPointF> m_bids;
    QVector<QPointF> m_asks;
    qint64 m_bidTotal = 0; // exact, for the caption
    qint64 m_askTotal = 0;
    int m_levels = 0;
};

} // namespace streamscope::ui
