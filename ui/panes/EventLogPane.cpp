#include "EventLogPane.h"

#include "EventLogModel.h"
#include "WidgetHelpers.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtGui/QClipboard>
#include <QtGui/QDesktopServices>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QMenu>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

namespace {
void showFolderOf(const QString &file)
{
    QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absolutePath()));
}
} // namespace

EventLogPane::EventLogPane(EventLogModel *log, QWidget *parent)
    : QWidget(parent)
    , m_filter(new EventLogFilter(this))
{
    m_filter->setSourceModel(log);
    m_view = makeLogView(m_filter);
    m_view->setObjectName(QStringLiteral("eventLogView"));
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(EventLogModel::ColTime, digit * 14);
    m_view->setColumnWidth(EventLogModel::ColStream, digit * 20);
    m_view->setColumnWidth(EventLogModel::ColKind, digit * 14);
    m_stream = new QComboBox;
    m_stream->setObjectName(QStringLiteral("eventStream"));
    m_stream->addItems({tr("All streams"), tr("Selected stream")});
    m_severity = new QComboBox;
    m_severity->setObjectName(QStringLiteral("eventSeverity"));
    m_severity->addItem(tr("All events"), int(EventLogModel::Severity::Info));
    m_severity->addItem(tr("Warnings and errors"), int(EventLogModel::Severity::Warning));
    m_severity->addItem(tr("Errors"), int(EventLogModel::Severity::Error));
    connect(m_stream, &QComboBox::currentIndexChanged, this, &EventLogPane::applyFilter);
    connect(m_severity, &QComboBox::currentIndexChanged, this, &EventLogPane::applyFilter);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(m_stream);
    bar->addWidget(m_severity);
    bar->addStretch();
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    // Tail the log while the user is at its bottom.
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *scroll = m_view->verticalScrollBar();
        if (scroll->value() >= scroll->maximum() - 30)
            QTimer::singleShot(0, m_view, &QTableView::scrollToBottom);
    });
    // An entry naming a saved file: double-click or the context menu shows it.
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTableView::doubleClicked, this, [](const QModelIndex &index) {
        const QString file = index.data(EventLogModel::FileRole).toString();
        if (!file.isEmpty())
            showFolderOf(file);
    });
    connect(m_view, &QTableView::customContextMenuRequested, this, &EventLogPane::showFileMenu);
}

void EventLogPane::setSelectedStream(const QString &name)
{
    m_selected = name;
    applyFilter();
}

void EventLogPane::applyFilter()
{
    const bool selectedOnly = m_stream->currentIndex() == 1;
    // With nothing selected, "Selected stream" shows nothing rather than everything.
    m_filter->setStream(!selectedOnly ? QString() : !m_selected.isEmpty() ? m_selected : QStringLiteral("\x01"));
    m_filter->setMinimumSeverity(m_severity->currentData().toInt());
}

void EventLogPane::showFileMenu(const QPoint &pos)
{
    const QString file = m_view->indexAt(pos).data(EventLogModel::FileRole).toString();
    if (file.isEmpty())
        return;
    QMenu menu(this);
    menu.addAction(tr("Show file"), this, [file] { showFolderOf(file); });
    menu.addAction(tr("Copy file path"), this,
                   [file] { QGuiApplication::clipboard()->setText(QDir::toNativeSeparators(file)); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace streamscope::ui
