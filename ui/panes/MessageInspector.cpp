#include "MessageInspector.h"

#include "Engine.h"
#include "Format.h"
#include "InspectorModel.h"
#include "MatchHighlightDelegate.h"
#include "WidgetHelpers.h"

#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtGui/QClipboard>
#include <QtGui/QFontDatabase>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

#include <cmath>

namespace streamscope::ui {

MessageInspector::MessageInspector(Engine *engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_model(new InspectorModel(this))
{
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("inspectorTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);

    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter messages…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(
        tr("Show only messages containing this text, or matching it as a regular expression (Esc clears)"));
    m_regex = new QCheckBox(tr("Regex"));
    m_regex->setToolTip(tr("Treat the filter as a regular expression"));
    m_matchCase = new QCheckBox(tr("Match case"));
    m_matchCase->setObjectName(QStringLiteral("matchCase"));
    m_matchCase->setToolTip(tr("Tell upper from lower case (Binance's \"m\" and \"M\", \"e\" and \"E\" differ)"));
    addClearOnEscape(m_filter);
    m_freezeAction = new QAction(tr("Freeze"), this);
    m_freezeAction->setObjectName(QStringLiteral("freezeInspector")); // also in the Streams menu
    m_freezeAction->setCheckable(true);
    m_freezeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_freezeAction->setShortcutContext(Qt::WindowShortcut);
    m_freezeAction->setToolTip(
        tr("Stop the tail scrolling; messages keep being captured and appear on resume (Ctrl+Shift+F)"));
    m_freeze = new QToolButton;
    m_freeze->setDefaultAction(m_freezeAction);
    auto *clear = new QToolButton;
    clear->setText(tr("Clear"));
    clear->setToolTip(tr("Forget the captured messages"));
    auto *copy = new QToolButton;
    copy->setText(tr("Copy"));
    copy->setToolTip(tr("Copy the selected message to the clipboard"));
    m_counts = new QLabel;
    m_counts->setTextFormat(Qt::PlainText);
    m_filterError = new QLabel;
    m_filterError->setTextFormat(Qt::PlainText);
    m_filterError->setStyleSheet(QStringLiteral("color: #d73a49;"));
    m_filterError->hide();

    // While rows come and go the view moves its current row by itself, which is not the
    // user's choice: connected before the view's own handlers so that it is known in time.
    const auto changing = [this] { ++m_modelChanging; };
    connect(m_model, &QAbstractItemModel::rowsAboutToBeRemoved, this, changing);
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, changing);
    connect(m_model, &QAbstractItemModel::layoutAboutToBeChanged, this, changing);
    m_view = new QTableView;
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(InspectorModel::ColTime, digit * 13); // 12:34:56.789
    m_view->setColumnWidth(InspectorModel::ColLatency, digit * 10);
    m_view->setColumnWidth(InspectorModel::ColBytes, digit * 8);
    m_view->setAlternatingRowColors(true);
    m_view->setItemDelegateForColumn(InspectorModel::ColMessage, new MatchHighlightDelegate(m_model, m_view));

    m_detailHeader = new QLabel(tr("Select a message to see it in full."));
    m_detailHeader->setObjectName(QStringLiteral("inspectorNote"));
    m_detailHeader->setTextFormat(Qt::PlainText);
    m_detailHeader->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail = new QPlainTextEdit;
    m_detail->setReadOnly(true);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detail->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto *detailBox = new QWidget;
    auto *detailLayout = new QVBoxLayout(detailBox);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_detailHeader);
    detailLayout->addWidget(m_detail, 1);

    m_split = new QSplitter(Qt::Horizontal);
    m_split->setObjectName(QStringLiteral("inspectorSplitter"));
    m_split->addWidget(m_view);
    m_split->addWidget(detailBox);
    m_split->setStretchFactor(0, 2); // the preview column gets most of the width
    m_split->setStretchFactor(1, 1);
    m_split->setChildrenCollapsible(false);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title);
    bar->addSpacing(12);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_regex);
    bar->addWidget(m_matchCase);
    bar->addWidget(m_freeze);
    bar->addWidget(clear);
    bar->addWidget(copy);
    auto *status = new QHBoxLayout;
    status->addWidget(m_counts);
    status->addStretch();
    status->addWidget(m_filterError);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_split, 1);
    layout->addLayout(status);

    m_timer = new QTimer(this);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &MessageInspector::poll);

    connect(m_filter, &QLineEdit::textChanged, this, &MessageInspector::applyFilter);
    connect(m_regex, &QCheckBox::toggled, this, &MessageInspector::applyFilter);
    connect(m_matchCase, &QCheckBox::toggled, this, &MessageInspector::applyFilter);
    connect(m_freezeAction, &QAction::toggled, this, [this](bool on) {
        m_freezeAction->setText(on ? tr("Resume") : tr("Freeze"));
        m_model->setFrozen(on);
        if (!on)
            m_view->scrollToBottom();
    });
    connect(clear, &QToolButton::clicked, m_model, &InspectorModel::clear);
    connect(copy, &QToolButton::clicked, this, &MessageInspector::copySelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MessageInspector::onCurrentRowChanged);
    connect(m_model, &InspectorModel::countsChanged, this, &MessageInspector::updateCounts);
    // ... and once the view has followed a change, the row of the message shown is selected.
    const auto changed = [this] {
        --m_modelChanging;
        reselectShown();
    };
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, changed);
    connect(m_model, &QAbstractItemModel::modelReset, this, changed);
    connect(m_model, &QAbstractItemModel::layoutChanged, this, changed);

    setStream(kInvalidStreamId, QString());
}

MessageInspector::~MessageInspector()
{
    if (m_engine && m_tapped != kInvalidStreamId && m_engine->contains(m_tapped))
        m_engine->setInspecting(m_tapped, false);
}

void MessageInspector::setStream(StreamId id, const QString &name, const QString &unavailable)
{
    m_title->setText(id == kInvalidStreamId ? tr("No stream selected") : name);
    if (id == m_stream && unavailable == m_unavailable)
        return;
    m_stream = id;
    m_unavailable = unavailable;
    m_offlineNote.clear();
    // A freeze is for the stream it was made on: the next one's messages show at once.
    m_freezeAction->setChecked(false);
    m_model->clear();
    m_shownSeq = 0;
    m_detail->clear();
    m_detailHeader->setText(id == kInvalidStreamId       ? tr("Select a stream in the table to inspect its messages.")
                                : !unavailable.isEmpty() ? unavailable
                                                         : tr("Select a message to see it in full."));
    updateTap();
    updateCounts();
}

void MessageInspector::showOffline(StreamId id, const QString &name, const QVector<InspectedMessage> &messages,
                                   quint64 leftOut)
{
    if (id == m_stream)
        return; // shown already
    setStream(id, name);
    const quint64 over = quint64(std::max(0, int(messages.size()) - m_model->capacity()));
    m_model->append(over > 0 ? messages.mid(qsizetype(over)) : messages);
    if (leftOut + over > 0)
        m_offlineNote = tr("the first %1 messages of the capture are left out").arg(formatCount(leftOut + over));
    updateCounts();
    m_view->scrollToBottom();
}

void MessageInspector::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    updateTap();
}

void MessageInspector::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Narrow (a laptop, charts beside): the message below the list, so that the preview
    // column keeps the whole width; wide: beside it.
    const Qt::Orientation want = width() < kSideBySideWidth ? Qt::Vertical : Qt::Horizontal;
    if (m_split->orientation() != want)
        m_split->setOrientation(want);
}

void MessageInspector::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    updateTap();
}

void MessageInspector::updateTap()
{
    const StreamId want = isVisible() && m_engine && m_engine->contains(m_stream) ? m_stream : kInvalidStreamId;
    if (want == m_tapped)
        return;
    if (m_engine && m_tapped != kInvalidStreamId && m_engine->contains(m_tapped))
        m_engine->setInspecting(m_tapped, false);
    m_tapped = want;
    if (m_tapped != kInvalidStreamId) {
        m_engine->setInspecting(m_tapped, true);
        m_timer->start();
    } else {
        m_timer->stop();
    }
}

void MessageInspector::poll()
{
    if (!m_engine || m_tapped == kInvalidStreamId)
        return;
    if (!m_engine->contains(m_tapped)) {
        m_tapped = kInvalidStreamId;
        m_timer->stop();
        return;
    }
    const QVector<InspectedMessage> batch = m_engine->takeInspected(m_tapped);
    if (batch.isEmpty())
        return;
    QScrollBar *bar = m_view->verticalScrollBar();
    const bool atBottom = bar->value() >= bar->maximum() - 2;
    m_model->append(batch);
    if (atBottom && !m_model->isFrozen())
        m_view->scrollToBottom();
}

void MessageInspector::applyFilter()
{
    QString error;
    if (m_model->setFilter(m_filter->text(), m_regex->isChecked(), &error, m_matchCase->isChecked())) {
        highlightDetail();
        m_filterError->hide();
        m_filter->setStyleSheet(QString());
    } else {
        m_filterError->setText(error);
        m_filterError->show();
        m_filter->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #d73a49; }"));
    }
}

void MessageInspector::onCurrentRowChanged()
{
    if (m_modelChanging > 0)
        return;
    showRow(m_view->currentIndex().row());
}

void MessageInspector::showRow(int row)
{
    const InspectorModel::Entry *e = m_model->entryAt(row);
    if (!e)
        return; // no row chosen: the pane keeps what it shows
    m_shownSeq = e->seq;
    m_detailHeader->setText(
        tr("Received %1 · latency %2 · %3 bytes")
            .arg(formatTimeMs(e->receivedMs), formatLatencyMs(e->latencyMs), formatCount(quint64(e->text.size()))));
    m_detail->setPlainText(InspectorModel::prettyText(e->text));
    highlightDetail();
}

void MessageInspector::highlightDetail()
{
    // The filter's matches in the message shown, as in the table (the first thousand).
    QList<QTextEdit::ExtraSelection> selections;
    const QString text = m_detail->toPlainText();
    const QColor background = MatchHighlightDelegate::matchBackground(m_detail->palette());
    for (const InspectorModel::Span &s : m_model->prettyMatchSpans(text, 1000)) {
        QTextEdit::ExtraSelection sel;
        sel.cursor = QTextCursor(m_detail->document());
        sel.cursor.setPosition(s.start);
        sel.cursor.setPosition(s.start + s.length, QTextCursor::KeepAnchor);
        sel.format.setBackground(background);
        selections.append(sel);
    }
    m_detail->setExtraSelections(selections);
}

void MessageInspector::reselectShown()
{
    // The row of the message shown is selected again where it moved to, so that the table and
    // the pane agree; when it is no longer in the table, nothing is selected.
    if (m_modelChanging > 0 || m_shownSeq == 0)
        return;
    const int row = m_model->rowOfSeq(m_shownSeq);
    const QModelIndex index = row >= 0 ? m_model->index(row, 0) : QModelIndex();
    if (index == m_view->currentIndex())
        return;
    ++m_modelChanging;
    if (index.isValid())
        m_view->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    else
        m_view->selectionModel()->clear();
    --m_modelChanging;
}

void MessageInspector::updateCounts()
{
    QString text = tr("%1 shown of %2 kept")
                       .arg(formatCount(quint64(m_model->rowCount())), formatCount(quint64(m_model->storedCount())));
    if (m_model->pendingCount() > 0)
        text += tr(" · %1 waiting (frozen)").arg(formatCount(quint64(m_model->pendingCount())));
    if (m_model->droppedCount() > 0)
        text += tr(" · %1 older dropped").arg(formatCount(m_model->droppedCount()));
    if (!m_offlineNote.isEmpty())
        text += QStringLiteral(" · ") + m_offlineNote;
    m_counts->setText(text);
}

void MessageInspector::copySelected()
{
    const InspectorModel::Entry *e = m_model->entryAt(m_view->currentIndex().row());
    if (e)
        QGuiApplication::clipboard()->setText(QString::fromUtf8(e->text));
}

} // namespace streamscope::ui
