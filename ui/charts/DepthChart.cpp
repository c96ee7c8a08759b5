#include "DepthChart.h"

#include "AxisTicks.h"
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
    const std::optional<Extent> e = extent();
    if (!e || plot.height() < 8 || plot.width() < 8)
        return;
    const double lo = e->lo;
    const double hi = e->hi;
    const double top = e->top;
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
    const Labels text = labels();
    p.setPen(pal.color(QPalette::WindowText));
    const QRectF below(plot.left() + 2, plot.bottom() + 2, plot.width() - 4, textH + 2);
    p.drawText(below, Qt::AlignLeft | Qt::AlignVCenter, text.low);
    p.drawText(below, Qt::AlignRight | Qt::AlignVCenter, text.high);
    if (!text.mid.isEmpty()) {
        const QString midText = tr("mid %1").arg(text.mid);
        const double x = at((m_bids.first().x() + m_asks.first().x()) / 2.0, 0).x();
        const int w = fm.horizontalAdvance(midText);
        // Centred on the mid, but clear of the end prices.
        const double minLeft = below.left() + fm.horizontalAdvance(text.low) + 8.0;
        const double maxLeft = std::max(minLeft, below.right() - fm.horizontalAdvance(text.high) - 8.0 - w);
        const double left = std::clamp(x - w / 2.0, minLeft, maxLeft);
        p.drawText(QRectF(left, below.top(), w + 2, below.height()), Qt::AlignLeft | Qt::AlignVCenter, midText);
        QPen midPen(pal.color(QPalette::Mid), 1.0, Qt::DashLine);
        p.setPen(midPen);
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(pal.color(QPalette::WindowText));
    }
    p.drawText(QRectF(plot.left() + 4, plot.top() + 2, plot.width() - 8, textH), Qt::AlignLeft | Qt::AlignVCenter,
               text.top);
}

std::optional<DepthChart::Extent> DepthChart::extent() const
{
    if (m_bids.isEmpty() && m_asks.isEmpty())
        return std::nullopt;
    Extent e;
    e.lo = std::numeric_limits<double>::max();
    e.hi = std::numeric_limits<double>::lowest();
    for (const QVector<QPointF> *side : {&m_bids, &m_asks}) {
        for (const QPointF &v : *side) {
            e.lo = std::min(e.lo, v.x());
            e.hi = std::max(e.hi, v.x());
            e.largest = std::max(e.largest, v.y());
        }
    }
    if (e.hi <= e.lo) { // one price: room around it
        e.lo -= 1.0;
        e.hi += 1.0;
    }
    e.top = e.largest > 0.0 ? e.largest * 1.08 : 1.0;
    return e;
}

DepthChart::Labels DepthChart::labels() const
{
    const std::optional<Extent> e = extent();
    if (!e)
        return {};
    Labels out;
    out.low = formatPrice(e->lo);
    out.high = formatPrice(e->hi);
    if (!m_bids.isEmpty() && !m_asks.isEmpty())
        out.mid = formatPrice((m_bids.first().x() + m_asks.first().x()) / 2.0);
    out.top = axisNumber(e->largest);
    return out;
}

} // namespace streamscope::ui
