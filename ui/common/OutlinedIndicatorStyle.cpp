#include "OutlinedIndicatorStyle.h"

#include <QtGui/QPainter>
#include <QtWidgets/QStyleOption>

namespace streamscope::ui {

namespace {
// Halfway between the palette's window and its text: at least 3:1 against the window on the
// dark palette (the least contrast a control's boundary needs to be seen).
QColor outlineColor(const QPalette &palette)
{
    const QColor a = palette.color(QPalette::Window);
    const QColor b = palette.color(QPalette::WindowText);
    return QColor((a.red() + b.red()) / 2, (a.green() + b.green()) / 2, (a.blue() + b.blue()) / 2);
}
} // namespace

OutlinedIndicatorStyle::OutlinedIndicatorStyle(QStyle *base)
    : QProxyStyle(base)
{
}

void OutlinedIndicatorStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                                           const QWidget *widget) const
{
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    const bool box = element == PE_IndicatorCheckBox || element == PE_IndicatorItemViewItemCheck;
    if ((!box && element != PE_IndicatorRadioButton) || !option)
        return;
    const QPalette &pal = option->palette;
    if (pal.color(QPalette::Window).lightness() >= pal.color(QPalette::WindowText).lightness())
        return; // a light palette: the wrapped style's outline reads already
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, !box);
    painter->setPen(QPen(outlineColor(pal), 1.0));
    painter->setBrush(Qt::NoBrush);
    if (box)
        painter->drawRect(option->rect.adjusted(0, 0, -1, -1));
    else
        painter->drawEllipse(QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5));
    painter->restore();
}

} // namespace streamscope::ui
