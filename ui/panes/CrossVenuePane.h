#pragma once

// The Cross-venue pane (docs/user-guide.md, "Cross-venue"): one instrument across venues, side
// by side: every instrument that two or more streams have a price of (a synced order book, or
// trades), a row per stream with its mid, last trade price, best bid and ask, deviations from the
// median of the other venues, the
// spread between the venues, latency and age, flagged rows marked (CrossVenueModel). Above the
// table a summary line; "Aliases…" edits the user's instrument mapping
// (InstrumentAliasDialog), which applies at the next comparison and marks the workspace
// modified.
//
// What it shows comes from the window's AlertService (its CrossVenueMonitor, brought up to date
// once a second by AlertsController), the figures the cross-venue alert rules, the report and
// /metrics use.
//
// Thread contract: GUI thread only. Owns its model and widgets; the service is the window's.

#include <QtWidgets/QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace streamscope::alerts {
class AlertService;
}

namespace streamscope::ui {

class CrossVenueModel;

class CrossVenuePane : public QWidget {
    Q_OBJECT
public:
    explicit CrossVenuePane(alerts::AlertService *service, QWidget *parent = nullptr);

    CrossVenueModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLabel *summary() const { return m_summary; }
    QPushButton *aliasesButton() const { return m_aliases; }

    // Opens the alias editor (modal); an accepted change goes to the service.
    void editAliases();

private:
    void refresh();

    alerts::AlertService *m_service = nullptr;
    CrossVenueModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_aliases = nullptr;
};

} // namespace streamscope::ui
