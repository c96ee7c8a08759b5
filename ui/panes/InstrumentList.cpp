#include "InstrumentList.h"

#include "Format.h"
#include "WidgetHelpers.h"

#include <QtCore/QSet>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

namespace {
const QColor kStaleColor(0xc0, 0x39, 0x2b); // the alert colour of the rest of the window
} // namespace

InstrumentList::InstrumentList(QWidget *parent)
    : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("instrumentsTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_view = new QTreeWidget;
    m_view->setObjectName(QStringLiteral("instruments"));
    m_view->setColumnCount(ColCount);
    m_view->setHeaderLabels({tr("Instrument"), tr("Messages"), tr("Stale"), tr("Episodes")});
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ColInstrument, QHeaderView::Stretch);
    for (int c : {ColMessages, ColStale, ColEpisodes})
        m_view->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_view->headerItem()->setToolTip(ColStale, tr("Silent well beyond its own cadence while the others speak"));
    m_view->headerItem()->setToolTip(ColEpisodes, tr("Times it went stale (stale_episodes)"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view, 1);
    hide();
}

QString InstrumentList::title() const
{
    return m_title->text();
}

void InstrumentList::clear()
{
    m_view->clear();
    m_rows.clear();
    m_title->clear();
    hide();
}

void InstrumentList::setInstruments(const QVector<InstrumentStatus> &instruments, quint64 untracked)
{
    if (instruments.size() < 2) {
        if (!m_rows.isEmpty() || !isHidden())
            clear();
        return;
    }
    int stale = 0;
    for (const InstrumentStatus &s : instruments) {
        QTreeWidgetItem *row = m_rows.value(s.instrument);
        if (!row) {
            row = new QTreeWidgetItem(m_view);
            row->setText(ColInstrument, s.instrument);
            for (int c : {ColMessages, ColEpisodes})
                row->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
            m_rows.insert(s.instrument, row);
        }
        const QString messages = formatCount(s.messages);
        if (row->text(ColMessages) != messages)
            row->setText(ColMessages, messages);
        const QString episodes = formatCount(s.staleEpisodes);
        if (row->text(ColEpisodes) != episodes)
            row->setText(ColEpisodes, episodes);
        const QString staleText = s.stale ? tr("STALE") : QString();
        if (row->text(ColStale) != staleText) {
            row->setText(ColStale, staleText);
            QFont font = row->font(ColInstrument);
            font.setBold(s.stale);
            for (int c = 0; c < ColCount; ++c) {
                row->setFont(c, font);
                row->setForeground(c, s.stale ? QBrush(kStaleColor) : m_view->palette().text());
            }
            row->setToolTip(ColInstrument,
                            s.stale ? plainToolTip(
                                tr("%1 is silent well beyond its usual gap while the others speak").arg(s.instrument))
                                    : QString());
        }
        stale += s.stale ? 1 : 0;
    }
    // An edited stream starts its list over: rows of instruments it no longer has go.
    if (m_rows.size() > instruments.size()) {
        QSet<QString> names;
        for (const InstrumentStatus &s : instruments)
            names.insert(s.instrument);
        for (auto it = m_rows.begin(); it != m_rows.end();) {
            if (names.contains(it.key())) {
                ++it;
            } else {
                delete it.value();
                it = m_rows.erase(it);
            }
        }
    }
    QString title = tr("Instruments: %1").arg(instruments.size());
    if (stale > 0)
        title += tr(", %1 stale").arg(stale);
    if (untracked > 0)
        title += tr(" (%1 messages of untracked instruments)").arg(formatCount(untracked));
    if (m_title->text() != title)
        m_title->setText(title);
    show();
}

} // namespace streamscope::ui
