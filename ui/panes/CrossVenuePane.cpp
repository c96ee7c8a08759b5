#include "CrossVenuePane.h"

#include "AlertService.h"
#include "CrossVenueModel.h"
#include "InstrumentAliasDialog.h"
#include "ValueFormat.h"

#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

CrossVenuePane::CrossVenuePane(alerts::AlertService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new CrossVenueModel(this))
{
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("crossVenueSummary"));
    m_summary->setWordWrap(true);
    m_aliases = new QPushButton(tr("Aliases…"));
    m_aliases->setObjectName(QStringLiteral("crossVenueAliases"));
    m_aliases->setToolTip(tr("How venues' spellings of an instrument map to one name (instrument_aliases)"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_aliases);

    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("crossVenueView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);

    connect(m_aliases, &QPushButton::clicked, this, &CrossVenuePane::editAliases);
    if (m_service)
        connect(m_service, &alerts::AlertService::crossVenueUpdated, this, &CrossVenuePane::refresh);
    refresh();
}

void CrossVenuePane::refresh()
{
    if (m_service)
        m_model->setInstruments(m_service->crossVenue().instruments());
    const int n = m_model->instrumentCount();
    if (n == 0) {
        m_summary->setText(tr("No instrument is kept by two venues yet: add depth or trade streams of the same "
                              "instrument on different venues (their order books give each venue's mid, their "
                              "trades its last price)."));
        return;
    }
    const int flagged = m_model->flaggedCount();
    m_summary->setText(
        tr("%1 across venues").arg(alerts::countNoun(n, tr("instrument"), tr("instruments")))
        + (flagged > 0 ? tr("; %1 flagged").arg(alerts::countNoun(flagged, tr("row"), tr("rows"))) : QString()));
}

void CrossVenuePane::editAliases()
{
    if (!m_service)
        return;
    InstrumentAliasDialog dialog(m_service->crossVenue().aliases(), this);
    if (dialog.exec() == QDialog::Accepted)
        m_service->setInstrumentAliases(dialog.aliases());
}

} // namespace streamscope::ui
