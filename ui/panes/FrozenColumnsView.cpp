#include "FrozenColumnsView.h"

#include <QtWidgets/QHeaderView>
#include <QtWidgets/QScrollBar>

namespace streamscope::ui {

FrozenColumnsView::FrozenColumnsView(int frozenCount, QWidget *parent)
    : QTableView(parent)
    , m_frozenCount(frozenCount)
    , m_frozen(new QTableView(this))
{
    m_frozen->setObjectName(QStringLiteral("frozenColumns"));
    // Clicks in the overlay give the table the focus: its shortcuts (Delete, Ctrl+C) apply.
    m_frozen->setFocusProxy(this);
    m_frozen->verticalHeader()->hide();
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setFrameShape(QFrame::NoFrame);
    m_frozen->setMouseTracking(true);
    m_frozen->setContextMenuPolicy(Qt::CustomContextMenu);
    QHeaderView *frozenHeader = m_frozen->horizontalHeader();
    frozenHeader->setSectionsMovable(false);
    frozenHeader->setSectionsClickable(true);
    frozenHeader->setHighlightSections(false);
    frozenHeader->setContextMenuPolicy(Qt::CustomContextMenu);
    viewport()->stackUnder(m_frozen);
    setHorizontalScrollMode(ScrollPerPixel);

    // The overlay scrolls with the table, and a wheel over it scrolls the table.
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    // What the user does in the overlay is done in the table.
    connect(m_frozen, &QAbstractItemView::pressed, this, &QAbstractItemView::pressed);
    connect(m_frozen, &QAbstractItemView::clicked, this, &QAbstractItemView::clicked);
    connect(m_frozen, &QAbstractItemView::doubleClicked, this, &QAbstractItemView::doubleClicked);
    connect(m_frozen, &QAbstractItemView::activated, this, &QAbstractItemView::activated);
    connect(m_frozen, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        emit customContextMenuRequested(viewport()->mapFromGlobal(m_frozen->viewport()->mapToGlobal(pos)));
    });
    connect(frozenHeader, &QWidget::customContextMenuRequested, this, [this, frozenHeader](const QPoint &pos) {
        QHeaderView *header = horizontalHeader();
        emit header->customContextMenuRequested(header->viewport()->mapFromGlobal(frozenHeader->mapToGlobal(pos)));
    });
    // A click on the overlay's header sorts the table (the overlay's header flips its own
    // indicator as a header does, and the table's follows).
    connect(frozenHeader, &QHeaderView::sortIndicatorChanged, this, [this](int logical, Qt::SortOrder order) {
        if (!m_syncing && isSortingEnabled())
            horizontalHeader()->setSortIndicator(logical, order);
    });
    connect(frozenHeader, &QHeaderView::sectionResized, this, [this](int logical, int, int size) {
        if (!m_syncing)
            horizontalHeader()->resizeSection(logical, size);
    });
    QHeaderView *header = horizontalHeader();
    connect(header, &QHeaderView::sectionResized, this, &FrozenColumnsView::syncFrozen);
    connect(header, &QHeaderView::sectionMoved, this, &FrozenColumnsView::syncFrozen);
    connect(header, &QHeaderView::sectionCountChanged, this, &FrozenColumnsView::syncFrozen);
    connect(header, &QHeaderView::sortIndicatorChanged, this, &FrozenColumnsView::syncFrozen);
    connect(header, &QHeaderView::geometriesChanged, this, &FrozenColumnsView::syncFrozen);
}

void FrozenColumnsView::setModel(QAbstractItemModel *model)
{
    QTableView::setModel(model);
    m_frozen->setModel(model);
    // One selection: a row selected in either is selected in both, and the current row too.
    QItemSelectionModel *own = m_frozen->selectionModel();
    m_frozen->setSelectionModel(selectionModel());
    if (own && own != selectionModel())
        own->deleteLater();
    syncFrozen();
}

int FrozenColumnsView::frozenWidth() const
{
    return m_frozen->horizontalHeader()->length();
}

void FrozenColumnsView::syncFrozen()
{
    if (m_syncing || !model())
        return;
    m_syncing = true;
    const QHeaderView *header = horizontalHeader();
    QHeaderView *frozenHeader = m_frozen->horizontalHeader();
    // The first shown columns in the table's order.
    QList<int> frozen;
    for (int visual = 0; visual < header->count() && frozen.size() < m_frozenCount; ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical))
            frozen.append(logical);
    }
    for (int logical = 0; logical < frozenHeader->count(); ++logical) {
        const bool shown = frozen.contains(logical);
        if (frozenHeader->isSectionHidden(logical) == shown)
            frozenHeader->setSectionHidden(logical, !shown);
        if (shown && frozenHeader->sectionSize(logical) != header->sectionSize(logical))
            frozenHeader->resizeSection(logical, header->sectionSize(logical));
        m_frozen->setItemDelegateForColumn(logical, itemDelegateForColumn(logical));
    }
    for (int i = 0; i < frozen.size(); ++i)
        if (frozenHeader->visualIndex(frozen[i]) != i)
            frozenHeader->moveSection(frozenHeader->visualIndex(frozen[i]), i);
    frozenHeader->setSortIndicatorShown(header->isSortIndicatorShown());
    if (frozenHeader->sortIndicatorSection() != header->sortIndicatorSection()
        || frozenHeader->sortIndicatorOrder() != header->sortIndicatorOrder())
        frozenHeader->setSortIndicator(header->sortIndicatorSection(), header->sortIndicatorOrder());
    // The table's look and behaviour, as set after it was made.
    m_frozen->setSelectionBehavior(selectionBehavior());
    m_frozen->setSelectionMode(selectionMode());
    m_frozen->setEditTriggers(editTriggers());
    m_frozen->setAlternatingRowColors(alternatingRowColors());
    m_frozen->setWordWrap(wordWrap());
    m_frozen->setTextElideMode(textElideMode());
    m_frozen->setShowGrid(showGrid());
    m_frozen->setVerticalScrollMode(verticalScrollMode());
    m_frozen->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    frozenHeader->setFixedHeight(header->height());
    m_syncing = false;
    placeFrozen();
}

void FrozenColumnsView::placeFrozen()
{
    const int left = (verticalHeader()->isVisible() ? verticalHeader()->width() : 0) + frameWidth();
    const int width = std::min(frozenWidth(), viewport()->width());
    m_frozen->setGeometry(left, frameWidth(), width, viewport()->height() + horizontalHeader()->height());
    m_frozen->verticalScrollBar()->setValue(verticalScrollBar()->value());
}

void FrozenColumnsView::resizeEvent(QResizeEvent *event)
{
    QTableView::resizeEvent(event);
    placeFrozen();
}

void FrozenColumnsView::updateGeometries()
{
    QTableView::updateGeometries();
    if (m_frozen)
        placeFrozen();
}

QModelIndex FrozenColumnsView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers)
{
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    // A cell reached with the keys is never left behind the frozen columns.
    if (current.isValid() && cursorAction == MoveLeft && m_frozen->isColumnHidden(current.column())) {
        const int x = visualRect(current).left();
        if (x < frozenWidth())
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() + x - frozenWidth());
    }
    return current;
}

void FrozenColumnsView::scrollTo(const QModelIndex &index, ScrollHint hint)
{
    // A frozen column is always in view sideways: only the row needs to come into view.
    if (index.isValid() && !m_frozen->isColumnHidden(index.column())) {
        const int x = horizontalScrollBar()->value();
        QTableView::scrollTo(index, hint);
        horizontalScrollBar()->setValue(x);
        return;
    }
    QTableView::scrollTo(index, hint);
}

} // namespace streamscope::ui
