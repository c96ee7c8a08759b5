#include "DepthChart.h"

#include "Format.h"

#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

#include <algorithm>
#include <limits>

namespace streamscope::ui {

namespace {
QVector<QPointF> steps(const QVector<DepthLevel> &levels, qint64 &total)
{
    QVector<QPointF> out;
    out.reserve(levels.size());
    total = 0;
    for (const DepthLevel &l : levels) {
        // Quantities are at most 92 billion a level and 50 levels: the sum fits.
        total += l.qty;
        out.append(QPointF(double(l.price) / double(kDepthUnit), double(total) / double(kDepthUnit)));
    }
    return out;
}

// Colours readable on both palettes: the bid's green and the ask's red of the stream states.
QColor sideColor(bool bid, bool dark)
{
    return stateColor(bid ? StreamState::Live : StreamState::Failed, dark);
}
} // namespace

DepthChart::DepthChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("depthChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void DepthChart::setDepth(const BookDepth &depth)
{
    m_bids = steps(depth.bids, m_bidTotal);
    m_asks = steps(depth.asks, m_askTotal);
    m_levels = int(std::max(depth.bids.size(), depth.asks.size()));
    setToolTip(caption());
    update();
}

void DepthChart::clear()
{
    m_bids.clear();
    m_asks.clear();
    m_bidTotal = m_askTotal = 0;
    m_levels = 0;
    setToolTip(QString());
    update();
}

QString DepthChart::caption() const
{
    if (m_bids.isEmpty() && m_asks.isEmpty())
        return tr("Depth: no levels");
    return tr("Depth: bids %1 · asks %2 (top %3 a side)")
        .arg(depthText(m_bidTotal), depthText(m_askTotal))
        .arg(m_levels);
}

QSize DepthChart::sizeHint() const
{
    return {280, fontMetrics().height() * 9};
}

QSize DepthChart::minimumSizeHint() const
{
    return {160, fontMetrics().height() * 5};
}

void DepthChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    const bool dark = pal.color(QPalette::Window).lightness() < pal.color(QPalette::WindowText).lightness();
    const QFontMetrics fm = fontMetrics();
    const int textH = fm.height();
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(0, 0, width(), textH), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(caption(), Qt::ElideRight, width()));

    const QRectF plot(1.0, textH + 3.0, width() - 2.0, height() - 2.0 * textH - 8.0);
    p.setPen(QPen(pal.color(QPalette::Mid), 1.0));
    p.setBrush(pal.color(QPalette::Base));
    p.drawRect(plot);
    if ((m_bids.isEmpty() && m_asks.isEmpty()) || plot.height() < 8 || plot.width() < 8)
        return;

    double lo = std::numeric_limits<double>::max();
    double hi = std::numeric_limits<double>::lowest();
    double top = 0.0;
    for (const QVector<QPointF> *side : {&m_bids, &m_asks}) {
        for (const QPointF &v : *side) {
            lo = std::min(lo, v.x());
            hi = std::max(hi, v.x());
            top = std::max(top, v.y());
        }
    }
    if (hi <= lo) { // one price: room around it
        lo -= 1.0;
        hi += 1.0;
    }
    top = top > 0.0 ? top * 1.08 : 1.0;
    const auto at = [&](double price, double cum) {
        return QPointF(plot.left() + (price - lo) / (hi - lo) * plot.width(),
                       plot.bottom() - cum / top * plot.height());
    };
    // Each side as steps from its best level outwards, to the end of the plot, filled down.
    const auto drawSide = [&](const QVector<QPointF> &side, bool bid) {
        if (side.isEmpty())
            return;
        QPainterPath path(at(side.first().x(), 0.0));
        double cum = 0.0;
        for (const QPointF &v : side) {
            path.lineTo(at(v.x(), cum));
            cum = v.y();
            path.lineTo(at(v.x(), cum));
        }
        path.lineTo(at(bid ? lo : hi, cum));
        QPainterPath fill = path;
        fill.lineTo(at(bid ? lo : hi, 0.0));
        fill.closeSubpath();
        QColor c = sideColor(bid, dark);
        QColor area = c;
        area.setAlpha(dark ? 90 : 60);
        p.setPen(Qt::NoPen);
        p.setBrush(area);
        p.drawPath(fill);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(c, 1.5));
        p.drawPath(path);
    };
    drawSide(m_bids, true);
    drawSide(m_asks, false);

    // The prices at both ends and the mid price below, the largest cumulative quantity above.
    p.setPen(pal.color(QPalette::WindowText));
    const QRectF below(plot.left() + 2, plot.bottom() + 2, plot.width() - 4, textH + 2);
    const auto priceText = [](double v) { return QString::number(v, 'f', v >= 1000 ? 2 : v >= 1 ? 4 : 8); };
    p.drawText(below, Qt::AlignLeft | Qt::AlignVCenter, priceText(lo));
    p.drawText(below, Qt::AlignRight | Qt::AlignVCenter, priceText(hi));
    if (!m_bids.isEmpty() && !m_asks.isEmpty()) {
        const double mid = (m_bids.first().x() + m_asks.first().x()) / 2.0;
        const QString text = tr("mid %1").arg(priceText(mid));
        const double x = at(mid, 0).x();
        const int w = fm.horizontalAdvance(text);
        // Centred on the mid, but clear of the end prices.
        const double minLeft = below.left() + fm.horizontalAdvance(priceText(lo)) + 8.0;
        const double maxLeft = std::max(minLeft, below.right() - fm.horizontalAdvance(priceText(hi)) - 8.0 - w);
        const double left = std::clamp(x - w / 2.0, minLeft, maxLeft);
        p.drawText(QRectF(left, below.top(), w + 2, below.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
        QPen midPen(pal.color(QPalette::Mid), 1.0, Qt::DashLine);
        p.setPen(midPen);
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(pal.color(QPalette::WindowText));
    }
    p.drawText(QRectF(plot.left() + 4, plot.top() + 2, plot.width() - 8, textH), Qt::AlignLeft | Qt::AlignVCenter,
               QString::number(top / 1.08, 'g', 6));
}

} // namespace streamscope::ui
