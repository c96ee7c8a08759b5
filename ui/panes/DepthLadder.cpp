#include "DepthLadder.h"

#include "DepthBarDelegate.h"
#include "DepthChart.h"
#include "DepthLadderModel.h"
#include "Engine.h"
#include "Format.h"
#include "SnapshotHub.h"

#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

DepthLadder::DepthLadder(Engine *engine, SnapshotHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_hub(hub)
    , m_model(new DepthLadderModel(this))
{
    m_clock.start();
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("ladderTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);

    m_instruments = new QComboBox;
    m_instruments->setObjectName(QStringLiteral("ladderInstrument"));
    m_instruments->setToolTip(tr("The stream's order books, one per instrument, with their state"));
    m_instruments->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_instruments->setMinimumContentsLength(18);

    m_freeze = new QAction(tr("Freeze"), this);
    m_freeze->setObjectName(QStringLiteral("freezeLadder"));
    m_freeze->setCheckable(true);
    m_freeze->setToolTip(tr("Hold the ladder as it is now; nothing is copied from the book until you resume"));
    auto *freezeButton = new QToolButton;
    freezeButton->setDefaultAction(m_freeze);

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("ladderStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("ladderNote"));
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignCenter);

    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("ladderView"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new DepthBarDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setFocusPolicy(Qt::NoFocus);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setCornerButtonEnabled(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setSectionsClickable(false);

    m_chart = new DepthChart;

    m_split = new QSplitter(Qt::Vertical);
    m_split->setObjectName(QStringLiteral("ladderSplitter"));
    m_split->addWidget(m_view);
    m_split->addWidget(m_chart);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 1);
    m_split->setChildrenCollapsible(false);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title);
    bar->addStretch();
    bar->addWidget(m_instruments);
    bar->addWidget(freezeButton);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_note);
    layout->addWidget(m_split, 1);

    m_timer = new QTimer(this);
    m_timer->setInterval(kRequestMs);
    connect(m_timer, &QTimer::timeout, this, &DepthLadder::poll);
    m_flashTimer = new QTimer(this);
    m_flashTimer->setInterval(kFlashTickMs);
    connect(m_flashTimer, &QTimer::timeout, this, [this] {
        if (!m_model->advance(m_clock.elapsed()))
            m_flashTimer->stop();
    });

    connect(m_freeze, &QAction::toggled, this, [this](bool on) {
        m_freeze->setText(on ? tr("Resume") : tr("Freeze"));
        if (on)
            m_pending = 0; // an answer on its way is not shown
        updateTimer();
        showStatus();
        if (!on)
            poll(); // up to date at once
    });
    connect(m_instruments, &QComboBox::currentIndexChanged, this, [this] {
        m_model->clear();
        m_chart->clear();
        m_hasDepth = false;
        m_centered = false;
        m_pending = 0;
        showStatus();
        updateTimer();
        poll();
    });
    if (m_engine)
        connect(m_engine, &Engine::bookDepthReady, this, &DepthLadder::onDepth);
    if (m_hub)
        connect(m_hub, &SnapshotHub::ticked, this, &DepthLadder::refreshBooks);

    setStream(kInvalidStreamId, QString());
}

QString DepthLadder::instrument() const
{
    return m_instruments->currentData().toString();
}

void DepthLadder::setInstrument(const QString &instrument)
{
    const int i = m_instruments->findData(instrument);
    if (i >= 0)
        m_instruments->setCurrentIndex(i);
}

void DepthLadder::setStream(StreamId id, const QString &name, const QString &unavailable)
{
    m_title->setText(id == kInvalidStreamId ? tr("No stream selected") : name);
    if (id == m_stream && unavailable == m_unavailable)
        return;
    m_stream = id;
    m_name = name;
    m_unavailable = unavailable;
    m_pending = 0;
    // A freeze is for the book it was made on.
    m_freeze->setChecked(false);
    {
        const QSignalBlocker block(m_instruments);
        m_instruments->clear();
    }
    m_model->clear();
    m_chart->clear();
    m_hasDepth = false;
    m_centered = false;
    refreshBooks();
    showStatus();
    updateTimer();
}

void DepthLadder::refreshBooks()
{
    if (!shown() && m_instruments->count() > 0)
        return; // brought up to date when shown
    QVector<BookStatus> books;
    const bool local = m_stream != kInvalidStreamId && m_engine && m_engine->contains(m_stream);
    if (const StreamSnapshot *s = m_hub && local ? m_hub->find(m_stream) : nullptr)
        books = s->books;
    bool same = books.size() == m_instruments->count();
    for (qsizetype i = 0; same && i < books.size(); ++i)
        same = m_instruments->itemData(int(i)).toString() == books[i].instrument;
    const auto label = [](const BookStatus &b) {
        return QStringLiteral("%1 — %2").arg(b.instrument, QLatin1String(bookStateName(b.state)));
    };
    if (same) {
        for (qsizetype i = 0; i < books.size(); ++i) {
            if (m_instruments->itemText(int(i)) != label(books[i]))
                m_instruments->setItemText(int(i), label(books[i]));
        }
    } else {
        const QString chosen = instrument();
        {
            const QSignalBlocker block(m_instruments);
            m_instruments->clear();
            for (const BookStatus &b : books)
                m_instruments->addItem(label(b), b.instrument);
            const int keep = m_instruments->findData(chosen);
            m_instruments->setCurrentIndex(keep >= 0 ? keep : (books.isEmpty() ? -1 : 0));
        }
        if (instrument() != chosen) { // another book: start afresh
            m_model->clear();
            m_chart->clear();
            m_hasDepth = false;
            m_centered = false;
            m_pending = 0;
        }
    }
    m_instruments->setEnabled(!books.isEmpty());
    updateTimer();
    showStatus();
}

void DepthLadder::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refreshBooks();
    updateTimer();
    poll();
}

void DepthLadder::setShown(bool on)
{
    if (on == m_shown)
        return;
    m_shown = on;
    if (on)
        refreshBooks();
    updateTimer();
    if (on)
        poll();
}

void DepthLadder::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    updateTimer();
}

void DepthLadder::updateTimer()
{
    const bool run = shown() && !m_freeze->isChecked() && m_engine && m_stream != kInvalidStreamId
        && m_engine->contains(m_stream) && !instrument().isEmpty();
    if (run && !m_timer->isActive())
        m_timer->start();
    else if (!run)
        m_timer->stop();
}

bool DepthLadder::polling() const
{
    return m_timer->isActive();
}

void DepthLadder::poll()
{
    if (!m_timer->isActive() || !m_engine)
        return; // hidden, frozen, or nothing to show: nothing is copied
    const qint64 now = m_clock.elapsed();
    if (m_pending != 0 && now - m_pendingSinceMs < kAnswerWaitMs)
        return; // one request out at a time
    m_pending = m_engine->requestBookDepth(m_stream, instrument(), DepthLadderModel::kLevels);
    m_pendingSinceMs = now;
    if (m_pending != 0)
        ++m_requests;
}

void DepthLadder::onDepth(const BookDepth &depth)
{
    if (m_pending == 0 || depth.requestId != m_pending)
        return; // another pane's, or one given up
    m_pending = 0;
    if (m_freeze->isChecked() || depth.stream != m_stream || depth.instrument != instrument())
        return;
    if (!depth.found) {
        m_model->clear();
        m_chart->clear();
        m_hasDepth = false;
    } else {
        m_model->setDepth(depth, m_clock.elapsed());
        m_chart->setDepth(depth);
        m_hasDepth = true;
        if (m_model->flashing() > 0 && !m_flashTimer->isActive())
            m_flashTimer->start();
        if (!m_centered) {
            m_view->scrollTo(m_model->index(DepthLadderModel::bestBidRow(), DepthLadderModel::ColPrice),
                             QAbstractItemView::PositionAtCenter);
            m_centered = true;
        }
    }
    showStatus();
}

QString DepthLadder::note() const
{
    return m_split->isHidden() ? m_note->text() : QString();
}

void DepthLadder::setNote(const QString &note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
    m_split->setVisible(note.isEmpty());
}

QString DepthLadder::statusText() const
{
    return m_status->text();
}

void DepthLadder::showStatus()
{
    // QLabel::clear() lays its parent out again even when the label is empty already: at ten
    // ticks a second, with the dock and the window after it.
    const auto clearStatus = [this] {
        if (!m_status->text().isEmpty())
            m_status->clear();
    };
    if (m_stream == kInvalidStreamId) {
        setNote(tr("Select a depth stream in the table to see its order book."));
        clearStatus();
        return;
    }
    if (!m_unavailable.isEmpty()) {
        setNote(m_unavailable);
        clearStatus();
        return;
    }
    if (m_instruments->count() == 0) {
        setNote(m_engine && m_engine->contains(m_stream)
                    ? tr("This stream keeps no order book yet. Books are kept on depth-diff streams of venues "
                         "with book rules (Binance): one per instrument, from its first diff on.")
                    : tr("No order books here: a capture's or an agent's books are not kept in this window."));
        clearStatus();
        return;
    }
    setNote(QString());
    const BookDepth &d = m_model->depth();
    QString text;
    if (!m_hasDepth) {
        text = m_freeze->isChecked() ? tr("frozen") : tr("waiting for the book…");
    } else {
        QStringList parts;
        parts << tr("update %1").arg(d.updateId);
        parts << (d.ageMs < 0 ? tr("not changed yet") : tr("%1 ago").arg(formatAgeMs(d.ageMs)));
        parts << QLatin1String(bookStateName(d.state));
        parts << tr("%1 bids, %2 asks").arg(formatCount(quint64(d.bidLevels)), formatCount(quint64(d.askLevels)));
        if (m_freeze->isChecked())
            parts << tr("frozen");
        text = parts.join(QStringLiteral(" · "));
    }
    if (m_status->text() != text)
        m_status->setText(text);
    // The state's colour; a style sheet is set only when it changes (the hub ticks ten times a second).
    const QString style =
        m_hasDepth ? QStringLiteral("color: %1;").arg(bookStateColor(d.state, isDarkPalette()).name()) : QString();
    if (m_status->styleSheet() != style)
        m_status->setStyleSheet(style);
}

} // namespace streamscope::ui
