#include "FlightRecorderDialog.h"

#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>

#include <algorithm>

namespace streamscope::ui {

FlightRecorderDialog::FlightRecorderDialog(const FlightConfig &current, const QString &defaultDir, QWidget *parent)
    : QDialog(parent)
    , m_defaultDir(defaultDir)
{
    setWindowTitle(tr("Flight recorder"));
    m_enabled = new QCheckBox(tr("Keep the last minutes of every stream in memory"));
    m_enabled->setObjectName(QStringLiteral("flightEnabled"));
    m_enabled->setChecked(current.enabled);
    m_minutes = new QSpinBox;
    m_minutes->setObjectName(QStringLiteral("flightMinutes"));
    m_minutes->setRange(1, 24 * 60);
    m_minutes->setSuffix(tr(" min"));
    m_minutes->setValue(current.minutes);
    m_memoryMb = new QSpinBox;
    m_memoryMb->setObjectName(QStringLiteral("flightMemoryMb"));
    m_memoryMb->setRange(1, 1024 * 1024);
    m_memoryMb->setSuffix(tr(" MB"));
    m_memoryMb->setValue(current.memoryMb);
    m_memoryMb->setToolTip(
        tr("One cap for all streams: when it is reached, the oldest history of any stream goes first"));
    m_dir = new QLineEdit(current.dir);
    m_dir->setObjectName(QStringLiteral("flightDir"));
    m_dir->setPlaceholderText(defaultDir);
    // The default folder (the placeholder) is read whole, up to 60 characters' width: the field
    // was as wide as the spin boxes and cut a home folder's path to "/home/…/Documents/…".
    const QFontMetrics fm = m_dir->fontMetrics();
    m_dir->setMinimumWidth(std::min(fm.horizontalAdvance(defaultDir), fm.averageCharWidth() * 60)
                           + fm.averageCharWidth() * 2);
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Flight recorder folder"),
                                                              m_dir->text().isEmpty() ? m_defaultDir : m_dir->text());
        if (!dir.isEmpty())
            m_dir->setText(dir);
    });
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_dir, 1);
    folderRow->addWidget(browse);
    m_alertEvery = new QSpinBox;
    m_alertEvery->setObjectName(QStringLiteral("flightAlertEvery"));
    m_alertEvery->setRange(0, 24 * 3600);
    m_alertEvery->setSuffix(tr(" s"));
    m_alertEvery->setValue(current.alertSaveEveryS);
    m_alertEvery->setToolTip(tr("An alert saves its stream's flight recorder at most this often"));
    auto *form = new QFormLayout(this);
    form->addRow(m_enabled);
    form->addRow(tr("Keep:"), m_minutes);
    form->addRow(tr("Memory cap:"), m_memoryMb);
    form->addRow(tr("Save to:"), folderRow);
    form->addRow(tr("Alerts save at most every:"), m_alertEvery);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

FlightConfig FlightRecorderDialog::config() const
{
    FlightConfig c;
    c.enabled = m_enabled->isChecked();
    c.minutes = m_minutes->value();
    c.memoryMb = m_memoryMb->value();
    c.dir = m_dir->text().trimmed();
    c.alertSaveEveryS = m_alertEvery->value();
    return c;
}

} // namespace streamscope::ui
