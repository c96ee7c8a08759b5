#pragma once

// Streams → Alert rules…: every alert rule of the workspace in one list ("*" for every stream
// without a rule of its own), one form for the selected rule (each kind: rate below, p99
// above, silent, gaps, an order book out of sync or crossed, an instrument gone quiet; with
// for_s and clear_after_s), a preview of what the rule would have raised on the last ten minutes (AlertTrail: the samples the monitor was given, replayed
// through a monitor holding only this rule), and each destination with its own "Send test"
// button and result. Rules are checked as the workspace loader checks them (AlertRule::fromJson).
//
// Thread contract: GUI thread. Owns neither the trail nor the notifier.

#include "AlertRule.h"

#include <QtWidgets/QDialog>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace streamscope::alerts {
class AlertTrail;
class Notifier;
} // namespace streamscope::alerts

namespace streamscope::ui {

class AlertRulesDialog : public QDialog {
    Q_OBJECT
public:
    // `streams`: the names offered for a rule (the window's streams).
    AlertRulesDialog(const alerts::AlertTrail *trail, alerts::Notifier *notifier, const QStringList &streams,
                     QWidget *parent = nullptr);

    void setRules(const QVector<alerts::AlertRule> &rules);
    // The rules as edited; rules with every condition off are left out (they would do nothing).
    QVector<alerts::AlertRule> rules() const;
    // Checks every rule as the workspace loader would, and that no stream has two rules;
    // false with `error` naming the rule.
    static bool validate(const QVector<alerts::AlertRule> &rules, QString *error);

    void accept() override;

private:
    void onCurrentRowChanged(int row);
    // A field of the form changed: `edit` writes it into the selected rule.
    void editRule(const std::function<void(alerts::AlertRule &)> &edit);
    void onAdd();
    void onRemove();
    void refreshList();
    void refreshPreview();
    void fillDestinations();
    QString ruleLabel(const alerts::AlertRule &rule) const;

    const alerts::AlertTrail *m_trail = nullptr;
    alerts::Notifier *m_notifier = nullptr;
    QVector<alerts::AlertRule> m_rules;
    bool m_filling = false; // the form is being filled from a rule: no edits
    QListWidget *m_list = nullptr;
    QPushButton *m_remove = nullptr;
    QComboBox *m_stream = nullptr;
    QDoubleSpinBox *m_rateBelow = nullptr;
    QDoubleSpinBox *m_p99Above = nullptr;
    QSpinBox *m_silent = nullptr;
    QCheckBox *m_gaps = nullptr;
    QCheckBox *m_bookDesync = nullptr;
    QCheckBox *m_bookCrossed = nullptr;
    QCheckBox *m_instrumentStale = nullptr;
    QDoubleSpinBox *m_crossVenueBps = nullptr;
    QCheckBox *m_crossVenueFrozen = nullptr;
    QSpinBox *m_for = nullptr;
    QSpinBox *m_clearAfter = nullptr;
    QLabel *m_previewSummary = nullptr;
    QListWidget *m_preview = nullptr;
    QTreeWidget *m_destinations = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace streamscope::ui
