#include "InstrumentAliasDialog.h"

#include "PeerText.h"

#include <QtCore/QSignalBlocker>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

namespace {
enum Column { ColSpelling = 0, ColName, ColWithout, ColumnCount };
}

InstrumentAliasDialog::InstrumentAliasDialog(const InstrumentAliases &current, QWidget *parent)
    : QDialog(parent)
    , m_result(current)
{
    setWindowTitle(tr("Instrument aliases"));
    auto *intro = new QLabel(tr("Venues spell one instrument differently. BTC-USDT, BTCUSDT, BTC/USDT and tBTCUSDT "
                                "are matched without help; write here what a spelling cannot tell (XBT for BTC, a "
                                "bare coin). USD, USDT and USDC are never merged on their own."));
    intro->setWordWrap(true);
    m_table = new QTableWidget(0, ColumnCount);
    m_table->setObjectName(QStringLiteral("aliases"));
    m_table->setHorizontalHeaderLabels({tr("Venue's spelling"), tr("Compared as"), tr("Without the alias")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    for (auto it = current.map().cbegin(); it != current.map().cend(); ++it)
        appendRow(it.key(), it.value());
    auto *add = new QPushButton(tr("&Add"));
    add->setObjectName(QStringLiteral("add"));
    m_remove = new QPushButton(tr("&Remove"));
    m_remove->setObjectName(QStringLiteral("remove"));
    auto *rowButtons = new QHBoxLayout;
    rowButtons->addWidget(add);
    rowButtons->addWidget(m_remove);
    rowButtons->addStretch(1);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addLayout(rowButtons);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(add, &QPushButton::clicked, this, &InstrumentAliasDialog::addRow);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (const int row = m_table->currentRow(); row >= 0)
            m_table->removeRow(row);
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this] { updateHints(); });
    connect(buttons, &QDialogButtonBox::accepted, this, &InstrumentAliasDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &InstrumentAliasDialog::reject);
    resize(560, 360);
}

void InstrumentAliasDialog::appendRow(const QString &spelling, const QString &name)
{
    const QSignalBlocker quiet(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, ColSpelling, new QTableWidgetItem(spelling));
    m_table->setItem(row, ColName, new QTableWidgetItem(name));
    auto *without = new QTableWidgetItem;
    without->setFlags(Qt::ItemIsEnabled);
    m_table->setItem(row, ColWithout, without);
    updateHints();
}

void InstrumentAliasDialog::addRow()
{
    appendRow(QString(), QString());
    const int row = m_table->rowCount() - 1;
    m_table->setCurrentCell(row, ColSpelling);
    m_table->editItem(m_table->item(row, ColSpelling));
}

void InstrumentAliasDialog::updateHints()
{
    const QSignalBlocker quiet(m_table);
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem *spelling = m_table->item(row, ColSpelling);
        QTableWidgetItem *without = m_table->item(row, ColWithout);
        if (!spelling || !without)
            continue;
        const QString n = normalizedInstrument(spelling->text());
        without->setText(n.isEmpty() && !spelling->text().isEmpty() ? tr("not an instrument name") : n);
    }
}

void InstrumentAliasDialog::accept()
{
    QMap<QString, QString> map;
    const auto fail = [this](const QString &text) {
        m_error->setText(text);
        m_error->show();
    };
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString spelling =
            m_table->item(row, ColSpelling) ? m_table->item(row, ColSpelling)->text().trimmed() : QString();
        const QString name =
            m_table->item(row, ColName) ? m_table->item(row, ColName)->text().trimmed().toUpper() : QString();
        if (spelling.isEmpty() && name.isEmpty())
            continue; // an empty row is no alias
        if (normalizedInstrument(spelling).isEmpty())
            return fail(
                tr("Row %1: \"%2\" is not an instrument name (letters, digits and - / _ :, at most %3 "
                   "characters).")
                    .arg(QString::number(row + 1), peerText(spelling, 64), QString::number(kMaxInstrumentNameChars)));
        if (!isNormalizedInstrument(name))
            return fail(tr("Row %1: \"%2\" is not a normalised name; write it as BASE-QUOTE in capitals, such as "
                           "BTC-USD.")
                            .arg(QString::number(row + 1), peerText(name, 64)));
        if (map.contains(spelling))
            return fail(tr("Row %1: \"%2\" is given twice.").arg(QString::number(row + 1), peerText(spelling, 64)));
        map.insert(spelling, name);
    }
    if (map.size() > InstrumentAliases::kMaxAliases)
        return fail(tr("At most %1 aliases.").arg(InstrumentAliases::kMaxAliases));
    m_result = InstrumentAliases(map);
    QDialog::accept();
}

} // namespace streamscope::ui
