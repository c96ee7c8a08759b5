#include "WidgetHelpers.h"

#include <QtGui/QAction>
#include <QtWidgets/QLineEdit>

namespace streamscope::ui {

void addClearOnEscape(QLineEdit *edit)
{
    auto *clear = new QAction(edit);
    clear->setObjectName(QStringLiteral("clearOnEscape"));
    clear->setShortcut(Qt::Key_Escape);
    clear->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(clear, &QAction::triggered, edit, &QLineEdit::clear);
    edit->addAction(clear);
}

} // namespace streamscope::ui
