#pragma once

// Where a toolbar's buttons are: what the tests of buttons that must not move compare.

#include <QtCore/QList>
#include <QtCore/QRect>
#include <QtGui/QAction>
#include <QtWidgets/QToolBar>

namespace streamscope::testing {

// Each action's button's geometry in the toolbar, in the toolbar's order.
inline QList<QRect> buttonGeometries(const QToolBar *toolbar)
{
    QList<QRect> out;
    for (QAction *action : toolbar->actions())
        if (QWidget *widget = toolbar->widgetForAction(action))
            out << widget->geometry();
    return out;
}

} // namespace streamscope::testing
