#include "AlertRulesDialog.h"

#include "AlertTrail.h"
#include "Format.h"
#include "Notifier.h"

#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

using alerts::AlertRule;

AlertRulesDialog::AlertRulesDialog(const alerts::AlertTrail *trail, alerts::Notifier *notifier,
                                   const QStringList &streams, QWidget *parent)
    : QDialog(parent)
    , m_trail(trail)
    , m_notifier(notifier)
{
    setWindowTitle(tr("Alert rules"));
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("rules"));
    auto *add = new QPushButton(tr("&Add"));
    add->setObjectName(QStringLiteral("add"));
    m_remove = new QPushButton(tr("&Remove"));
    m_remove->setObjectName(QStringLiteral("remove"));
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(m_remove);
    listButtons->addStretch();
    auto *left = new QVBoxLayout;
    left->addWidget(m_list, 1);
    left->addLayout(listButtons);

    m_stream = new QComboBox;
    m_stream->setObjectName(QStringLiteral("stream"));
    m_stream->setEditable(true);
    m_stream->addItem(AlertRule::kAnyStream);
    m_stream->addItems(streams);
    m_stream->setToolTip(tr("The stream the rule is for; \"*\" is every stream without a rule of its own"));
    m_rateBelow = new QDoubleSpinBox;
    m_rateBelow->setObjectName(QStringLiteral("rateBelow"));
    m_rateBelow->setRange(0, 1e9);
    m_rateBelow->setDecimals(1);
    m_rateBelow->setSuffix(tr(" msgs/s"));
    m_rateBelow->setSpecialValueText(tr("off"));
    m_p99Above = new QDoubleSpinBox;
    m_p99Above->setObjectName(QStringLiteral("p99Above"));
    m_p99Above->setRange(0, 1e7);
    m_p99Above->setDecimals(1);
    m_p99Above->setSuffix(tr(" ms"));
    m_p99Above->setSpecialValueText(tr("off"));
    m_silent = new QSpinBox;
    m_silent->setObjectName(QStringLiteral("silent"));
    m_silent->setRange(0, AlertRule::kMaxHysteresisS);
    m_silent->setSuffix(tr(" s"));
    m_silent->setSpecialValueText(tr("off"));
    m_gaps = new QCheckBox(tr("on a sequence &gap"));
    m_gaps->setObjectName(QStringLiteral("gaps"));
    m_bookDesync = new QCheckBox(tr("when an order book loses s&ync"));
    m_bookDesync->setObjectName(QStringLiteral("bookDesync"));
    m_bookDesync->setToolTip(tr("An instrument's book is out of sync or resyncing, or resynced since the last "
                                "second (book_desync; docs/books.md)"));
    m_bookCrossed = new QCheckBox(tr("when an order book is cr&ossed"));
    m_bookCrossed->setObjectName(QStringLiteral("bookCrossed"));
    m_bookCrossed->setToolTip(tr("An instrument's best bid is at or above its best ask (book_crossed)"));
    m_instrumentStale = new QCheckBox(tr("when an instrument goes &quiet"));
    m_instrumentStale->setObjectName(QStringLiteral("instrumentStale"));
    m_instrumentStale->setToolTip(tr("An instrument of a combined stream is silent well beyond its own cadence while "
                                     "the others speak (instrument_stale; docs/freshness.md)"));
    m_crossVenueBps = new QDoubleSpinBox;
    m_crossVenueBps->setObjectName(QStringLiteral("crossVenueBps"));
    m_crossVenueBps->setRange(0, 1e5);
    m_crossVenueBps->setDecimals(1);
    m_crossVenueBps->setSuffix(tr(" bps"));
    m_crossVenueBps->setSpecialValueText(tr("off"));
    m_crossVenueBps->setToolTip(tr("The stream's price (its mid, else its last trade) is this far from the median "
                                   "of the other venues' prices of the same instrument (cross_venue_bps; "
                                   "docs/venues.md)"));
    m_crossVenueFrozen = new QCheckBox(tr("when its price &freezes while other venues move"));
    m_crossVenueFrozen->setObjectName(QStringLiteral("crossVenueFrozen"));
    m_crossVenueFrozen->setToolTip(tr("The stream's price (mid, else last trade) has not moved for 30 s while another "
                                      "venue's price of the same instrument moved (cross_venue_frozen)"));
    m_for = new QSpinBox;
    m_for->setObjectName(QStringLiteral("forS"));
    m_for->setRange(0, AlertRule::kMaxHysteresisS);
    m_for->setSuffix(tr(" s"));
    m_for->setToolTip(tr("A condition raises an alert once it has held this long (for_s)"));
    m_clearAfter = new QSpinBox;
    m_clearAfter->setObjectName(QStringLiteral("clearAfterS"));
    m_clearAfter->setRange(0, AlertRule::kMaxHysteresisS);
    m_clearAfter->setSuffix(tr(" s"));
    m_clearAfter->setToolTip(tr("An alert clears once its condition has stayed clear this long (clear_after_s)"));
    auto *form = new QFormLayout;
    form->addRow(tr("&Stream:"), m_stream);
    form->addRow(tr("Rate &below:"), m_rateBelow);
    form->addRow(tr("&p99 above:"), m_p99Above);
    form->addRow(tr("S&ilent for:"), m_silent);
    form->addRow(tr("Gaps:"), m_gaps);
    form->addRow(tr("Books:"), m_bookDesync);
    form->addRow(QString(), m_bookCrossed);
    form->addRow(tr("Instruments:"), m_instrumentStale);
    form->addRow(tr("Cross-&venue:"), m_crossVenueBps);
    form->addRow(QString(), m_crossVenueFrozen);
    form->addRow(tr("Raise &after:"), m_for);
    form->addRow(tr("&Clear after:"), m_clearAfter);

    m_previewSummary = new QLabel;
    m_previewSummary->setObjectName(QStringLiteral("previewSummary"));
    // One line: a wrapped label asks for its height at its width, and the form gave up its own.
    m_previewSummary->setWordWrap(false);
    m_preview = new QListWidget;
    m_preview->setObjectName(QStringLiteral("preview"));
    auto *previewBox = new QGroupBox(tr("On the last ten minutes"));
    auto *previewLayout = new QVBoxLayout(previewBox);
    previewLayout->addWidget(m_previewSummary);
    previewLayout->addWidget(m_preview, 1);

    // The form keeps its height: the preview and the destinations give up theirs first (the
    // form's fields were squeezed to slivers on a 720-pixel screen).
    auto *formBox = new QWidget;
    formBox->setLayout(form);
    form->setContentsMargins(0, 0, 0, 0);
    formBox->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    auto *right = new QVBoxLayout;
    right->addWidget(formBox);
    right->addWidget(previewBox, 1);
    auto *top = new QHBoxLayout;
    top->addLayout(left, 2);
    top->addLayout(right, 3);

    m_destinations = new QTreeWidget;
    m_destinations->setObjectName(QStringLiteral("destinations"));
    m_destinations->setRootIsDecorated(false);
    m_destinations->setHeaderLabels({tr("Destination"), tr("Streams"), tr("Test"), tr("Result")});
    m_destinations->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto *destinationsBox = new QGroupBox(tr("Destinations (Streams → Alert destinations… edits them)"));
    auto *destinationsLayout = new QVBoxLayout(destinationsBox);
    destinationsLayout->addWidget(m_destinations);
    // A few destinations in view; the rules and their preview get the rest of the height.
    m_destinations->setMaximumHeight(m_destinations->fontMetrics().lineSpacing() * 7);

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(destinationsBox);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, &AlertRulesDialog::onCurrentRowChanged);
    connect(add, &QPushButton::clicked, this, &AlertRulesDialog::onAdd);
    connect(m_remove, &QPushButton::clicked, this, &AlertRulesDialog::onRemove);
    // Each field writes its own value only: the others keep the rule's exactly (a spin box of
    // one decimal shows a rule's 12.25 as 12.3, and writing every field back rounded it).
    connect(m_stream, &QComboBox::currentTextChanged, this,
            [this](const QString &text) { editRule([&](AlertRule &r) { r.stream = text.trimmed(); }); });
    const auto bindNumber = [this](QDoubleSpinBox *box, double AlertRule::*field) {
        connect(box, &QDoubleSpinBox::valueChanged, this,
                [this, field](double v) { editRule([&](AlertRule &r) { r.*field = v; }); });
    };
    bindNumber(m_rateBelow, &AlertRule::rateBelow);
    bindNumber(m_p99Above, &AlertRule::p99AboveMs);
    bindNumber(m_crossVenueBps, &AlertRule::crossVenueBps);
    const auto bindSeconds = [this](QSpinBox *box, int AlertRule::*field) {
        connect(box, &QSpinBox::valueChanged, this,
                [this, field](int v) { editRule([&](AlertRule &r) { r.*field = v; }); });
    };
    bindSeconds(m_silent, &AlertRule::silentS);
    bindSeconds(m_for, &AlertRule::forS);
    bindSeconds(m_clearAfter, &AlertRule::clearAfterS);
    const auto bindSwitch = [this](QCheckBox *box, bool AlertRule::*field) {
        connect(box, &QCheckBox::toggled, this,
                [this, field](bool on) { editRule([&](AlertRule &r) { r.*field = on; }); });
    };
    bindSwitch(m_gaps, &AlertRule::gaps);
    bindSwitch(m_bookDesync, &AlertRule::bookDesync);
    bindSwitch(m_bookCrossed, &AlertRule::bookCrossed);
    bindSwitch(m_instrumentStale, &AlertRule::instrumentStale);
    bindSwitch(m_crossVenueFrozen, &AlertRule::crossVenueFrozen);
    connect(buttons, &QDialogButtonBox::accepted, this, &AlertRulesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AlertRulesDialog::reject);
    if (m_notifier)
        connect(m_notifier, &alerts::Notifier::testFinished, this, [this](int index, bool ok, const QString &result) {
            if (QTreeWidgetItem *item = m_destinations->topLevelItem(index)) {
                item->setText(3, ok ? result : tr("failed: %1").arg(result));
                item->setForeground(3, ok ? palette().text() : QBrush(QColor(0xc0, 0x39, 0x2b)));
            }
        });
    fillDestinations();
    resize(minimumSizeHint().expandedTo(QSize(860, 620)));
}

void AlertRulesDialog::setRules(const QVector<AlertRule> &rules)
{
    m_rules = rules;
    refreshList();
    m_list->setCurrentRow(m_rules.isEmpty() ? -1 : 0);
    onCurrentRowChanged(m_list->currentRow());
}

QVector<AlertRule> AlertRulesDialog::rules() const
{
    QVector<AlertRule> out;
    for (const AlertRule &r : m_rules)
        if (!r.isEmpty())
            out.append(r);
    return out;
}

bool AlertRulesDialog::validate(const QVector<AlertRule> &rules, QString *error)
{
    QStringList seen;
    for (qsizetype i = 0; i < rules.size(); ++i) {
        AlertRule parsed;
        const QString where = QStringLiteral("alerts[%1]").arg(i);
        if (!AlertRule::fromJson(rules[i].toJson(), where, parsed, error))
            return false;
        if (seen.contains(rules[i].stream)) {
            *error = tr("%1: a second rule for \"%2\": a stream has one rule").arg(where, rules[i].stream);
            return false;
        }
        seen << rules[i].stream;
    }
    return true;
}

void AlertRulesDialog::accept()
{
    QString error;
    if (!validate(rules(), &error)) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    QDialog::accept();
}

QString AlertRulesDialog::ruleLabel(const AlertRule &rule) const
{
    QStringList kinds;
    if (rule.rateBelow > 0)
        kinds << tr("rate < %1").arg(rule.rateBelow);
    if (rule.p99AboveMs > 0)
        kinds << tr("p99 > %1 ms").arg(rule.p99AboveMs);
    if (rule.silentS > 0)
        kinds << tr("silent %1 s").arg(rule.silentS);
    if (rule.gaps)
        kinds << tr("gaps");
    if (rule.bookDesync)
        kinds << tr("book sync");
    if (rule.bookCrossed)
        kinds << tr("book crossed");
    if (rule.instrumentStale)
        kinds << tr("instrument stale");
    if (rule.crossVenueBps > 0)
        kinds << tr("cross-venue > %1 bps").arg(rule.crossVenueBps);
    if (rule.crossVenueFrozen)
        kinds << tr("cross-venue frozen");
    const QString who = rule.stream == AlertRule::kAnyStream ? tr("* (every other stream)") : rule.stream;
    return kinds.isEmpty() ? tr("%1: nothing").arg(who)
                           : QStringLiteral("%1: %2").arg(who, kinds.join(QStringLiteral(", ")));
}

void AlertRulesDialog::refreshList()
{
    const QSignalBlocker block(m_list);
    const int row = m_list->currentRow();
    m_list->clear();
    for (const AlertRule &r : m_rules)
        m_list->addItem(ruleLabel(r));
    m_list->setCurrentRow(std::min<int>(row, int(m_rules.size()) - 1));
    m_remove->setEnabled(!m_rules.isEmpty());
}

void AlertRulesDialog::onCurrentRowChanged(int row)
{
    const bool valid = row >= 0 && row < m_rules.size();
    for (QWidget *w : std::initializer_list<QWidget *>{m_stream, m_rateBelow, m_p99Above, m_silent, m_gaps,
                                                       m_bookDesync, m_bookCrossed, m_instrumentStale, m_crossVenueBps,
                                                       m_crossVenueFrozen, m_for, m_clearAfter})
        w->setEnabled(valid);
    if (valid) {
        m_filling = true;
        const AlertRule &r = m_rules[row];
        m_stream->setCurrentText(r.stream);
        m_rateBelow->setValue(r.rateBelow);
        m_p99Above->setValue(r.p99AboveMs);
        m_silent->setValue(r.silentS);
        m_gaps->setChecked(r.gaps);
        m_bookDesync->setChecked(r.bookDesync);
        m_bookCrossed->setChecked(r.bookCrossed);
        m_instrumentStale->setChecked(r.instrumentStale);
        m_crossVenueBps->setValue(r.crossVenueBps);
        m_crossVenueFrozen->setChecked(r.crossVenueFrozen);
        m_for->setValue(r.forS);
        m_clearAfter->setValue(r.clearAfterS);
        m_filling = false;
    }
    refreshPreview();
}

void AlertRulesDialog::editRule(const std::function<void(AlertRule &)> &edit)
{
    const int row = m_list->currentRow();
    if (m_filling || row < 0 || row >= m_rules.size())
        return;
    AlertRule &r = m_rules[row];
    edit(r);
    m_list->item(row)->setText(ruleLabel(r));
    m_error->hide();
    refreshPreview();
}

void AlertRulesDialog::onAdd()
{
    AlertRule rule;
    // The first name without a rule, else "*" (a second "*" is refused at OK, naming it).
    QStringList taken;
    for (const AlertRule &r : m_rules)
        taken << r.stream;
    rule.stream = AlertRule::kAnyStream;
    for (int i = 0; i < m_stream->count(); ++i) {
        if (!taken.contains(m_stream->itemText(i))) {
            rule.stream = m_stream->itemText(i);
            break;
        }
    }
    rule.silentS = 30; // a rule that does something from the start; edited in the form
    m_rules.append(rule);
    refreshList();
    m_list->setCurrentRow(int(m_rules.size()) - 1);
}

void AlertRulesDialog::onRemove()
{
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_rules.size())
        return;
    m_rules.remove(row);
    refreshList();
    onCurrentRowChanged(m_list->currentRow());
}

void AlertRulesDialog::refreshPreview()
{
    m_preview->clear();
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_rules.size()) {
        m_previewSummary->setText(tr("Select a rule to see what it would have raised."));
        return;
    }
    if (!m_trail || m_trail->streamCount() == 0) {
        m_previewSummary->setText(tr("Nothing recorded yet: the preview replays the streams' last ten minutes."));
        return;
    }
    const AlertRule rule = m_rules[row];
    QStringList ruled; // streams with a rule of their own, which "*" does not apply to
    for (const AlertRule &r : m_rules)
        if (r.stream != AlertRule::kAnyStream)
            ruled << r.stream;
    const auto applies = [&](const QString &name) {
        return rule.stream == AlertRule::kAnyStream ? !ruled.contains(name) : name == rule.stream;
    };
    const QVector<alerts::AlertTrail::Episode> episodes = m_trail->preview(rule, applies);
    const QString span = formatAgeMs(m_trail->spanMs());
    m_previewSummary->setText(
        episodes.isEmpty() ? tr("No alert would have been raised in the last %1.").arg(span)
            : episodes.size() == 1
            ? tr("1 alert would have been raised in the last %1:").arg(span)
            : tr("%1 alerts would have been raised in the last %2:").arg(episodes.size()).arg(span));
    for (const alerts::AlertTrail::Episode &e : episodes) {
        const QString end =
            e.clearedMs > 0 ? tr("cleared after %1").arg(formatAgeMs(e.clearedMs - e.raisedMs)) : tr("still active");
        m_preview->addItem(tr("%1  %2: %3 (%4)").arg(formatTimeMs(e.raisedMs), e.stream, e.text, end));
    }
}

void AlertRulesDialog::fillDestinations()
{
    m_destinations->clear();
    const int count = m_notifier ? m_notifier->destinationCount() : 0;
    if (count == 0) {
        auto *none = new QTreeWidgetItem(m_destinations, {tr("No destination: alerts show in the window only")});
        none->setFlags(Qt::NoItemFlags);
        return;
    }
    for (int i = 0; i < count; ++i) {
        const QString stream = m_notifier->destinationStream(i);
        auto *item = new QTreeWidgetItem(m_destinations,
                                         {m_notifier->describe(i), stream.isEmpty() ? tr("every stream") : stream});
        auto *test = new QPushButton(tr("Send test"));
        test->setObjectName(QStringLiteral("sendTest-%1").arg(i));
        m_destinations->setItemWidget(item, 2, test);
        connect(test, &QPushButton::clicked, this, [this, i, item] {
            item->setText(3, tr("sending…"));
            m_notifier->sendTest(i);
        });
    }
    m_destinations->resizeColumnToContents(1);
}

} // namespace streamscope::ui
