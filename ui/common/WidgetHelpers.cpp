#include "WidgetHelpers.h"

#include <QtGui/QAction>
#include <QtGui/QTextDocument>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
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

void reserveFigureWidth(QLabel *label, const QString &widest)
{
    const QString text = label->text();
    label->setText(widest);
    const QSize hint = label->sizeHint();
    label->setText(text);
    label->setFixedSize(hint.expandedTo(label->sizeHint()));
}

void setFigureText(QLabel *label, const QString &text)
{
    if (label->text() == text)
        return;
    label->setText(text);
    const QSize hint = label->sizeHint();
    const bool fixed = label->minimumSize() == label->maximumSize();
    const QSize size = fixed ? label->maximumSize() : QSize(0, 0);
    if (!fixed || hint.width() > size.width() || hint.height() > size.height())
        label->setFixedSize(hint.expandedTo(size));
}

void setStyleSheetIfChanged(QWidget *widget, const QString &styleSheet)
{
    if (widget->styleSheet() != styleSheet)
        widget->setStyleSheet(styleSheet);
}

QString plainToolTip(const QString &text)
{
    // Qt::mightBeRichText is the test QToolTip itself applies.
    if (!Qt::mightBeRichText(text))
        return text;
    return QStringLiteral("<p style='white-space:pre'>%1</p>").arg(text.toHtmlEscaped());
}

} // namespace streamscope::ui
