#include "Sparkline.h"

#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

#include <algorithm>
#include <cmath>

namespace streamscope::ui {

Sparkline::Sparkline(const QString &title, Formatter format, QWidget *parent)
    : QWidget(parent)
    , m_title(title)
    , m_format(std::move(format))
    , m_color(0x21, 0x8b, 0xff)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void Sparkline::setPoints(const QList<QPointF> &points)
{
    m_points.clear();
    m_max = 0.0;
    double oldest = 0.0;
    for (const QPointF &p : points) {
        if (p.x() < -kSpanS)
            continue;
        m_points.append(p);
        m_max = std::max(m_max, p.y());
        oldest = std::min(oldest, p.x());
    }
    // A young stream's seconds fill the width rather than its last fifth.
    m_spanS = std::clamp(int(std::ceil(-oldest / 60.0)) * 60, 60, kSpanS);
    setToolTip(caption());
    update();
}

void Sparkline::setColor(const QColor &color)
{
    m_color = color;
    update();
}

QString Sparkline::caption() const
{
    if (m_points.isEmpty())
        return tr("%1: no figures yet").arg(m_title);
    // The newest value only when it is the newest second; a gap at the end means none now.
    const QString now = m_points.last().x() >= 0.0 ? m_format(m_points.last().y()) : QStringLiteral("–");
    return tr("%1 %2 · max %3 · last %4 min").arg(m_title, now, m_format(m_max)).arg(m_spanS / 60);
}

QStringList Sparkline::captionLines() const
{
    const QString whole = caption();
    const QFontMetrics fm = fontMetrics();
    if (fm.horizontalAdvance(whole) <= width())
        return {whole};
    const qsizetype cut = whole.lastIndexOf(QStringLiteral(" · "));
    if (cut < 0)
        return {fm.elidedText(whole, Qt::ElideRight, width())};
    return {fm.elidedText(whole.left(cut), Qt::ElideRight, width()),
            fm.elidedText(whole.mid(cut + 3), Qt::ElideRight, width())};
}

QSize Sparkline::sizeHint() const
{
    return {280, fontMetrics().height() * 5};
}

QSize Sparkline::minimumSizeHint() const
{
    // Wide enough for "p99 12.3 ms · max 45.6 ms" on its first line.
    return {fontMetrics().horizontalAdvance(QLatin1Char('0')) * 26, fontMetrics().height() * 4};
}

void Sparkline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    const int textH = fontMetrics().height();
    p.setPen(pal.color(QPalette::WindowText));
    const QStringList lines = captionLines();
    for (int i = 0; i < lines.size(); ++i)
        p.drawText(QRect(0, i * textH, width(), textH), Qt::AlignLeft | Qt::AlignVCenter, lines[i]);

    const int captionH = int(lines.size()) * textH;
    const QRectF plot(1.0, captionH + 3.0, width() - 2.0, height() - captionH - 5.0);
    p.setPen(QPen(pal.color(QPalette::Mid), 1.0));
    p.setBrush(pal.color(QPalette::Base));
    p.drawRect(plot);
    if (m_points.isEmpty() || plot.height() < 4)
        return;
    const double top = m_max > 0.0 ? m_max * 1.1 : 1.0;
    const auto at = [&](const QPointF &v) {
        return QPointF(plot.right() + v.x() * plot.width() / m_spanS, plot.bottom() - v.y() / top * plot.height());
    };
    QPainterPath path;
    double lastX = 0.0;
    for (int i = 0; i < m_points.size(); ++i) {
        const QPointF &v = m_points[i];
        if (i == 0 || v.x() - lastX > 1.5) // a missing second breaks the line
            path.moveTo(at(v));
        else
            path.lineTo(at(v));
        lastX = v.x();
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(m_color, 1.5));
    p.drawPath(path);
    if (m_points.size() == 1) // a single second is a dot, not nothing
        p.drawEllipse(at(m_points.first()), 1.5, 1.5);
}

} // namespace streamscope::ui
