#include "ControlIcons.h"

#include <QtGui/QPainter>
#include <QtWidgets/QApplication>
#include <QtWidgets/QWidget>

namespace streamscope::ui {

QIcon controlIcon(QStyle::StandardPixmap which, const QWidget *widget)
{
    const QStyle *style = widget ? widget->style() : QApplication::style();
    // The application's palette: the theme is set there, and a widget may not have been told
    // of a change yet.
    const QPalette palette = QApplication::palette();
    const QIcon base = style->standardIcon(which, nullptr, widget);
    QIcon out;
    for (const int side : {16, 20, 24, 32}) {
        for (const QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled}) {
            QPixmap pm = base.pixmap(QSize(side, side));
            QPainter p(&pm);
            p.setCompositionMode(QPainter::CompositionMode_SourceIn);
            QColor color = palette.color(QPalette::Active, QPalette::WindowText);
            if (mode == QIcon::Disabled)
                color.setAlphaF(0.35f);
            p.fillRect(pm.rect(), color);
            p.end();
            out.addPixmap(pm, mode);
        }
    }
    return out;
}

} // namespace streamscope::ui
