#include "WidgetHelpers.h"

#include <QtGui/QAction>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTableView>

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

QTableView *makeLogView(QAbstractItemModel *model)
{
    auto *view = new QTableView;
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    view->setAlternatingRowColors(true);
    return view;
}

} // namespace streamscope::ui
